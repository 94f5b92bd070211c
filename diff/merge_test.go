package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
)

// TestMergeRuns checks how Merge describes the run of merged reports:
// every shard's command kept, inputs once each, a parser recorded with
// two versions listing both, the latest date, and reports that recorded
// no run counted as such.
func TestMergeRuns(t *testing.T) {
	shard := func(cmd, date, version string, inputs ...string) *Report {
		return &Report{Run: &RunInfo{Command: cmd, Date: date, Profile: cases.ProfileRFC, Inputs: inputs,
			Parsers: []cases.Info{{Name: "reference", Version: "0.1.0"}, {Name: "peer", Version: version, Runtime: "CPython 3.11.7"}}}}
	}
	for _, tc := range []struct {
		name  string
		parts []*Report
		want  *RunInfo
	}{
		{"shards", []*Report{
			shard("reptest diff --shard 1/2", "2026-01-02T00:00:00Z", "1.0", "d: 4 files", "shard 1/2"),
			shard("reptest diff --shard 2/2", "2026-01-03T00:00:00Z", "1.1", "d: 4 files", "shard 2/2"),
		}, &RunInfo{
			Date: "2026-01-03T00:00:00Z", Profile: cases.ProfileRFC,
			Inputs:  []string{"d: 4 files", "shard 1/2", "shard 2/2"},
			Parsers: []cases.Info{{Name: "reference", Version: "0.1.0"}, {Name: "peer", Version: "1.0, 1.1", Runtime: "CPython 3.11.7"}},
			Shards:  []string{"reptest diff --shard 1/2", "reptest diff --shard 2/2"},
			Merged:  2,
		}},
		{"a merged report and one without its run", []*Report{
			{Run: &RunInfo{Command: "reptest report a b", Shards: []string{"a", "b"}, Merged: 2}},
			{},
		}, &RunInfo{Shards: []string{"a", "b"}, Merged: 3, Unrecorded: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, p := range tc.parts {
				p.Summary.Parsers = []string{"reference", "peer"}
			}
			got, err := Merge(tc.parts...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Run); diff != "" {
				t.Errorf("merged run (-want +got):\n%s", diff)
			}
		})
	}
}
