package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/reptest/reptest/result"
)

// AuditText writes an audit's account for a person, as reptest audit
// prints it: per agent its counts, the deciding rules of its violations,
// the requests quoted and the warnings, all as the auditor recorded them.
func AuditText(w io.Writer, a *result.Audit) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("%d lines, %d requests, %d malformed lines; robots.txt versions: %s\n", a.Lines, a.Requests, a.Malformed, strings.Join(a.Versions, ", "))
	for _, e := range a.Errors {
		p("  malformed: %s\n", e)
	}
	if n := a.Malformed - len(a.Errors); n > 0 {
		p("  … and %d more malformed lines\n", n)
	}
	if a.Skipped > 0 {
		p("%d requests of other agents were not audited\n", a.Skipped)
	}
	if a.Browsers > 0 {
		p("%d requests of browsers (User-Agents that name no group and look like a browser's) were not judged; --include-unnamed judges them as *\n", a.Browsers)
	}
	verified := a.Verified()
	if verified {
		p("verified: the log marks the request as a verified bot's, or it came from inside --verified-ranges; claimed: only its User-Agent names the bot\n")
	} else if len(a.Agents) > 0 {
		p("no request is verified (no --verified-ranges, and the log marks no verified bot): every request is claimed, its User-Agent names the bot and nothing shows it is that bot\n")
	}
	for _, ag := range a.Agents {
		auditAgentText(p, ag, verified)
	}
	return bw.Flush()
}

// auditAgentText writes one agent's part of AuditText.
func auditAgentText(p func(string, ...any), ag *result.AuditAgent, verified bool) {
	name := ag.Agent
	if name == "*" {
		name = "* (clients whose User-Agent names no group)"
	}
	p("\n%s: %d requests, %d robots.txt fetches, %d allowed, %d within the cache grace, %d violations", name, ag.Requests, ag.Robots, ag.Allowed, ag.Grace, ag.Violations)
	if ag.Uncertain > 0 {
		p(", %d uncertain (a bucket cannot tell)", ag.Uncertain)
	}
	if ag.Verified > 0 {
		p(", %d from a verified bot", ag.Verified)
	}
	p("; clients (User-Agent and address, each judged by its own robots.txt fetches): %d\n", ag.Clients)
	if verified {
		for _, k := range []string{"verified", "claimed"} {
			var tc result.TierCounts
			if c := ag.ByVerification[k]; c != nil {
				tc = *c
			}
			p("  %s: %d requests, %d robots.txt fetches, %d allowed, %d within grace, %d uncertain, %d violations\n", k, tc.Requests, tc.Robots, tc.Allowed, tc.Grace, tc.Uncertain, tc.Violations)
		}
	}
	for _, rc := range ag.Rules {
		where := rc.Version
		if rc.Line > 0 {
			where = fmt.Sprintf("line %d of %s", rc.Line, rc.Version)
		}
		p("  %6d violations decided by %s (%s)\n", rc.Count, rc.Rule, where)
	}
	if q := ag.Quoted; q != nil {
		for _, r := range q.Violation {
			p("  violation %s: %s%s %s at %s: %s %s\n", r.Requirement, r.Times(), r.Method, r.URL, r.When(), r.Why, r.Source)
		}
		for _, r := range q.Grace {
			p("  within grace: %s%s %s at %s: %s %s\n", r.Times(), r.Method, r.URL, r.When(), r.Why, r.Source)
		}
		for _, r := range q.Uncertain {
			p("  uncertain: %s%s %s at %s: %s %s\n", r.Times(), r.Method, r.URL, r.When(), r.Why, r.Source)
		}
	}
	for _, wn := range ag.Warnings {
		p("  warning: %s\n", wn)
	}
}
