package accesslog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/matrix"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// Options configure an audit.
type Options struct {
	// Agents, when set, are the only product tokens audited; requests
	// whose User-Agent names none of them are counted, not judged.
	Agents []string
	// Grace is how long a bot may use a copy of robots.txt (CACHE-2).
	Grace time.Duration
	// Reference is the option set files are read with.
	Reference reference.Options
	// IncludeUnnamed judges the clients that name no token of the file
	// and look like browsers (LooksLikeBrowser) as "*"; by default they
	// are counted, not judged: people, not bots.
	IncludeUnnamed bool
	// Ranges, when set, are the published address ranges of bots: a
	// request from inside them is verified, as one the log marks is.
	Ranges *Ranges
}

// agent is the auditor's account of one product token: its report as
// the document holds it, and what the auditor keeps to build it.
type agent struct {
	rep *result.AuditAgent
	// violating, inGrace and uncertain are the first requests of those
	// tiers (quoted by the report, evidence of the results).
	violating, inGrace, uncertain []crawl.Judgement
	shadow                        map[shadowKey]*shadowCount
	clients                       map[string]bool
	timeline                      *timeline
}

// shadowKey is a rule of the "*" group, in one version, that would have
// disallowed a request its agent's own group allowed.
type shadowKey struct {
	version string
	line    int
}

type shadowCount struct {
	pattern string
	ownLine int
	n       int
	example string
}

// Auditor judges a log's requests as they stream by.
type Auditor struct {
	opts     Options
	grader   *crawl.Grader
	versions map[string]*crawl.Version // label → version
	agents   map[string]*agent
	rep      result.Audit
}

// NewAuditor returns an auditor for the given robots.txt versions.
func NewAuditor(versions []crawl.Version, opts Options) *Auditor {
	a := &Auditor{opts: opts, versions: map[string]*crawl.Version{}, agents: map[string]*agent{}}
	a.rep.Verifying = opts.Ranges != nil
	for i := range versions {
		v := versions[i]
		a.versions[v.Label] = &v
		a.rep.Versions = append(a.rep.Versions, v.Label)
		a.rep.VersionMarks = append(a.rep.VersionMarks, result.VersionMark{Label: v.Label, From: v.From.UTC()})
	}
	a.grader = crawl.NewGrader(versions, crawl.Options{Reference: opts.Reference, Grace: opts.Grace, Agent: a.agentOf, Identity: clientOf})
	return a
}

// clientOf is a request's client: its exact User-Agent and its address,
// and whether it was verified (an aggregated log has no address, but
// tells a verified bot from one that only claims its name). Two bots
// that name no group of the file, or one bot's crawlers on two
// addresses, keep separate robots.txt histories.
func clientOf(r crawl.Request, _ string) string {
	return r.UserAgent + "\x00" + r.Client + "\x00" + strconv.FormatBool(r.Verified != "")
}

// agentOf picks the token a User-Agent is judged as: among --agent tokens
// when given ("" when it names none), else among the file's ("" for a
// browser that names none, unless IncludeUnnamed).
func (a *Auditor) agentOf(ua string, tokens []string) string {
	if len(a.opts.Agents) > 0 {
		if t := crawl.NamedToken(ua, a.opts.Agents); t != "*" {
			return t
		}
		return ""
	}
	t := crawl.NamedToken(ua, tokens)
	if t == "*" && !a.opts.IncludeUnnamed && LooksLikeBrowser(ua) {
		return ""
	}
	return t
}

// Add judges one request and returns the judgement; its Agent is "" when
// the request was counted, not judged (an agent not audited, a browser).
// Requests must come in time order.
func (a *Auditor) Add(r crawl.Request) crawl.Judgement {
	n := r.N()
	a.rep.Requests += n
	if a.opts.Ranges != nil && r.Verified == "" {
		if label, ok := a.opts.Ranges.Lookup(r.Client); ok {
			r.Verified = "in " + label
		}
	}
	j := a.grader.Judge(r)
	if j.Agent == "" {
		if len(a.opts.Agents) > 0 {
			a.rep.Skipped += n
		} else {
			a.rep.Browsers += n
		}
		return j
	}
	ag := a.agents[j.Agent]
	if ag == nil {
		ag = &agent{rep: &result.AuditAgent{Agent: j.Agent, ByReq: map[string]int{},
			ByVerification: map[string]*result.TierCounts{"verified": {}, "claimed": {}}},
			shadow: map[shadowKey]*shadowCount{}, clients: map[string]bool{}, timeline: newTimeline()}
		a.agents[j.Agent] = ag
	}
	ar := ag.rep
	ar.Requests += n
	if c := clientOf(r, ""); !ag.clients[c] {
		ag.clients[c] = true
		ar.Clients++
	}
	ag.timeline.add(j)
	if r.Verified != "" {
		ar.Verified += n
		ar.ByVerification["verified"].Add(string(j.Tier), n)
	} else {
		ar.ByVerification["claimed"].Add(string(j.Tier), n)
	}
	if len(ar.UserAgents) < 5 && !slices.Contains(ar.UserAgents, r.UserAgent) {
		ar.UserAgents = append(ar.UserAgents, r.UserAgent)
	}
	switch j.Tier {
	case crawl.TierRobots:
		ar.Robots += n
	case crawl.TierAllowed:
		ar.Allowed += n
		a.shadowed(ag, j)
	case crawl.TierGrace:
		ar.Grace += n
		ag.inGrace = keep(ag.inGrace, j)
	case crawl.TierUncertain:
		ar.Uncertain += n
		ag.uncertain = keep(ag.uncertain, j)
		for _, req := range j.Could {
			if ar.CouldByReq == nil {
				ar.CouldByReq = map[string]int{}
			}
			ar.CouldByReq[req] += n
		}
	case crawl.TierViolation:
		ar.Violations += n
		ar.ByReq[j.Req] += n
		countRule(ar, j)
		ag.violating = keep(ag.violating, j)
	}
	return j
}

