package reference

import (
	"slices"
	"strings"
)

// Robots is a parsed robots.txt file. Its answers never change and it is
// safe for concurrent use.
//
// Parsing reads the file's structure: its groups, their user-agent lines
// and where each rule's path stands. The first decision matches the rules
// of the groups that apply as AllowedOnce does: it rules most of them out
// by their literal prefix and compiles (normalises) only the others, into
// a buffer of its own. A parsed file is then little more than offsets:
// parsing does the least work a decision needs. A file that is asked
// again compiles each group a decision consults once, sorted for longest
// match, and later decisions reuse it (see prepared.go): only those
// compilations allocate.
//
// Apart from the body itself, a parsed file holds no pointers to strings:
// rules, names and records are offsets into the body (or into extra, for
// rule paths that normalisation changed). Parsing a large file then costs
// the garbage collector almost nothing.
type Robots struct {
	opts      Options
	body      string // the parsed part of the body, after the limit
	truncated bool   // content past Options.MaxBytes was ignored
	size      int    // the size of the whole body given to Parse

	rules  []rule // every rule, in file order; each group holds a span
	groups []group
	agents []agentLine // user-agent lines; each group holds a span
	// names are the product tokens the file names, sorted by token with
	// ASCII case ignored, for binary search.
	names      []name
	nameGroups []int32 // group indexes; each name holds a span
	global     []int32 // groups that name "*"
	long       []compiledRule
	// orphan holds the rules before any user-agent line; they apply only
	// with Options.OrphanRulesApply.
	orphan []rule
	others []record
	prep   preparation // compiled groups, for reuse (see prepared.go)
	// groupMisread says the options choose groups otherwise than the
	// RFC does (see misreadGroups).
	groupMisread bool
}

// span is a half-open range of offsets or indexes.
type span [2]int32

// group is one group of §2.1: user-agent lines followed by rules.
type group struct {
	agents span // of Robots.agents
	rules  span // of Robots.rules
}

// agentLine is one user-agent line: its number and its value in body.
type agentLine struct {
	line  int32
	value span
}

// name is a product token named by one or more groups.
type name struct {
	token  span // in body, compared case-insensitively
	groups span // of nameGroups
}

// rule is one allow or disallow line.
type rule struct {
	raw   span // the path as written, in body
	line  int32
	allow bool
	// long and longDir index Robots.long, plus one, for a long rule
	// (see scratchLen) and the rule derived from it; 0 for none.
	long, longDir int32
}

// record is a record the protocol does not define: key and value in body.
type record struct {
	line       int32
	key, value span
}

// Parse reads a robots.txt body (RFC 9309 §2.1–2.2) under the given
// options. It accepts any bytes: lines that cannot be parsed are skipped
// and kept as Invalid lines (SYN-9). Parsing N bytes allocates O(N).
func Parse(body []byte, opts Options) *Robots {
	return ParseString(string(body), opts)
}

// ParseString is Parse for a body held in a string; it does not copy it.
func ParseString(body string, opts Options) *Robots {
	r := &Robots{opts: opts, size: len(body), groupMisread: opts.groupsMisread()}
	r.body, r.truncated = limitBody(body, opts.MaxBytes)
	r.build()
	return r
}

// Options returns the options the file was parsed with.
func (r *Robots) Options() Options { return r.opts }

// Truncated reports whether the body was longer than Options.MaxBytes, so
// that its end was ignored (LIM-2).
func (r *Robots) Truncated() bool { return r.truncated }

// ParsedBytes is the number of leading bytes of the body that were read.
func (r *Robots) ParsedBytes() int { return len(r.body) }

