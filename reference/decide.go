package reference

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrInvalidToken is returned when the crawler's product token is not one
// or more of a-z, A-Z, "_" and "-" (§2.2.1, UA-1), unless
// Options.AnyAgent accepts any agent string.
var ErrInvalidToken = errors.New("reference: product token must match [a-zA-Z_-]+")

// Reason says what decided a verdict.
type Reason uint8

const (
	// RuleMatched: the deciding rule is in Decision.Rule.
	RuleMatched Reason = iota
	// NoMatchingRule: a group applied but none of its rules matched
	// (MATCH-6).
	NoMatchingRule
	// NoGroup: no group names the agent and there is no "*" group, or
	// the file has no groups (UA-5).
	NoGroup
	// RobotsTxt: "/robots.txt" is implicitly allowed (MATCH-7).
	RobotsTxt
	// Unavailable: the fetch found no file, so any URL may be accessed
	// (§2.3.1.3, ACC-6).
	Unavailable
	// Unreachable: the file could not be fetched, so nothing may be
	// accessed (§2.3.1.4, ACC-7).
	Unreachable
)

var reasonNames = [...]string{"rule matched", "no matching rule", "no group", "/robots.txt is always allowed", "unavailable", "unreachable"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "unknown"
}

// RuleRef identifies the rule that decided a verdict.
type RuleRef struct {
	Line    int    // 1-based line number
	Allow   bool   // an allow rule; otherwise a disallow rule
	Pattern string // the path as written in the file
	Length  int    // its length for longest-match (MATCH-4, MATCH-10)
	// Normalized is the pattern as compared, "*" collapsed, without the
	// final "$" (see Anchored).
	Normalized string
	// Anchored says the pattern ended in "$" (SPC-2): it must match the
	// whole path.
	Anchored bool
}

// Decision is a verdict with the trace that explains it.
type Decision struct {
	// Allowed is the verdict: whether the agent may access the URL.
	Allowed bool
	// Reason says what decided the verdict.
	Reason Reason
	// Rule is the deciding rule when Reason is RuleMatched.
	Rule RuleRef
	// Ties lists the lines of the other rules that match with the same
	// kind and length as Rule (duplicates, merged groups, patterns of
	// equal length): any of them decides the same way. Rule is the first.
	Ties []int
	// Group is the name of the group that applied: the agent's token in
	// lower case, "*", or "" when none did.
	Group string
	// GroupLines holds the line numbers of the user-agent lines of every
	// group that applied; merged groups (UA-3) each contribute theirs.
	GroupLines []int
	// Path is the URI's path and query as matched, after normalisation.
	Path string
	// Fetch describes how the file was obtained, for decisions made by a
	// Fetcher; nil otherwise.
	Fetch *FetchInfo
}

// String formats the decision as one line for a log.
func (d Decision) String() string {
	var b strings.Builder
	if d.Allowed {
		b.WriteString("allow")
	} else {
		b.WriteString("disallow")
	}
	fmt.Fprintf(&b, " %q: ", d.Path)
	switch d.Reason {
	case RuleMatched:
		kind := "disallow"
		if d.Rule.Allow {
			kind = "allow"
		}
		fmt.Fprintf(&b, "line %d %s: %s (length %d)", d.Rule.Line, kind, d.Rule.Pattern, d.Rule.Length)
	default:
		b.WriteString(d.Reason.String())
	}
	if d.Group != "" {
		fmt.Fprintf(&b, "; group %q at lines %v", d.Group, d.GroupLines)
	}
	if d.Fetch != nil {
		fmt.Fprintf(&b, "; %s", d.Fetch)
	}
	return b.String()
}

// Allowed reports whether agent may access url (§2.2). url may be absolute
// or a path; its scheme and authority are not checked; "" is "/". The agent
// must be a product token (UA-1) unless Options.AnyAgent is set. Allowed builds no trace and does not allocate.
func (r *Robots) Allowed(agent, url string) (bool, error) {
	if !r.opts.validAgent(agent) {
		return false, ErrInvalidToken
	}
	var buf [512]byte
	path := r.opts.appendPath(buf[:0], url)
	best, _, _ := r.decide(agent, path)
	if best == nil {
		return true, nil
	}
	return best.allow, nil
}