// keep appends j to the quoted requests of a tier, up to
// result.MaxQuoted.
func keep(js []crawl.Judgement, j crawl.Judgement) []crawl.Judgement {
	if len(js) < result.MaxQuoted {
		js = append(js, j)
	}
	return js
}

// countRule counts a violation under its deciding rule.
func countRule(ar *result.AuditAgent, j crawl.Judgement) {
	rc := result.RuleCount{Version: j.Version, Rule: j.Why}
	if d := j.Decision; d != nil && d.Reason == reference.RuleMatched {
		kind := "Disallow"
		if d.Rule.Allow {
			kind = "Allow"
		}
		rc.Line, rc.Rule = d.Rule.Line, kind+": "+d.Rule.Pattern
	} else if j.Req == "ACC-7" {
		rc.Rule = "robots.txt unreachable (5xx or no response): complete disallow"
	}
	for i := range ar.Rules {
		if ar.Rules[i].Version == rc.Version && ar.Rules[i].Line == rc.Line && ar.Rules[i].Rule == rc.Rule {
			ar.Rules[i].Count += j.Request.N()
			return
		}
	}
	if len(ar.Rules) < 100 {
		rc.Count = j.Request.N()
		ar.Rules = append(ar.Rules, rc)
	}
}

// shadowed counts an allowed request of a named agent that the "*" group
// would have disallowed: evidence for the matrix's warning that the
// agent's own group replaces "*".
func (a *Auditor) shadowed(ag *agent, j crawl.Judgement) {
	d := j.Decision
	if ag.rep.Agent == "*" || d == nil || d.Group == "*" || d.Group == "" {
		return
	}
	v := a.versions[j.Version]
	if v == nil {
		return
	}
	star := v.Decide("*", j.Request.URL, a.opts.Reference)
	if star.Allowed || star.Reason != reference.RuleMatched {
		return
	}
	k := shadowKey{j.Version, star.Rule.Line}
	sc := ag.shadow[k]
	if sc == nil {
		if len(ag.shadow) >= 100 {
			return
		}
		own := 0
		if len(d.GroupLines) > 0 {
			own = d.GroupLines[0]
		}
		sc = &shadowCount{pattern: star.Rule.Pattern, ownLine: own, example: j.Request.URL}
		ag.shadow[k] = sc
	}
	sc.n += j.Request.N()
}

// Report returns the audit's result so far; scanners are those whose
// counts it includes.
func (a *Auditor) Report(scanners ...*Scanner) *result.Audit {
	rep := a.rep
	for _, s := range scanners {
		rep.Lines += s.Lines()
		rep.Malformed += s.Malformed()
		rep.Errors = append(rep.Errors, s.Errors()...)
	}
	rep.Agents = nil
	for _, ag := range a.sorted() {
		ar := ag.rep
		ar.Warnings = a.warnings(ag)
		ar.Timeline = ag.timeline.finish()
		ar.Quoted = quote(ag)
		slices.SortFunc(ar.Rules, func(x, y result.RuleCount) int { return y.Count - x.Count })
		rep.Agents = append(rep.Agents, ar)
	}
	return &rep
}

// sorted returns the agents by token.
func (a *Auditor) sorted() []*agent {
	out := make([]*agent, 0, len(a.agents))
	for _, ag := range a.agents {
		out = append(out, ag)
	}
	slices.SortFunc(out, func(x, y *agent) int { return strings.Compare(x.rep.Agent, y.rep.Agent) })
	return out
}

// quote records an agent's quoted requests; nil when it has none.
func quote(ag *agent) *result.Quoted {
	if len(ag.violating)+len(ag.inGrace)+len(ag.uncertain) == 0 {
		return nil
	}
	records := func(js []crawl.Judgement) []result.AuditRequest {
		var out []result.AuditRequest
		for _, j := range js {
			out = append(out, Record(j))
		}
		return out
	}
	return &result.Quoted{Violation: records(ag.violating), Grace: records(ag.inGrace), Uncertain: records(ag.uncertain)}
}

// warnings ties matrix.Build's star-rules-not-inherited warning for
// the agent to the requests that show it.
func (a *Auditor) warnings(ag *agent) []string {
	var out []string
	keys := make([]shadowKey, 0, len(ag.shadow))
	for k := range ag.shadow {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y shadowKey) int {
		if x.version != y.version {
			return strings.Compare(x.version, y.version)
		}
		return x.line - y.line
	})
	for _, k := range keys {
		sc := ag.shadow[k]
		w := a.matrixWarning(k.version, ag.rep.Agent)
		if w == "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %d requests to %s… (e.g. %s) are allowed by its own group (line %d); the `Disallow: %s` under `*` (line %d of %s) does not apply to it. %s",
			ag.rep.Agent, sc.n, sc.pattern, sc.example, sc.ownLine, sc.pattern, k.line, k.version, w))
	}
	return out
}

// matrixWarning returns the matrix's star-rules-not-inherited warning for
// agent in a version, or "".
func (a *Auditor) matrixWarning(label, agent string) string {
	v := a.versions[label]
	if v == nil {
		return ""
	}
	m, err := matrix.Build(v.Body, matrix.Options{Agents: []string{agent}, Options: a.opts.Reference})
	if err != nil {
		return ""
	}
	for _, w := range m.Warnings {
		if w.Kind == matrix.WarnStarNotInherited && strings.EqualFold(w.Agent, agent) {
			return w.Message
		}
	}
	return ""
}
