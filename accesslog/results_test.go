package accesslog_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
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
			lenient.Requirements[i].Level = string(result.SHOULD)
		}
	}
	log := `192.0.2.1 - - [06/Oct/2026:01:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 80 "-" "FooBot/1.0"
192.0.2.1 - - [06/Oct/2026:01:00:05 +0000] "GET /private/a HTTP/1.1" 200 512 "-" "FooBot/1.0"
192.0.2.1 - - [06/Oct/2026:01:00:06 +0000] "GET /private/b HTTP/1.1" 200 512 "-" "FooBot/1.0"
`
	versions := []crawl.Version{{Status: 200, Body: []byte("User-agent: FooBot\nDisallow: /private/\n"), Label: "robots.txt"}}
	a := accesslog.NewAuditor(versions, accesslog.Options{Grace: 24 * time.Hour, Reference: reference.RFC()})
	sc := accesslog.NewScanner(strings.NewReader(log), "access.log", accesslog.Format{})
	for sc.Scan() {
		a.Add(sc.Request())
	}
	for _, tc := range []struct {
		name  string
		table result.Table
		want  []result.Outcome // ACC-2, ACC-7, CACHE-2
	}{
		{"the table", table, []result.Outcome{result.Violation, result.Pass, result.Pass}},
		{"ACC-2 a SHOULD", lenient, []result.Outcome{result.Deviation, result.Pass, result.Pass}},
	} {
		sums, results := a.Results(tc.table)
		var got []result.Outcome
		for _, r := range results {
			got = append(got, r.Outcome)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: outcomes (-want +got):\n%s", tc.name, diff)
		}
		if len(sums) != 1 || sums[0].Name != "foobot" {
			t.Fatalf("%s: summaries %+v", tc.name, sums)
		}
		if s := result.Summarize(sums[0], results, false); s.Conforms != (tc.want[0] != result.Violation) {
			t.Errorf("%s: summary %+v", tc.name, s)
		}
	}
}
