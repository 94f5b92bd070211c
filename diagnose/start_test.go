package diagnose_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/diff"
)

// TestStartFrom checks that a start encoded and decoded fits as one read
// afresh, and that a damaged start or one made for other evidence is
// refused.
func TestStartFrom(t *testing.T) {
	files := diff.Generate(11, 60)
	for i := range files {
		files[i].Probes = diff.DeriveProbes(files[i].Robots, diff.MinProbes)
	}
	ev := evidenceOf(t, files, [][]string{{"first-match"}, {"no-wildcards", "tie-disallow"}})
	want, err := diagnose.Fit(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	data, err := diagnose.NewStart(ev).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	s, err := diagnose.StartFrom(ev, data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := diagnose.FitFrom(context.Background(), ev, s)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("fit from a decoded start differs (-afresh +decoded):\n%s", d)
	}
	if len(want[0].Behaviours) == 0 {
		t.Fatal("first-match found nothing: the test shows nothing")
	}
	fewer := *ev
	fewer.Questions = ev.Questions[:len(ev.Questions)-1]
	for name, tt := range map[string]struct {
		ev   *diagnose.Evidence
		data []byte
	}{
		"damaged":        {ev, data[:len(data)/2]},
		"other evidence": {&fewer, data},
	} {
		if _, err := diagnose.StartFrom(tt.ev, tt.data); err == nil {
			t.Errorf("%s: StartFrom accepted it", name)
		}
	}
}
