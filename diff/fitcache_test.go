package diff

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/result"
)

// fitEvidence is the evidence of generated files with every question
// answered by the reference, reference-google and naive.
func fitEvidence(t *testing.T) *diagnose.Evidence {
	t.Helper()
	ps := []cases.Parser{ref(), refGoogle(), &naive{name: "naive"}}
	ev := &diagnose.Evidence{Parsers: []string{"reference", "reference-google", "naive"}}
	for _, f := range Generate(5, 12) {
		ev.Bodies = append(ev.Bodies, diagnose.Body{Robots: f.Robots, Status: 200, Source: f.Name})
		for _, pr := range DeriveProbes(f.Robots, 40) {
			q := diagnose.Question{Body: len(ev.Bodies) - 1, Agent: pr.Agent, URL: pr.URL}
			for _, p := range ps {
				v, err := p.Check(context.Background(), cases.Request{Robots: f.Robots, Agent: pr.Agent, URL: pr.URL})
				if err != nil {
					v = VerdictError
				}
				q.Verdicts = append(q.Verdicts, v)
			}
			ev.Questions = append(ev.Questions, q)
		}
	}
	return ev
}

// TestFitCached checks that the diagnosis read from the cache is the one
// fitted: a second fit of the same evidence fits nothing, a changed
// column fits that parser alone (and gives what fitting all would), and a
// spoilt entry is fitted again.
func TestFitCached(t *testing.T) {
	ev := fitEvidence(t)
	disk, err := OpenCache(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var fitted [][]string // the parsers of each fit
	fit := func(ctx context.Context, ev *diagnose.Evidence, s *diagnose.Start) ([]result.Diagnosis, error) {
		fitted = append(fitted, ev.Parsers)
		return diagnose.FitFrom(ctx, ev, s)
	}
	check := func(name string, ev *diagnose.Evidence, wantFits [][]string) {
		t.Helper()
		fitted = nil
		want, err := diagnose.Fit(context.Background(), ev)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fitCached(context.Background(), disk, ev, fit)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: diagnosis differs (-fitted whole +cached):\n%s", name, d)
		}
		if d := cmp.Diff(wantFits, fitted); d != "" {
			t.Errorf("%s: parsers fitted (-want +got):\n%s", name, d)
		}
	}
	check("first", ev, [][]string{ev.Parsers})
	if departures(ev, 2) == 0 {
		t.Fatal("naive departs nowhere from the reference: the test shows nothing")
	}
	check("second", ev, nil)

	changed := flipNaive(t, ev, 7)
	check("naive changed", changed, [][]string{{"naive"}})

	renamed := *ev
	renamed.Bodies = append([]diagnose.Body(nil), ev.Bodies...)
	renamed.Bodies[0].Source = "elsewhere"
	check("a source renamed", &renamed, [][]string{ev.Parsers})

	key := columnKey(evidenceDigest(ev), ev, 1)
	if err := os.WriteFile(disk.path(key), []byte("spoilt"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("an entry spoilt", ev, [][]string{{"reference-google"}})
	check("mended", ev, nil)

	// The start the partial fits read came from the cache, and a spoilt
	// one is read again, replaced, and fits alike.
	base := evidenceDigest(ev)
	if _, cached := startOf(disk, base, ev); !cached {
		t.Error("the fitter's start was not kept in the cache")
	}
	if err := os.WriteFile(disk.path(digest("fit-start", string(base[:]))), []byte("spoilt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, cached := startOf(disk, base, ev); cached {
		t.Error("a spoilt start was read from the cache")
	}
	check("start spoilt, naive changed again", flipNaive(t, ev, 5), [][]string{{"naive"}})
}

// flipNaive returns ev with naive's allow turned to disallow on every
// mod-th question.
func flipNaive(t *testing.T, ev *diagnose.Evidence, mod int) *diagnose.Evidence {
	t.Helper()
	changed := *ev
	changed.Questions = append([]diagnose.Question(nil), ev.Questions...)
	flipped := 0
	for k, q := range changed.Questions {
		if k%mod == 0 && q.Verdicts[2] == result.Allow {
			q.Verdicts = append([]result.Verdict(nil), q.Verdicts...)
			q.Verdicts[2] = result.Disallow
			changed.Questions[k] = q
			flipped++
		}
	}
	if flipped == 0 {
		t.Fatal("no verdict of naive changed")
	}
	return &changed
}

// departures counts the questions on which parser col's verdict is not
// the first parser's.
func departures(ev *diagnose.Evidence, col int) int {
	n := 0
	for _, q := range ev.Questions {
		if q.Verdicts[col] != q.Verdicts[0] {
			n++
		}
	}
	return n
}

// TestEvidenceSample checks that the evidence kept for the diagnosis stays
// within its bound, that the files kept are those whose digests are
// smallest and fit, and that which they are does not depend on the order
// the files finish in.
func TestEvidenceSample(t *testing.T) {
	mk := func() []*fileResult {
		var rs []*fileResult
		for i := range 200 {
			body := strings.Repeat(fmt.Sprintf("Disallow: /%d\n", i), 1+i%7)
			rs = append(rs, &fileResult{body: File{Name: fmt.Sprint(i), Robots: []byte(body)},
				asked: []Probe{{Agent: "FooBot", URL: "https://example.com/x"}}, answers: [][]result.Verdict{{result.Allow, result.Disallow}}})
		}
		return rs
	}
	kept := func(rs []*fileResult, order []int, limit int) (names []string, size int) {
		s := evidenceSample{limit: limit}
		for _, i := range order {
			s.add(i, rs[i])
		}
		for _, r := range rs {
			if r.answers != nil {
				names = append(names, r.body.Name)
				size += evidenceSize(r)
			}
		}
		if len(names)+s.dropped != len(rs) {
			t.Errorf("%d kept and %d dropped of %d", len(names), s.dropped, len(rs))
		}
		var inOrder []string
		for _, r := range s.results() {
			inOrder = append(inOrder, r.body.Name)
		}
		if !slices.Equal(inOrder, names) {
			t.Errorf("the sample's results %v, want those kept in job order %v", inOrder, names)
		}
		return names, size
	}
	forward := make([]int, 200)
	for i := range forward {
		forward[i] = i
	}
	backward := slices.Clone(forward)
	slices.Reverse(backward)
	shuffled := slices.Clone(forward)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	const limit = 4000
	want, size := kept(mk(), forward, limit)
	if size > limit || len(want) == 0 || len(want) == 200 {
		t.Fatalf("kept %d files, %d bytes, with a bound of %d", len(want), size, limit)
	}
	for _, order := range [][]int{backward, shuffled} {
		if got, _ := kept(mk(), order, limit); !slices.Equal(got, want) {
			t.Errorf("kept %v in another order, %v in file order", got, want)
		}
	}
	// The kept files are the smallest digests: the next one would not fit.
	rs := mk()
	slices.SortFunc(rs, func(a, b *fileResult) int {
		da, db := digest("evidence", a.body.Name, string(a.body.Robots)), digest("evidence", b.body.Name, string(b.body.Robots))
		return bytes.Compare(da[:], db[:])
	})
	n := 0
	for _, r := range rs[:len(want)] {
		n += evidenceSize(r)
	}
	if !slices.Contains(want, rs[len(want)-1].body.Name) || n != size || n+evidenceSize(rs[len(want)]) <= limit {
		t.Errorf("the sample is not the longest run of smallest digests within the bound")
	}
	if all, _ := kept(mk(), forward, -1); len(all) != 200 {
		t.Errorf("no bound kept %d of 200", len(all))
	}
}

func TestBuildIDNote(t *testing.T) {
	le := binary.LittleEndian
	note := func(nameSize, descSize, typ uint32, name, desc string) []byte {
		b := le.AppendUint32(nil, nameSize)
		b = le.AppendUint32(b, descSize)
		b = le.AppendUint32(b, typ)
		return append(append(b, name...), desc...)
	}
	for _, tc := range []struct {
		name string
		note []byte
		want string
	}{
		{"go build ID", note(4, 9, 4, "Go\x00\x00", "abc/def/g"), "abc/def/g"},
		{"another owner", note(4, 9, 4, "GNU\x00", "abc/def/g"), ""},
		{"another type", note(4, 9, 3, "Go\x00\x00", "abc/def/g"), ""},
		{"description cut", note(4, 12, 4, "Go\x00\x00", "abc/def/g"), ""},
		{"header cut", note(4, 9, 4, "Go", ""), ""},
		{"empty", nil, ""},
	} {
		if got := buildIDNote(tc.note, le); got != tc.want {
			t.Errorf("%s: buildIDNote = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestGoBuildID checks the build ID read from this test's own program
// against the go command's.
func TestGoBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("the test program's path: %v", err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid (the go command) cannot run here: %v", err)
	}
	want := strings.TrimSpace(string(out))
	if got := goBuildID(exe); got != want {
		t.Errorf("goBuildID(%s) = %q, want %q (go tool buildid)", exe, got, want)
	}
	if got := goBuildID("fitcache_test.go"); got != "" {
		t.Errorf("goBuildID of a Go source file = %q, want \"\"", got)
	}
}
