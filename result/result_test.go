package result

import "testing"

func TestOutcomeFails(t *testing.T) {
	for _, tc := range []struct {
		o              Outcome
		lenient, strct bool
	}{
		{Pass, false, false}, {Note, false, false}, {Skipped, false, false},
		{Deviation, false, true}, {Violation, true, true}, {Error, true, true},
	} {
		if got := tc.o.Fails(false); got != tc.lenient {
			t.Errorf("%s.Fails(false) = %v", tc.o, got)
		}
		if got := tc.o.Fails(true); got != tc.strct {
			t.Errorf("%s.Fails(true) = %v", tc.o, got)
		}
		// Judge agrees with Fails for a summary of that one outcome.
		for _, strict := range []bool{false, true} {
			var s Summary
			s.Add(tc.o)
			s.Judge(strict)
			if s.Conforms == tc.o.Fails(strict) {
				t.Errorf("one %s, strict %v: Conforms = %v", tc.o, strict, s.Conforms)
			}
		}
	}
}

func TestAreaIndex(t *testing.T) {
	ix := Table{
		Areas:        []Area{{Name: "agents"}, {Name: "paths"}},
		Requirements: []Requirement{{ID: "UA-1", Area: "agents"}, {ID: "MATCH-2", Area: "paths"}},
	}.Index()
	tests := []struct {
		id, area string
		rank     int
	}{
		{"UA-1", "agents", 0},
		{"MATCH-7", "paths", 1}, // an ID the table lacks finds its prefix's area
		{"PCT-1", "", 2},        // a prefix the table lacks: no area, ranked last
	}
	for _, tt := range tests {
		if got := ix.AreaOf(tt.id); got != tt.area {
			t.Errorf("AreaOf(%q) = %q, want %q", tt.id, got, tt.area)
		}
		if got := ix.Rank(tt.area); got != tt.rank {
			t.Errorf("Rank(%q) = %d, want %d", tt.area, got, tt.rank)
		}
	}
}

func TestDepartureUnit(t *testing.T) {
	tests := []struct {
		d    Document
		want string
	}{
		{Document{Crawls: []CrawlRun{{}}, Results: []Result{{}}}, "departures"},
		{Document{Summary: &DiffSummary{}}, "probes"},
		{Document{Findings: []Finding{{}}}, "probes"},
		{Document{Results: []Result{{}}, Summary: &DiffSummary{}}, "checks"},
		{Document{}, "checks"},
	}
	for i, tt := range tests {
		if got := tt.d.DepartureUnit(); got != tt.want {
			t.Errorf("%d: DepartureUnit() = %q, want %q", i, got, tt.want)
		}
	}
}
