package accesslog_test

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/accesslog"
)

// Requests of several logs come in time order, a tie to the earlier log.
func TestMerge(t *testing.T) {
	a := combinedLine("06", "01:00", "A", "/1", 200) + combinedLine("06", "03:00", "A", "/3", 200) + combinedLine("06", "05:00", "A", "/5", 200)
	b := combinedLine("06", "02:00", "B", "/2", 200) + "junk\n" + combinedLine("06", "03:00", "B", "/3b", 200) + combinedLine("06", "06:00", "B", "/6", 200)
	m := accesslog.Merge(accesslog.NewScanner(strings.NewReader(a), "a", accesslog.Format{}),
		accesslog.NewScanner(strings.NewReader(""), "empty", accesslog.Format{}),
		accesslog.NewScanner(strings.NewReader(b), "b", accesslog.Format{}))
	var got []string
	for m.Scan() {
		got = append(got, m.Request().URL+" "+m.Request().Source)
	}
	want := []string{"/1 a:1", "/2 b:1", "/3 a:2", "/3b b:3", "/5 a:3", "/6 b:4"}
	if diff := cmp.Diff(want, got); diff != "" || m.Err() != nil {
		t.Errorf("order (-want +got):\n%s; err %v", diff, m.Err())
	}
}

// A log that fails to read ends the merge with its error.
func TestMergeReadError(t *testing.T) {
	boom := errors.New("disk gone")
	m := accesslog.Merge(accesslog.NewScanner(strings.NewReader(combinedLine("06", "01:00", "A", "/1", 200)), "a", accesslog.Format{}),
		accesslog.NewScanner(iotest.ErrReader(boom), "b", accesslog.Format{}))
	for m.Scan() {
	}
	if !errors.Is(m.Err(), boom) {
		t.Errorf("err %v, want %v", m.Err(), boom)
	}
}
