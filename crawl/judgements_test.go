package crawl_test

import (
	"context"
	"slices"
	"testing"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/result"
)

// A run is graded once, when it ends: its judgements cover its log, and
// the results and the timeline read them rather than grading again.
func TestRunCarriesJudgements(t *testing.T) {
	cs := selectCases(t, "access/status-200-rules-apply")
	results, runs := crawl.RunAll(context.Background(), cs, testCrawlerCmd("first-match"), nil)
	if len(results) == 0 || len(runs) == 0 {
		t.Fatalf("%d results, %d runs", len(results), len(runs))
	}
	for _, run := range runs {
		if len(run.Log) == 0 {
			t.Fatalf("%s %s: no request logged (%s)", run.Scenario.Case.ID, run.Scenario.Agent, run.Failure)
		}
		if len(run.Judgements) != len(run.Log) {
			t.Fatalf("%s %s: %d judgements of %d requests", run.Scenario.Case.ID, run.Scenario.Agent, len(run.Judgements), len(run.Log))
		}
		for i, j := range run.Judgements {
			if j.Request.URL != run.Log[i].URL || j.Tier == "" {
				t.Errorf("judgement %d is of %s (tier %q), request %d of %s", i, j.Request.URL, j.Tier, i, run.Log[i].URL)
			}
		}
		// A judgement changed after the run shows in the timeline: it
		// was not graded again.
		run.Judgements = append([]crawl.Judgement(nil), run.Judgements...)
		run.Judgements[0].Tier = "marked"
		tl := crawl.Timeline(run, "c")
		if len(tl.Requests) != len(run.Log) || tl.Requests[0].Tier != "marked" {
			t.Errorf("the timeline does not show the run's judgements: %+v", tl.Requests)
		}
	}
}

// The access checks take their levels from the table the crawler is
// given: ACC-10 as a MUST makes fetching a page before robots.txt a
// violation instead of a deviation.
func TestAccessLevelsFromTable(t *testing.T) {
	cs := selectCases(t, "access/authority-separate-files")
	strict := requirements
	strict.Requirements = slices.Clone(requirements.Requirements)
	for i := range strict.Requirements {
		if strict.Requirements[i].ID == "ACC-10" {
			strict.Requirements[i].Level = string(result.MUST)
		}
	}
	for _, tc := range []struct {
		table result.Table
		want  result.Outcome
		level result.Level
	}{{requirements, result.Deviation, result.SHOULD}, {strict, result.Violation, result.MUST}} {
		c := testCrawlerCmd("before-robots")
		c.Requirements = tc.table
		results, _ := crawl.RunAll(context.Background(), cs, c, nil)
		n := 0
		for _, r := range results {
			if slices.Equal(r.Req, []string{"ACC-10"}) && r.Outcome != result.Pass {
				n++
				if r.Outcome != tc.want || r.Level != tc.level {
					t.Errorf("ACC-10 check of %s: %s at level %s, want %s at %s", r.Agent, r.Outcome, r.Level, tc.want, tc.level)
				}
			}
		}
		if n == 0 {
			t.Errorf("no failed ACC-10 check; want %s", tc.want)
		}
	}
}