func (r *Robots) build() {
	o := &r.opts
	r.rules = make([]rule, 0, maxRules(r.body))
	var pairs []namePair
	open := false // the current group still takes user-agent lines
	// ended: a blank line ended the group (BlankLineEndsGroup), and rules
	// before the next user-agent line belong to none.
	ended := false
	ruleStart := 0
	sc := newLineScanner(r.body, o)
	for {
		n, at, text, ok := sc.next()
		if !ok {
			break
		}
		kind, ks, ke, vs, ve, _ := classifySpan(text, o)
		value := span{int32(at + vs), int32(at + ve)}
		switch kind {
		case Blank:
			if o.BlankLineEndsGroup && len(r.groups) > 0 {
				open, ended = false, true
			}
		case UserAgent:
			ended = false
			if !open || o.AgentLinesApart {
				r.closeGroup(ruleStart)
				ruleStart = len(r.rules)
				k := int32(len(r.agents))
				r.groups = append(r.groups, group{agents: span{k, k}})
				open = true
			}
			gi := int32(len(r.groups) - 1)
			r.agents = append(r.agents, agentLine{int32(n), value})
			r.groups[gi].agents[1]++
			token, star := o.agentName(text[vs:ve])
			switch {
			case star:
				if len(r.global) == 0 || r.global[len(r.global)-1] != gi {
					r.global = append(r.global, gi)
				}
			case o.names(token):
				// The token is a prefix of the value.
				pairs = append(pairs, namePair{span{value[0], value[0] + int32(len(token))}, gi})
			}
		case Allow, Disallow:
			ru := rule{line: int32(n), allow: kind == Allow, raw: value}
			if ve-vs > scratchLen/3 {
				c := r.candidate(ru)
				ru.long = r.keepLong(c)
				if d, ok := c.derived(o); ok {
					ru.longDir = r.keepLong(d)
				}
			}
			if len(r.groups) == 0 {
				r.orphan = append(r.orphan, ru)
				continue
			}
			if ended {
				continue
			}
			open = false
			r.rules = append(r.rules, ru)
		case Other:
			if o.RecordsSplitAgents || o.CrawlDelaySplitsAgents && equalFold(text[ks:ke], "crawl-delay") ||
				o.UsageRules && len(r.groups) > 0 && isUsageKey(text[ks:ke]) {
				open = false
			}
			r.others = append(r.others, record{line: int32(n),
				key: span{int32(at + ks), int32(at + ke)}, value: value})
		}
	}
	r.closeGroup(ruleStart)
	r.indexNames(pairs)
}

// maxRules estimates the number of rules in body, so that parsing
// allocates the list once: a rule takes a line, and at least 7 bytes with
// its line end ("Allow:" and CR or LF). Counting line ends is a vectorised
// search; reading each line's first letter would cost a pass of its own.
// The count is exact for LF, CRLF and CR files alike; a file that mixes
// them may have more lines, and the list then grows.
func maxRules(body string) int {
	lines := max(strings.Count(body, "\n"), strings.Count(body, "\r")) + 1
	return min(lines, len(body)/7+1)
}

// namePair is a product token named by a user-agent line, and its group.
type namePair struct {
	token span
	group int32
}

// indexNames gathers the groups of each token (UA-3: they are merged):
// the pairs are sorted by token, stably so that each token's groups stay
// in file order, and each run of one token becomes a name.
func (r *Robots) indexNames(pairs []namePair) {
	slices.SortStableFunc(pairs, func(a, b namePair) int { return compareFold(r.str(a.token), r.str(b.token)) })
	r.nameGroups = make([]int32, 0, len(pairs))
	for i, p := range pairs {
		if i == 0 || compareFold(r.str(pairs[i-1].token), r.str(p.token)) != 0 {
			n := int32(len(r.nameGroups))
			r.names = append(r.names, name{token: p.token, groups: span{n, n}})
		}
		g := &r.names[len(r.names)-1].groups
		if g[1] > g[0] && r.nameGroups[g[1]-1] == p.group {
			continue // the same token twice in one group
		}
		r.nameGroups = append(r.nameGroups, p.group)
		g[1]++
	}
}

// compareFold compares two strings as equalFold sees them: ASCII letters
// without regard to case, every other byte exactly.
func compareFold(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if x, y := lowerASCII(a[i]), lowerASCII(b[i]); x != y {
			return int(x) - int(y)
		}
	}
	return len(a) - len(b)
}

// str returns the text of a span of the body.
func (r *Robots) str(s span) string { return r.body[s[0]:s[1]] }

// closeGroup gives the last group its rules, r.rules[start:].
func (r *Robots) closeGroup(start int) {
	if len(r.groups) == 0 {
		return
	}
	r.groups[len(r.groups)-1].rules = span{int32(start), int32(len(r.rules))}
}

