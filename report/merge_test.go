package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// shard returns the part of the fixture run that covers the given cases.
func shard(ids ...string) *result.Document {
	var cs []cases.Case
	for _, c := range fixtureCases() {
		for _, id := range ids {
			if c.ID == id {
				cs = append(cs, c)
			}
		}
	}
	sums := []result.Summary{{Name: "reference", Version: "0.1.0"}, {Name: "temoto", Version: "v1.1.2"}, {Name: "grobotstxt", Version: "v1.0.3"}}
	return cases.NewDocument(result.Meta{Version: "0.1.0", Profile: result.ProfileRFC}, sums, fixtureResults(cs), cs)
}

func TestMergeShards(t *testing.T) {
	whole := fixtureDoc()
	whole.Findings, whole.Summary, whole.Run, whole.Reference = nil, nil, nil, ""
	a := shard("merge/two-groups-same-agent", "match/tie-allow-wins", "syn/comment")
	b := shard("http/redirect-cross-host", "cache/refetch-after-a-day", "syn/comment") // syn/comment in both: identical
	got, err := result.Merge(embeddedTable(t), a, b)
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	if diff := cmp.Diff(whole, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("merged shards differ from the whole run (-whole +merged):\n%s", diff)
	}
}

func TestMergeConflicts(t *testing.T) {
	a := shard("merge/two-groups-same-agent")
	b := shard("merge/two-groups-same-agent")
	b.Results[0].Outcome = result.Violation
	b.Results[0].Verdict = result.Allow
	b.Parsers[1].Version = "v9"
	b.Profile = result.ProfileGoogle
	_, err := result.Merge(embeddedTable(t), a, b)
	var ce *result.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Merge error = %v, want a *result.ConflictError", err)
	}
	for _, want := range []string{`profile "rfc9309" in document 1, "google" in document 2`, `parser "temoto" has version "v1.1.2" and "v9"`, `case "merge/two-groups-same-agent", check 0: pass in one shard, violation in document 2`} {
		found := false
		for _, c := range ce.Conflicts {
			found = found || strings.Contains(c, want)
		}
		if !found {
			t.Errorf("conflicts %q lack %q", ce.Conflicts, want)
		}
	}
}

func TestMergeFindingsAndRequirements(t *testing.T) {
	a := &result.Document{Tool: result.Tool, Requirements: []result.Requirement{{ID: "UA-10", Cases: 1}, {ID: "SYN-1", Cases: 2}}}
	b := &result.Document{Tool: result.Tool, Requirements: []result.Requirement{{ID: "UA-2", Cases: 3}, {ID: "SYN-1", Cases: 2}}}
	f := fixtureDoc().Findings
	a.Findings = f[:1]
	b.Findings = f
	got, err := result.Merge(embeddedTable(t), a, b)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range got.Requirements {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff([]string{"SYN-1", "UA-2", "UA-10"}, ids); diff != "" {
		t.Errorf("requirements (-want +got):\n%s", diff)
	}
	if len(got.Findings) != 2 {
		t.Errorf("merged findings = %d, want 2 (one duplicate dropped)", len(got.Findings))
	}
	b.Requirements[1].Cases = 5
	if _, err := result.Merge(embeddedTable(t), a, b); err == nil || !strings.Contains(err.Error(), `requirement "SYN-1" differs`) {
		t.Errorf("differing requirement: err = %v", err)
	}
	if _, err := result.Merge(embeddedTable(t)); err == nil {
		t.Errorf("result.Merge(embeddedTable(t)) of nothing succeeded")
	}
}

// A merge keeps the interruption of any shard and the selection.
func TestMergeInterruptedShard(t *testing.T) {
	a := &result.Document{Tool: result.Tool, Selection: &result.Selection{Cases: 3, Shard: "1/2", ShardCases: 2}}
	b := &result.Document{Tool: result.Tool, Selection: &result.Selection{Cases: 3, Shard: "2/2", ShardCases: 1}, Interrupted: true, InterruptReason: "terminated signal received"}
	m, err := result.Merge(embeddedTable(t), a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Interrupted || m.InterruptReason != "document 2 (shard 2/2): terminated signal received" {
		t.Errorf("merged: interrupted %v, reason %q", m.Interrupted, m.InterruptReason)
	}
	if m.Selection == nil || *m.Selection != (result.Selection{Cases: 3, Shard: "1/1", ShardCases: 3}) {
		t.Errorf("merged selection %+v", m.Selection)
	}
	if !m.ShouldFail() {
		t.Error("an interrupted run does not fail")
	}
	m, _ = result.Merge(embeddedTable(t), a)
	if m.Selection.Shard != "1/2" {
		t.Errorf("partial merge: shard %q, want 1/2", m.Selection.Shard)
	}
}

// embeddedTable is the requirement table the merged documents were run
// against.
func embeddedTable(t *testing.T) result.Table {
	t.Helper()
	tb, err := cases.RequirementTable()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
