package accesslog_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/cases"
)

// An audit's checks take their levels from the requirement table it is
// given: the same violations are a deviation when the table makes ACC-2
// a SHOULD.
func TestResultsLevelsFromTable(t *testing.T) {
	table, err := cases.RequirementTable()
	if err != nil {
		t.Fatal(err)
	}
	lenient := table
	lenient.Requirements = slices.Clone(table.Requirements)
	for i := range lenient.Requirements {
		if lenient.Requirements[i].ID == "ACC-2" {
			lenient.Requirements[i].Level = string(cases.SHOULD)
		}
	}
	rep := &accesslog.Report{Agents: []*accesslog.AgentReport{{Agent: "FooBot", Requests: 3, ByReq: map[string]int{"ACC-2": 2, "CACHE-2": 1}}}}
	for _, tc := range []struct {
		name  string
		table cases.Table
		want  []cases.Outcome // ACC-2, ACC-7, CACHE-2
	}{
		{"the table", table, []cases.Outcome{cases.Violation, cases.Pass, cases.Deviation}},
		{"ACC-2 a SHOULD", lenient, []cases.Outcome{cases.Deviation, cases.Pass, cases.Deviation}},
	} {
		sums, results := accesslog.Results(rep, tc.table)
		var got []cases.Outcome
		for _, r := range results {
			got = append(got, r.Outcome)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: outcomes (-want +got):\n%s", tc.name, diff)
		}
		if len(sums) != 1 || sums[0].Conforms != (tc.want[0] != cases.Violation) {
			t.Errorf("%s: summaries %+v", tc.name, sums)
		}
	}
}
