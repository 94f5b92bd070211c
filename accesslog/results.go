package accesslog

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
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

// Results turns an audit into results, one per agent and check, so that
// the report formats (JSON, JUnit, HTML, --expect) render it as they do a
// run; each agent stands where a parser would. The checks' levels come
// from the requirement table reqs (RFC 9309's levels).
func Results(rep *Report, reqs cases.Table) ([]cases.Summary, []cases.Result) {
	var sums []cases.Summary
	var out []cases.Result
	for _, ar := range rep.Agents {
		s := cases.Summary{Name: ar.Agent}
		for i, c := range auditChecks {
			level, _ := reqs.Level(c.req, cases.ProfileRFC)
			r := cases.Result{Case: AuditCase, Check: i, Parser: ar.Agent, Agent: ar.Agent, URL: "/",
				Expect: cases.Disallow, Verdict: cases.Disallow, Outcome: cases.Pass, Level: level,
				Req: []string{c.req}, Title: "audit: " + c.title}
			if n := ar.CouldByReq[c.req]; n > 0 && ar.ByReq[c.req] == 0 {
				r.Outcome, r.Verdict = cases.Skipped, ""
				r.Detail = fmt.Sprintf("inconclusive: %d of %d requests may break it, in buckets that cannot tell", n, ar.Requests) + ar.uncertainEvidence(c.req)
			}
			if n := ar.ByReq[c.req]; n > 0 {
				r.Verdict = cases.Allow
				r.Outcome = cases.OutcomeOf(level, cases.Disallow, nil, cases.Allow)
				r.Detail = fmt.Sprintf("%d of %d requests", n, ar.Requests) + ar.evidence(c.req)
				if j := ar.first(c.req); j != nil {
					r.URL = j.Request.URL
					if j.Decision != nil {
						r.Trace = j.Decision.String()
					}
				}
			}
			s.Add(r.Outcome)
			out = append(out, r)
		}
		s.Judge(false)
		sums = append(sums, s)
	}
	return sums, out
}

func (ar *AgentReport) first(req string) *crawl.Judgement {
	for i := range ar.Violating {
		if ar.Violating[i].Req == req {
			return &ar.Violating[i]
		}
	}
	return nil
}

// evidence lists the deciding rules and the quoted requests of one
// requirement's violations.
func (ar *AgentReport) evidence(req string) string {
	var b strings.Builder
	for _, j := range ar.Violating {
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
func (ar *AgentReport) uncertainEvidence(req string) string {
	var b strings.Builder
	for _, j := range ar.UncertainOnes {
		if slices.Contains(j.Could, req) {
			fmt.Fprintf(&b, "\n  %s %s%s %s at %s: %s", j.Request.Source, countText(j.Request), j.Request.Method, j.Request.URL, timeText(j.Request), j.Why)
		}
	}
	return b.String()
}

// WriteText prints the audit for a person: per agent its counts, the
// deciding rules of its violations, the requests quoted and the warnings.
func WriteText(w io.Writer, rep *Report) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("%d lines, %d requests, %d malformed lines; robots.txt versions: %s\n", rep.Lines, rep.Requests, rep.Malformed, strings.Join(rep.Versions, ", "))
	for _, e := range rep.Errors {
		p("  malformed: %s\n", e)
	}
	if n := rep.Malformed - len(rep.Errors); n > 0 {
		p("  … and %d more malformed lines\n", n)
	}
	if rep.Skipped > 0 {
		p("%d requests of other agents were not audited\n", rep.Skipped)
	}
	if rep.Browsers > 0 {
		p("%d requests of browsers (User-Agents that name no group and look like a browser's) were not judged; --include-unnamed judges them as *\n", rep.Browsers)
	}
	verifying := rep.Verifying
	for _, ar := range rep.Agents {
		verifying = verifying || ar.Verified > 0
	}
	if verifying {
		p("verified: the log marks the request as a verified bot's, or it came from inside --verified-ranges; claimed: only its User-Agent names the bot\n")
	} else if len(rep.Agents) > 0 {
		p("no request is verified (no --verified-ranges, and the log marks no verified bot): every request is claimed, its User-Agent names the bot and nothing shows it is that bot\n")
	}
	for _, ar := range rep.Agents {
		name := ar.Agent
		if name == "*" {
			name = "* (clients whose User-Agent names no group)"
		}
		p("\n%s: %d requests, %d robots.txt fetches, %d allowed, %d within the cache grace, %d violations", name, ar.Requests, ar.Robots, ar.Allowed, ar.Grace, ar.Violations)
		if ar.Uncertain > 0 {
			p(", %d uncertain (a bucket cannot tell)", ar.Uncertain)
		}
		if ar.Verified > 0 {
			p(", %d from a verified bot", ar.Verified)
		}
		p("; clients (User-Agent and address, each judged by its own robots.txt fetches): %d\n", ar.Clients)
		if verifying {
			for _, k := range []string{"verified", "claimed"} {
				tc := ar.ByVerification[k]
				p("  %s: %d requests, %d robots.txt fetches, %d allowed, %d within grace, %d uncertain, %d violations\n", k, tc.Requests, tc.Robots, tc.Allowed, tc.Grace, tc.Uncertain, tc.Violations)
			}
		}
		for _, rc := range ar.Rules {
			where := rc.Version
			if rc.Line > 0 {
				where = fmt.Sprintf("line %d of %s", rc.Line, rc.Version)
			}
			p("  %6d violations decided by %s (%s)\n", rc.Count, rc.Rule, where)
		}
		for _, j := range ar.Violating {
			p("  violation %s: %s%s %s at %s: %s %s\n", j.Req, countText(j.Request), j.Request.Method, j.Request.URL, timeText(j.Request), j.Why, j.Request.Source)
		}
		for _, j := range ar.InGrace {
			p("  within grace: %s%s %s at %s: %s %s\n", countText(j.Request), j.Request.Method, j.Request.URL, timeText(j.Request), j.Why, j.Request.Source)
		}
		for _, j := range ar.UncertainOnes {
			p("  uncertain: %s%s %s at %s: %s %s\n", countText(j.Request), j.Request.Method, j.Request.URL, timeText(j.Request), j.Why, j.Request.Source)
		}
		for _, wn := range ar.Warnings {
			p("  warning: %s\n", wn)
		}
	}
	return nil
}

// timeText writes a request's time, or its bucket.
func timeText(r crawl.Request) string {
	if r.Span > 0 {
		return r.Time.UTC().Format("2006-01-02T15:04Z") + " +" + strings.TrimSuffix(strings.TrimSuffix(r.Span.String(), "0s"), "0m")
	}
	return r.Time.UTC().Format("2006-01-02T15:04:05Z")
}

// countText writes how many requests a bucket stands for ("" for one
// request).
func countText(r crawl.Request) string {
	if r.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d× ", r.Count)
}
