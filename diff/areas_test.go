package diff

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// TestRunCountsAreas checks the per-area counts of a small run by hand.
func TestRunCountsAreas(t *testing.T) {
	files := []File{
		{Name: "a", Robots: []byte("User-agent: *\nDisallow: /a\n"), Probes: []Probe{
			{Agent: "FooBot", URL: "/a", Req: "MATCH-1"},   // all disallow
			{Agent: "FooBot", URL: "/%61", Req: "PCT-2"},   // only the reference decodes: it stands apart
			{Agent: "FooBot", URL: "/b", Req: "MATCH-9"},   // all allow
			{Agent: "FooBot", URL: "/c", Req: "NO-SUCH-1"}, // in no area
			{Agent: "FooBot", URL: "/d"},                   // in no area
		}},
		{Name: "b", Robots: []byte("User-agent: *\nDisallow: /\n"), Probes: []Probe{
			// Only the reference allows /robots.txt (MATCH-7).
			{Agent: "FooBot", URL: "/robots.txt", Req: "MATCH-7"},
			{Agent: "FooBot", URL: "/x", Req: "UA-4"},
		}},
	}
	tests := []struct {
		name    string
		parsers func() []cases.Parser
		profile string
		want    []result.AreaStat
	}{{
		name:    "three parsers: the majority decides",
		parsers: func() []cases.Parser { return []cases.Parser{ref(), refGoogle(), &naive{name: "naive"}} },
		want: []result.AreaStat{
			{Area: "user-agent", Probes: 1, Agreed: 1},
			{Area: "matching", Probes: 3, Agreed: 2, Apart: map[string]int{"reference": 1}},
			{Area: "encoding", Probes: 1, Apart: map[string]int{"reference": 1}},
		},
	}, {
		name:    "two parsers: a tie goes to the reference's side under the RFC",
		parsers: func() []cases.Parser { return []cases.Parser{ref(), refGoogle()} },
		want: []result.AreaStat{
			{Area: "user-agent", Probes: 1, Agreed: 1},
			{Area: "matching", Probes: 3, Agreed: 2, Apart: map[string]int{"reference-google": 1}},
			{Area: "encoding", Probes: 1, Apart: map[string]int{"reference-google": 1}},
		},
	}, {
		name:    "two parsers: and under Google's reading with the google profile",
		parsers: func() []cases.Parser { return []cases.Parser{ref(), refGoogle()} },
		profile: result.ProfileGoogle,
		want: []result.AreaStat{
			{Area: "user-agent", Probes: 1, Agreed: 1},
			{Area: "matching", Probes: 3, Agreed: 2, Apart: map[string]int{"reference": 1}},
			{Area: "encoding", Probes: 1, Apart: map[string]int{"reference": 1}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := make([]File, len(files))
			for i, f := range files {
				f.Profile = tt.profile
				fs[i] = f
			}
			rep := run(t, fs, 2, tt.parsers)
			if diff := cmp.Diff(tt.want, rep.Summary.Areas); diff != "" {
				t.Errorf("areas (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunCountsAreasOfTable checks that a run counts probes in the areas
// of the table Options.Table gives, in that table's order, not the
// embedded one's.
func TestRunCountsAreasOfTable(t *testing.T) {
	files := []File{{Name: "a", Robots: []byte("User-agent: *\nDisallow: /a\n"), Probes: []Probe{
		{Agent: "FooBot", URL: "/a", Req: "MATCH-1"},
		{Agent: "FooBot", URL: "/%61", Req: "PCT-2"}, // its prefix is in no area of this table
		{Agent: "FooBot", URL: "/x", Req: "UA-4"},
	}}}
	table := result.Table{
		Areas: []result.Area{{Name: "agents"}, {Name: "paths"}},
		Requirements: []result.Requirement{
			{ID: "MATCH-99", Area: "paths"}, // another ID of the prefix finds the area
			{ID: "UA-4", Area: "agents"},
		},
	}
	mk := func(context.Context) ([]cases.Parser, error) { return []cases.Parser{ref(), refGoogle()}, nil }
	rep, err := Run(context.Background(), files, mk, Options{Workers: 1, Table: table})
	if err != nil {
		t.Fatal(err)
	}
	want := []result.AreaStat{{Area: "agents", Probes: 1, Agreed: 1}, {Area: "paths", Probes: 1, Agreed: 1}}
	if diff := cmp.Diff(want, rep.Summary.Areas); diff != "" {
		t.Errorf("areas (-want +got):\n%s", diff)
	}
}

func TestMajority(t *testing.T) {
	const a, d, r = result.Allow, result.Disallow, result.Reject
	tests := []struct {
		vs     []result.Verdict
		ref    result.Verdict
		side   result.Verdict
		hasOne bool
	}{
		{[]result.Verdict{a, a, d}, d, a, true},
		{[]result.Verdict{a, d}, d, d, true},
		{[]result.Verdict{a, d, r, r}, a, r, true},
		{[]result.Verdict{a, d, r}, d, d, true},
		{[]result.Verdict{d, r}, a, a, false},   // the reference sides with neither
		{[]result.Verdict{a, d}, "", "", false}, // the reference gives no verdict
	}
	for _, tt := range tests {
		side, ok := majority(tt.vs, func() result.Verdict { return tt.ref })
		if ok != tt.hasOne || ok && side != tt.side {
			t.Errorf("majority(%v, ref %s) = %s, %v; want %s, %v", tt.vs, tt.ref, side, ok, tt.side, tt.hasOne)
		}
	}
}

// TestProbeKindsAreRequirements checks that every kind of derived probe
// exercises a requirement of the table, so that each is counted in an
// area.
func TestProbeKindsAreRequirements(t *testing.T) {
	reqs, err := cases.Requirements()
	if err != nil {
		t.Fatal(err)
	}
	for kind, req := range probeKinds {
		if !slices.ContainsFunc(reqs, func(r result.Requirement) bool { return r.ID == req && r.Area != "" }) {
			t.Errorf("probe kind %q: requirement %q is in no area of corpus/requirements.yaml", kind, req)
		}
	}
	body := []byte("User-agent: FooBot\nDisallow: /a*b$\nAllow: /a*b$x\nUser-agent: *\nAllow: /%7Ec?x\nDisallow: /%7Ec?y\n")
	for _, p := range DeriveProbes(body, 1000) {
		if want, ok := probeKinds[p.Kind]; !ok || p.Req != want {
			t.Errorf("probe %+v: Req %q, want the kind's %q", p, p.Req, want)
		}
	}
}
