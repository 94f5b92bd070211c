package crawl

import (
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/result"
)

// Evidence turns a crawler's runs and their results into the fitter's
// evidence: the checks' verdicts as questions (diagnose.FromResults) and
// every request of every run, as the run graded it, for the
// crawler-only misreadings.
func Evidence(runs []Run, results []result.Result, crawler string) *diagnose.Evidence {
	var cs []cases.Case
	seen := map[string]bool{}
	for _, run := range runs {
		if c := run.Scenario.Case; !seen[c.ID] {
			seen[c.ID] = true
			cs = append(cs, *c)
		}
	}
	ev := diagnose.FromResults(cs, results)
	if len(ev.Parsers) == 0 {
		ev.Parsers = []string{crawler}
	}
	for n, run := range runs {
		sc := run.Scenario
		if sc.Skip != "" || run.Failure != "" {
			continue
		}
		all := sc.Case.AllChecks()
		keys := map[string]string{}
		for _, i := range sc.Checks {
			keys[all[i].URL] = diagnose.QuestionKey(sc.Case.ID, i)
		}
		// The run's judgements: a timeline's are graded with the cache
		// grace, which changes tiers but not which requests came before a
		// robots.txt fetch.
		for _, j := range run.judgements() {
			r := j.Request
			ev.Requests = append(ev.Requests, diagnose.Request{Parser: 0, Run: n, URL: r.URL, Origin: OriginOf(r.URL),
				UserAgent: r.UserAgent, Robots: IsRobotsTxt(r.URL), Before: j.Before, Start: sameResource(r.URL, sc.Start), Key: keys[r.URL]})
		}
	}
	return ev
}
