package crawl

import (
	"context"
	"sync"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/internal/cmdline"
	"github.com/reptest/reptest/result"
)

// RunAll runs the crawler on every scenario of the cases, one run per
// (case, agent), and judges each run; c.Jobs scenarios run at once, each
// on addresses of its own. Results and runs come in scenario order
// whatever the number of jobs. progress, when set, is called after each
// scenario, in the order they end, one call at a time. It stops early
// only when ctx is cancelled; the results of the scenarios that ended
// are returned.
func RunAll(ctx context.Context, cs []cases.Case, c *Crawler, progress func(done, total int, run *Run)) ([]result.Result, []Run) {
	var scs []Scenario
	for i := range cs {
		scs = append(scs, Scenarios(&cs[i])...)
	}
	if words, err := cmdline.Split(c.Template); err == nil && len(words) > 0 {
		if why := c.clockSkip(words[0]); why != "" {
			for i := range scs {
				if scs[i].Steps != nil {
					scs[i].Skip = why
				}
			}
		}
	}
	lab := c.Lab
	if lab == nil {
		var err error
		if lab, err = NewLab(LabOptions{}); err != nil {
			return failAll(scs, c.Name, c.Requirements, err)
		}
		defer lab.Close()
	}
	runs := make([]*Run, len(scs))
	var mu sync.Mutex // serialises progress
	done := 0
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(c.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				run := Run{Scenario: &scs[i], Layout: lab.Layout()}
				if scs[i].Skip == "" {
					run = c.crawl(ctx, &scs[i], lab)
				}
				mu.Lock()
				runs[i] = &run
				done++
				if progress != nil {
					progress(done, len(scs), &run)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range scs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	var results []result.Result
	var out []Run
	for _, run := range runs {
		if run != nil {
			results = append(results, Judge(*run, c.Name, c.Requirements)...)
			out = append(out, *run)
		}
	}
	return results, out
}

// failAll fails every scenario with err: the crawl could not be set up.
func failAll(scs []Scenario, crawler string, reqs result.Table, err error) ([]result.Result, []Run) {
	var results []result.Result
	var runs []Run
	for i := range scs {
		run := Run{Scenario: &scs[i], Failure: err.Error()}
		if scs[i].Skip != "" {
			run.Failure = ""
		}
		results = append(results, Judge(run, crawler, reqs)...)
		runs = append(runs, run)
	}
	return results, runs
}
