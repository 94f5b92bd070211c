package accesslog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/result"
)

// AuditCase is the case id an audit's results carry.
const AuditCase = "audit/access-log"

// auditChecks are the checks an audit reports per agent, in order.
var auditChecks = []struct {
	req   string
	title string
}{
	{"ACC-2", "no request the rules in force (or a copy within the grace) disallow"},
	{"ACC-7", "no request after robots.txt answered 5xx or not at all"},
	{"CACHE-2", "no request allowed only by a copy of robots.txt older than the grace"},
}

// Results turns the audit into results, one per agent and check, so that
// the report formats (JSON, JUnit, HTML, --expect) render it as they do a
// run; each agent stands where a parser would, with only its name: the
// document's one Summarize counts them. The checks' levels come from the
// requirement table reqs (RFC 9309's levels).
func (a *Auditor) Results(reqs result.Table) ([]result.Summary, []result.Result) {
	var sums []result.Summary
	var out []result.Result
	for _, ag := range a.sorted() {
		ar := ag.rep
		sums = append(sums, result.Summary{Name: ar.Agent})
		for i, c := range auditChecks {
			level, _ := reqs.Level(c.req, result.ProfileRFC)
			r := result.Result{Case: AuditCase, Check: i, Parser: ar.Agent, Agent: ar.Agent, URL: "/",
				Expect: result.Disallow, Verdict: result.Disallow, Outcome: result.Pass, Level: level,
				Req: []string{c.req}, Title: "audit: " + c.title}
			if n := ar.CouldByReq[c.req]; n > 0 && ar.ByReq[c.req] == 0 {
				r.Outcome, r.Verdict = result.Skipped, ""
				r.Detail = fmt.Sprintf("inconclusive: %d of %d requests may break it, in buckets that cannot tell", n, ar.Requests) + ag.uncertainEvidence(c.req)
			}
			if n := ar.ByReq[c.req]; n > 0 {
				r.Verdict = result.Allow
				r.Outcome = result.OutcomeOf(level, result.Disallow, nil, result.Allow)
				r.Detail = fmt.Sprintf("%d of %d requests", n, ar.Requests) + ag.evidence(c.req)
				if j := ag.first(c.req); j != nil {
					r.URL = j.Request.URL
					if j.Decision != nil {
						r.Trace = j.Decision.String()
					}
				}
			}
			out = append(out, r)
		}
	}
	return sums, out
}

func (ag *agent) first(req string) *crawl.Judgement {
	for i := range ag.violating {
		if ag.violating[i].Req == req {
			return &ag.violating[i]
		}
	}
	return nil
}

// evidence lists the deciding rules and the quoted requests of one
// requirement's violations.
func (ag *agent) evidence(req string) string {
	var b strings.Builder
	for _, j := range ag.violating {
		if j.Req == req {
			fmt.Fprintf(&b, "\n  %s %s %s %s → %d: %s", j.Request.Source, j.Request.Time.UTC().Format("2006-01-02T15:04:05Z"), j.Request.Method, j.Request.URL, j.Request.Status, j.Why)
			if j.Decision != nil {
				fmt.Fprintf(&b, " [%s]", j.Decision.String())
			}
		}
	}
	return b.String()
}

// uncertainEvidence lists the quoted uncertain requests that may break
// one requirement.
func (ag *agent) uncertainEvidence(req string) string {
	var b strings.Builder
	for _, j := range ag.uncertain {
		if slices.Contains(j.Could, req) {
			r := Record(j)
			fmt.Fprintf(&b, "\n  %s %s%s %s at %s: %s", r.Source, r.Times(), r.Method, r.URL, r.When(), r.Why)
		}
	}
	return b.String()
}