// Decide is Allowed with a full trace of the decision.
func (r *Robots) Decide(agent, url string) (Decision, error) {
	if !r.opts.validAgent(agent) {
		return Decision{}, fmt.Errorf("%w: %q", ErrInvalidToken, agent)
	}
	var buf [512]byte
	path := r.opts.appendPath(buf[:0], url)
	d := Decision{Allowed: true, Path: string(path)}
	best, sel, groups := r.decide(agent, path)
	switch sel {
	case selNone:
		d.Reason = NoGroup
	case selOrphan:
		d.Group = "*"
	case selGlobal:
		d.Group = "*"
	case selNamed:
		d.Group = lowerASCIIString(agent)
	}
	for _, gi := range groups {
		g := r.groups[gi].agents
		for _, a := range r.agents[g[0]:g[1]] {
			d.GroupLines = append(d.GroupLines, int(a.line))
		}
	}
	switch {
	case best != nil:
		d.Allowed = best.allow
		d.Reason = RuleMatched
		d.Rule = r.ruleRef(best)
		d.Ties = r.ties(best, groups, path)
	case sel != selNone && r.isRobotsTxt(path):
		d.Reason = RobotsTxt
	case sel != selNone:
		d.Reason = NoMatchingRule
	}
	return d, nil
}

func (r *Robots) isRobotsTxt(path []byte) bool {
	return r.opts.ImplicitRobotsTxt && isRobotsTxtPath(path)
}

// isRobotsTxtPath reports whether a normalised path, query aside, is
// "/robots.txt" (MATCH-7).
func isRobotsTxtPath(path []byte) bool {
	p := path
	for i, c := range p {
		if c == '?' {
			p = p[:i]
			break
		}
	}
	return string(p) == "/robots.txt"
}

// selection says which groups applied to an agent.
type selection uint8

const (
	selNone   selection = iota // no group: everything is allowed (UA-5)
	selNamed                   // the groups that name the agent, merged (UA-3)
	selGlobal                  // the "*" groups, merged (UA-4)
	selOrphan                  // rules before any user-agent line (OrphanRulesApply)
)

// decide finds the groups for agent (§2.2.1) and the deciding rule among
// them (§2.2.2). It returns a nil rule when none decides.
func (r *Robots) decide(agent string, path []byte) (*rule, selection, []int32) {
	groups := r.groupsOf(agent)
	sel := selNamed
	switch {
	case groups != nil:
	case len(r.global) > 0:
		// A named group replaces "*" entirely (UA-4, UA-6).
		sel, groups = selGlobal, r.global
	case len(r.orphan) > 0 && r.opts.OrphanRulesApply:
		if r.isRobotsTxt(path) {
			return nil, selOrphan, nil
		}
		return r.firstMatch(r.orphan, path), selOrphan, nil
	default:
		return nil, selNone, nil
	}
	if r.isRobotsTxt(path) {
		return nil, sel, groups
	}
	var best *rule
	for _, gi := range groups {
		r.prepare(gi)
		g := r.groups[gi].rules
		m := r.firstMatch(r.rules[g[0]:g[1]], path)
		if m != nil && (best == nil || r.beats(m, best)) {
			best = m
		}
	}
	return best, sel, groups
}

// ties returns the lines of the rules of groups, other than best, that
// match path with best's kind and length. Only traces need them. At worst
// it matches every rule once, as a decision where no rule matches does;
// a duplicate of best costs a comparison.
func (r *Robots) ties(best *rule, groups []int32, path []byte) []int {
	var out []int
	bestText := r.text(&best.pat)
	for _, gi := range groups {
		g := r.groups[gi].rules
		for i := range r.rules[g[0]:g[1]] {
			c := &r.rules[g[0]+int32(i)]
			p := &c.pat
			if c == best || c.allow != best.allow || p.length != best.pat.length {
				continue
			}
			if t := r.text(p); p.anchored == best.pat.anchored && t == bestText ||
				(p.end > p.start || p.anchored) && p.matches(t, path) {
				out = append(out, int(c.line))
			}
		}
	}
	sort.Ints(out)
	return out
}

// firstMatch returns the first rule of rs that matches path; rs is sorted
// so that this is the longest (see sortRules). An empty path in a rule
// matches nothing (PAT-2).
func (r *Robots) firstMatch(rs []rule, path []byte) *rule {
	for i := range rs {
		p := &rs[i].pat
		if (p.end > p.start || p.anchored) && p.matches(r.text(p), path) {
			return &rs[i]
		}
	}
	return nil
}

// beats reports whether rule a decides over rule b when both match.
func (r *Robots) beats(a, b *rule) bool { return r.opts.beats(a, b) }

func (o *Options) beats(a, b *rule) bool {
	if a.pat.length != b.pat.length {
		return a.pat.length > b.pat.length
	}
	if a.allow != b.allow {
		return a.allow != o.DisallowWinsTies
	}
	return a.line < b.line
}