// lookupName returns the index of token among the file's names, or -1.
func (r *Robots) lookupName(token string) int32 {
	i, found := slices.BinarySearchFunc(r.names, token, func(n name, t string) int { return compareFold(r.str(n.token), t) })
	if !found {
		return -1
	}
	return int32(i)
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// groupsOf returns the groups that name token.
func (r *Robots) groupsOf(token string) []int32 {
	id := r.lookupName(token)
	if id < 0 {
		return nil
	}
	g := r.names[id].groups
	return r.nameGroups[g[0]:g[1]]
}

// Lines returns every line of the parsed part of the file with its number
// and classification. It reads the body again on each call; parsing itself
// keeps only what decisions need.
func (r *Robots) Lines() []Line {
	// Sized once for LF, CRLF and CR files (one that mixes them may grow).
	lines := make([]Line, 0, max(strings.Count(r.body, "\n"), strings.Count(r.body, "\r"))+1)
	scanLines(r.body, &r.opts, func(n, _ int, text string) {
		kind, key, value, reason := classify(text, &r.opts)
		lines = append(lines, Line{Number: n, Kind: kind, Key: key, Value: value, Reason: reason})
	})
	return lines
}

// Records returns the records the protocol does not define, in file order
// (§2.2.4): Sitemap, Crawl-delay, Host and any other.
func (r *Robots) Records() []Record {
	out := make([]Record, len(r.others))
	for i, rec := range r.others {
		out[i] = Record{Line: int(rec.line), Key: r.str(rec.key), Value: r.str(rec.value)}
	}
	return out
}

// Sitemaps returns the values of the file's Sitemap records.
func (r *Robots) Sitemaps() []string {
	var s []string
	for _, rec := range r.others {
		key := r.str(rec.key)
		if equalFold(key, "sitemap") || r.opts.GoogleKeys && (hasPrefixFold(key, "sitemap") || hasPrefixFold(key, "site-map")) {
			s = append(s, r.str(rec.value))
		}
	}
	return s
}

// Agents returns the product tokens the file names, in lower case and
// sorted, without "*".
func (r *Robots) Agents() []string {
	s := make([]string, 0, len(r.names))
	for _, n := range r.names {
		s = append(s, lowerASCIIString(r.str(n.token)))
	}
	slices.Sort(s)
	return slices.Compact(s)
}

// HasStarGroup reports whether the file has a group for "*".
func (r *Robots) HasStarGroup() bool { return len(r.global) > 0 }

// Group is one group of a robots.txt file (§2.1): the user-agent lines that
// start it and the allow and disallow lines that follow them, as the file
// has them. Groups that name the same token are separate Groups; merging
// them (UA-3) is part of choosing the groups for an agent, which Decide
// reports in Decision.GroupLines.
type Group struct {
	// Agents are the group's user-agent lines, in file order.
	Agents []Agent
	// Rules are the group's allow and disallow lines, in file order.
	Rules []RuleRef
}

// Agent is one user-agent line of a group.
type Agent struct {
	// Line is the 1-based line number.
	Line int
	// Value is the line's value as written, white space and comment
	// removed.
	Value string
	// Token is the product token the line names under the options the
	// file was parsed with, as written: the whole value (AgentWhole) or
	// its leading run of [a-zA-Z_-] (AgentLeadingToken). It is "" when
	// the line names no crawler: for "*" (see Star) and for a value that
	// gives no product token, such as "Googlebot/2.1" under the RFC
	// options.
	Token string
	// Star says the line is the "*" of §2.2.1 (or, with StarPrefix,
	// "*" followed by white space and more): the group applies to every
	// crawler that no group names.
	Star bool
}

// AgentToken returns what a user-agent line's value names under o, as
// Agent.Token and Agent.Star say it: the product token as written ("" for
// none) and whether the value is the "*" of §2.2.1. Under Google's options
// "Googlebot/2.1" names "Googlebot"; under the RFC's it names nothing.
func (o Options) AgentToken(value string) (token string, star bool) {
	token, star = o.agentName(value)
	if !isToken(token) {
		token = ""
	}
	return token, star
}

// Groups returns the file's groups in file order. Each call builds the
// result anew from the parsed file; the caller may keep and change it.
func (r *Robots) Groups() []Group {
	out := make([]Group, len(r.groups))
	for i, g := range r.groups {
		agents := r.agents[g.agents[0]:g.agents[1]]
		out[i].Agents = make([]Agent, len(agents))
		for j, a := range agents {
			value := r.str(a.value)
			token, star := r.opts.AgentToken(value)
			out[i].Agents[j] = Agent{Line: int(a.line), Value: value, Token: token, Star: star}
		}
		out[i].Rules = r.ruleRefs(r.rules[g.rules[0]:g.rules[1]])
	}
	return out
}

// OrphanRules returns the allow and disallow lines that come before the
// first user-agent line, in file order. They belong to no group: the RFC
// says they SHOULD be ignored (SYN-8), and they apply to every crawler only
// with Options.OrphanRulesApply.
func (r *Robots) OrphanRules() []RuleRef { return r.ruleRefs(r.orphan) }

// ruleRefs describes the rules, which are in file order.
func (r *Robots) ruleRefs(rs []rule) []RuleRef {
	out := make([]RuleRef, len(rs))
	for i, ru := range rs {
		out[i] = r.opts.ruleRef(r.candidate(ru))
	}
	return out
}
