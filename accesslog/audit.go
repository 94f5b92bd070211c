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

// keepExamples bounds the requests an agent's report quotes per tier.
const keepExamples = 10

// AgentReport is what an audit found for one product token.
type AgentReport struct {
	Agent string `json:"agent"` // the token, or "*" for User-Agents that name no group
	// Clients is the number of clients (User-Agent and address) judged
	// as the agent, each against its own robots.txt fetches.
	Clients    int `json:"clients"`
	Requests   int `json:"requests"`
	Robots     int `json:"robots_fetches"`
	Allowed    int `json:"allowed"`
	Grace      int `json:"grace"`
	Violations int `json:"violations"`
	// Uncertain counts the requests of buckets (aggregated logs) whose
	// tier depends on what the bucket cannot tell.
	Uncertain int `json:"uncertain"`
	// Verified counts the requests the log marks as from a verified bot,
	// or that came from inside the published ranges (Options.Ranges).
	Verified int `json:"verified"`
	// ByVerification splits the requests into "verified" and "claimed"
	// (the User-Agent names the bot; nothing shows it is that bot).
	ByVerification map[string]*TierCounts `json:"by_verification"`
	// ByReq counts violations per requirement (ACC-2, ACC-7, CACHE-2).
	ByReq map[string]int `json:"by_requirement,omitempty"`
	// CouldByReq counts the uncertain requests that may break each
	// requirement.
	CouldByReq map[string]int `json:"uncertain_by_requirement,omitempty"`
	// Rules counts violations per deciding rule.
	Rules []RuleCount `json:"rules,omitempty"`
	// Violating, InGrace and UncertainOnes quote the first requests of
	// those tiers, for the text; the JSON lists every request (Section).
	Violating     []crawl.Judgement `json:"-"`
	InGrace       []crawl.Judgement `json:"-"`
	UncertainOnes []crawl.Judgement `json:"-"`
	// Warnings are matrix.Build's warnings about the agent's group,
	// each with the requests that show it.
	Warnings   []string `json:"warnings,omitempty"`
	UserAgents []string `json:"user_agents,omitempty"`
	// Timeline is the agent's requests over time, aggregated.
	Timeline *Timeline `json:"timeline"`

	shadow  map[shadowKey]*shadowCount
	clients map[string]bool
}

// TierCounts counts requests by tier.
type TierCounts struct {
	Requests   int `json:"requests"`
	Robots     int `json:"robots_fetches"`
	Allowed    int `json:"allowed"`
	Grace      int `json:"grace"`
	Uncertain  int `json:"uncertain"`
	Violations int `json:"violations"`
}

// add counts n requests of a tier.
func (tc *TierCounts) add(t crawl.Tier, n int) {
	tc.Requests += n
	switch t {
	case crawl.TierRobots:
		tc.Robots += n
	case crawl.TierAllowed:
		tc.Allowed += n
	case crawl.TierGrace:
		tc.Grace += n
	case crawl.TierUncertain:
		tc.Uncertain += n
	case crawl.TierViolation:
		tc.Violations += n
	}
}

