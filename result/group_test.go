package result_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/result"
)

// A group's sources are those of its findings alone, in the order first
// named, each with its distinct lines sorted.
func TestGroupSources(t *testing.T) {
	vs := map[string]result.Verdict{"a": result.Allow, "b": result.Disallow}
	f := func(req string, sources []string, lines map[string][]int) result.Finding {
		return result.Finding{Signature: result.Signature(vs), Verdicts: vs, Req: []string{req}, Sources: sources, SourceLines: lines}
	}
	fs := []result.Finding{
		f("MATCH-4", []string{"x.txt", "y.txt"}, map[string][]int{"x.txt": {9, 3}}),
		f("UA-2", []string{"z.txt"}, map[string][]int{"z.txt": {1}}),
		f("MATCH-4", []string{"y.txt", "x.txt"}, map[string][]int{"x.txt": {3, 5}, "y.txt": {2}}),
	}
	g := result.GroupFindings(fs)[0]
	files, lines := g.Sources(fs)
	if diff := cmp.Diff([]string{"x.txt", "y.txt"}, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]int{"x.txt": {3, 5, 9}, "y.txt": {2}}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestMostApart(t *testing.T) {
	a := result.AreaStat{Apart: map[string]int{"c": 2, "a": 2, "b": 5, "d": 1, "z": 0}}
	if diff := cmp.Diff([]string{"b", "a", "c"}, a.MostApart(3)); diff != "" {
		t.Errorf("MostApart(3) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"b", "a", "c", "d"}, a.MostApart(9)); diff != "" {
		t.Errorf("MostApart(9): none with 0 probes (-want +got):\n%s", diff)
	}
}

func TestPairOf(t *testing.T) {
	pairs := []result.PairStat{{A: "x", B: "y", Probes: 1}, {A: "y", B: "z", Probes: 2}}
	for _, tt := range []struct {
		a, b string
		want int
		ok   bool
	}{{"x", "y", 1, true}, {"z", "y", 2, true}, {"x", "z", 0, false}} {
		p, ok := result.PairOf(pairs, tt.a, tt.b)
		if ok != tt.ok || p.Probes != tt.want {
			t.Errorf("PairOf(%s, %s) = %d, %v; want %d, %v", tt.a, tt.b, p.Probes, ok, tt.want, tt.ok)
		}
	}
}

func TestStances(t *testing.T) {
	sides := []result.Side{{Verdict: result.Allow, Parsers: []string{"a", "reference"}}, {Verdict: result.Disallow, Parsers: []string{"b"}}}
	g := result.Group{Example: result.Finding{Verdicts: map[string]result.Verdict{"reference": result.Allow, "a": result.Allow, "b": result.Disallow}}}
	want := []result.Stance{
		{Parser: "a", Verdict: result.Allow},
		{Parser: "reference", Verdict: result.Allow, Departs: true}, // the reference stands on its own side
		{Parser: "b", Verdict: result.Disallow, Departs: true, Alone: true},
	}
	if diff := cmp.Diff(want, g.Stances(sides, "reference")); diff != "" {
		t.Errorf("Stances (-want +got):\n%s", diff)
	}
	// Without the reference's verdict every parser departs.
	for _, st := range g.Stances(sides, "other") {
		if !st.Departs {
			t.Errorf("ref absent: %s does not depart", st.Parser)
		}
	}
}
