package crawl

import (
	"context"

	"github.com/reptest/reptest/cases"
)

// RunAll runs the crawler on every scenario of the cases, one run per
// (case, agent), and judges each run. progress, when set, is called after
// each scenario. It stops early only when ctx is cancelled; the results
// so far are returned.
func RunAll(ctx context.Context, cs []cases.Case, c *Crawler, progress func(done, total int, run *Run)) ([]cases.Result, []Run) {
	var scs []Scenario
	for i := range cs {
		scs = append(scs, Scenarios(&cs[i])...)
	}
	var results []cases.Result
	var runs []Run
	for i := range scs {
		if ctx.Err() != nil {
			break
		}
		sc := &scs[i]
		run := Run{Scenario: sc}
		if sc.Skip == "" {
			run = c.Crawl(ctx, sc)
		}
		results = append(results, Judge(run, c.Name)...)
		runs = append(runs, run)
		if progress != nil {
			progress(i+1, len(scs), &runs[len(runs)-1])
		}
	}
	return results, runs
}

// Summarize counts a crawler's results as a parser's are counted.
func Summarize(name, version string, results []cases.Result, strict bool) cases.Summary {
	s := cases.Summary{Name: name, Version: version}
	for _, r := range results {
		s.Add(r.Outcome)
	}
	s.Judge(strict)
	return s
}
