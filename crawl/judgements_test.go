package crawl_test

import (
	"context"
	"testing"

	"github.com/reptest/reptest/crawl"
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
