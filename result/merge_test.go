package result_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// table is the embedded requirement table, whose order merges follow.
func table(t *testing.T) result.Table {
	t.Helper()
	tb, err := cases.RequirementTable()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestMergeAddsAreas(t *testing.T) {
	part := func(areas ...result.AreaStat) *result.Document {
		return &result.Document{Tool: result.Tool, Summary: &result.DiffSummary{Parsers: []string{"p", "q"}, Areas: areas}}
	}
	got, err := result.Merge(table(t),
		part(result.AreaStat{Area: "encoding", Probes: 3, Agreed: 1, Apart: map[string]int{"p": 2}},
			result.AreaStat{Area: "matching", Probes: 5, Agreed: 5}),
		part(result.AreaStat{Area: "matching", Probes: 2, Agreed: 1, Apart: map[string]int{"q": 1}},
			result.AreaStat{Area: "syntax", Probes: 1, Agreed: 1}),
		part(result.AreaStat{Area: "encoding", Probes: 1, Apart: map[string]int{"p": 1, "q": 1}}),
	)
	if err != nil {
		t.Fatal(err)
	}
	// Added area by area, in the order of the requirement table.
	want := []result.AreaStat{
		{Area: "syntax", Probes: 1, Agreed: 1},
		{Area: "matching", Probes: 7, Agreed: 6, Apart: map[string]int{"q": 1}},
		{Area: "encoding", Probes: 4, Agreed: 1, Apart: map[string]int{"p": 3, "q": 1}},
	}
	if diff := cmp.Diff(want, got.Summary.Areas); diff != "" {
		t.Errorf("merged areas (-want +got):\n%s", diff)
	}
}

// TestMergeRuns checks how Merge describes the run of merged reports:
// every shard's command kept, inputs once each, a parser recorded with
// two versions listing both, the latest date, and reports that recorded
// no run counted as such.
func TestMergeRuns(t *testing.T) {
	shard := func(cmd, date, version string, inputs ...string) *result.Document {
		return &result.Document{Tool: result.Tool, Run: &result.RunInfo{Command: cmd, Date: date, Profile: "rfc9309", Inputs: inputs,
			Parsers: []result.Info{{Name: "reference", Version: "0.1.0"}, {Name: "peer", Version: version, Runtime: "CPython 3.11.7"}}}}
	}
	for _, tc := range []struct {
		name  string
		parts []*result.Document
		want  *result.RunInfo
	}{
		{"shards", []*result.Document{
			shard("reptest diff --shard 1/2", "2026-01-02T00:00:00Z", "1.0", "d: 4 files", "shard 1/2"),
			shard("reptest diff --shard 2/2", "2026-01-03T00:00:00Z", "1.1", "d: 4 files", "shard 2/2"),
		}, &result.RunInfo{
			Date: "2026-01-03T00:00:00Z", Profile: "rfc9309",
			Inputs:  []string{"d: 4 files", "shard 1/2", "shard 2/2"},
			Parsers: []result.Info{{Name: "reference", Version: "0.1.0"}, {Name: "peer", Version: "1.0, 1.1", Runtime: "CPython 3.11.7"}},
			Shards:  []string{"reptest diff --shard 1/2", "reptest diff --shard 2/2"},
			Merged:  2,
		}},
		{"a merged report and one without its run", []*result.Document{
			{Tool: result.Tool, Run: &result.RunInfo{Command: "reptest report a b", Shards: []string{"a", "b"}, Merged: 2}},
			{Tool: result.Tool},
		}, &result.RunInfo{Shards: []string{"a", "b"}, Merged: 3, Unrecorded: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, p := range tc.parts {
				p.Summary = &result.DiffSummary{Parsers: []string{"reference", "peer"}}
			}
			got, err := result.Merge(table(t), tc.parts...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Run); diff != "" {
				t.Errorf("merged run (-want +got):\n%s", diff)
			}
		})
	}
}

// The shards' requirement areas are the merged document's; shards that
// were run against tables with other areas do not merge.
func TestMergeTableAreas(t *testing.T) {
	tb := table(t)
	shard := func(areas []result.Area) *result.Document {
		return &result.Document{Tool: result.Tool, Parsers: []result.Summary{}, Results: []result.Result{}, Areas: areas}
	}
	got, err := result.Merge(tb, shard(tb.Areas), shard(nil), shard(tb.Areas))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tb.Areas, got.Areas); diff != "" {
		t.Errorf("merged areas (-table +merged):\n%s", diff)
	}
	other := append([]result.Area(nil), tb.Areas...)
	other[0].Title = "another title"
	if _, err := result.Merge(tb, shard(tb.Areas), shard(other)); err == nil {
		t.Error("shards with other areas merged")
	}
}