// RuleCount is how many violations one rule decided.
type RuleCount struct {
	Version string `json:"version"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Count   int    `json:"count"`
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

// Report is an audit's result.
type Report struct {
	Lines    int `json:"lines"`
	Requests int `json:"requests"`
	Skipped  int `json:"skipped"` // requests of agents not audited
	// Browsers counts the requests left out because their client names
	// no token of the file and looks like a browser.
	Browsers  int         `json:"browsers"`
	Malformed int         `json:"malformed"`
	Errors    []LineError `json:"errors,omitempty"`
	Versions  []string    `json:"versions"`
	// VersionMarks say when each version came into force.
	VersionMarks []VersionMark `json:"version_marks"`
	// Verifying says address ranges were given (Options.Ranges): every
	// request outside them is claimed.
	Verifying bool           `json:"verifying,omitempty"`
	Agents    []*AgentReport `json:"agents"`
}

// Auditor judges a log's requests as they stream by.
type Auditor struct {
	opts     Options
	grader   *crawl.Grader
	versions map[string]*crawl.Version // label → version
	agents   map[string]*AgentReport
	rep      Report
}

// NewAuditor returns an auditor for the given robots.txt versions.
func NewAuditor(versions []crawl.Version, opts Options) *Auditor {
	a := &Auditor{opts: opts, versions: map[string]*crawl.Version{}, agents: map[string]*AgentReport{}}
	a.rep.Verifying = opts.Ranges != nil
	for i := range versions {
		v := versions[i]
		a.versions[v.Label] = &v
		a.rep.Versions = append(a.rep.Versions, v.Label)
		a.rep.VersionMarks = append(a.rep.VersionMarks, VersionMark{Label: v.Label, From: v.From.UTC()})
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
	ar := a.agents[j.Agent]
	if ar == nil {
		ar = &AgentReport{Agent: j.Agent, ByReq: map[string]int{}, shadow: map[shadowKey]*shadowCount{}, clients: map[string]bool{},
			ByVerification: map[string]*TierCounts{"verified": {}, "claimed": {}}, Timeline: newTimeline()}
		a.agents[j.Agent] = ar
	}
	ar.Requests += n
	if c := clientOf(r, ""); !ar.clients[c] {
		ar.clients[c] = true
		ar.Clients++
	}
	ar.Timeline.add(j)
	if r.Verified != "" {
		ar.Verified += n
		ar.ByVerification["verified"].add(j.Tier, n)
	} else {
		ar.ByVerification["claimed"].add(j.Tier, n)
	}
	if len(ar.UserAgents) < 5 && !slices.Contains(ar.UserAgents, r.UserAgent) {
		ar.UserAgents = append(ar.UserAgents, r.UserAgent)
	}
	switch j.Tier {
	case crawl.TierRobots:
		ar.Robots += n
	case crawl.TierAllowed:
		ar.Allowed += n
		a.shadowed(ar, j)
	case crawl.TierGrace:
		ar.Grace += n
		ar.InGrace = keep(ar.InGrace, j)
	case crawl.TierUncertain:
		ar.Uncertain += n
		ar.UncertainOnes = keep(ar.UncertainOnes, j)
		for _, req := range j.Could {
			if ar.CouldByReq == nil {
				ar.CouldByReq = map[string]int{}
			}
			ar.CouldByReq[req] += n
		}
	case crawl.TierViolation:
		ar.Violations += n
		ar.ByReq[j.Req] += n
		a.countRule(ar, j)
		ar.Violating = keep(ar.Violating, j)
	}
	return j
}

// keep appends j to the quoted requests of a tier, up to keepExamples.
func keep(js []crawl.Judgement, j crawl.Judgement) []crawl.Judgement {
	if len(js) < keepExamples {
		js = append(js, j)
	}
	return js
}

// countRule counts a violation under its deciding rule.
func (a *Auditor) countRule(ar *AgentReport, j crawl.Judgement) {
	rc := RuleCount{Version: j.Version, Rule: j.Why}
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
func (a *Auditor) shadowed(ar *AgentReport, j crawl.Judgement) {
	d := j.Decision
	if ar.Agent == "*" || d == nil || d.Group == "*" || d.Group == "" {
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
	sc := ar.shadow[k]
	if sc == nil {
		if len(ar.shadow) >= 100 {
			return
		}
		own := 0
		if len(d.GroupLines) > 0 {
			own = d.GroupLines[0]
		}
		sc = &shadowCount{pattern: star.Rule.Pattern, ownLine: own, example: j.Request.URL}
		ar.shadow[k] = sc
	}
	sc.n += j.Request.N()
}

// Report returns the audit's result so far; scanned is the scanner whose
// counts it includes (nil: none).
func (a *Auditor) Report(scanners ...*Scanner) *Report {
	rep := a.rep
	for _, s := range scanners {
		rep.Lines += s.Lines()
		rep.Malformed += s.Malformed()
		rep.Errors = append(rep.Errors, s.Errors()...)
	}
	rep.Agents = nil
	for _, ar := range a.agents {
		ar.Warnings = a.warnings(ar)
		ar.Timeline.finish()
		slices.SortFunc(ar.Rules, func(x, y RuleCount) int { return y.Count - x.Count })
		rep.Agents = append(rep.Agents, ar)
	}
	slices.SortFunc(rep.Agents, func(x, y *AgentReport) int { return strings.Compare(x.Agent, y.Agent) })
	return &rep
}

// warnings ties matrix.Build's star-rules-not-inherited warning for
// the agent to the requests that show it.
func (a *Auditor) warnings(ar *AgentReport) []string {
	var out []string
	keys := make([]shadowKey, 0, len(ar.shadow))
	for k := range ar.shadow {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y shadowKey) int {
		if x.version != y.version {
			return strings.Compare(x.version, y.version)
		}
		return x.line - y.line
	})
	for _, k := range keys {
		sc := ar.shadow[k]
		w := a.matrixWarning(k.version, ar.Agent)
		if w == "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %d requests to %s… (e.g. %s) are allowed by its own group (line %d); the `Disallow: %s` under `*` (line %d of %s) does not apply to it. %s",
			ar.Agent, sc.n, sc.pattern, sc.example, sc.ownLine, sc.pattern, k.line, k.version, w))
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
