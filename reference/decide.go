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
// must be a product token (UA-1) unless Options.AnyAgent is set. Allowed
// builds no trace; it allocates only when it compiles a group for a file
// asked more than once (see Robots), once per group.
func (r *Robots) Allowed(agent, url string) (bool, error) {
	if !r.opts.validAgent(agent) {
		return false, ErrInvalidToken
	}
	var buf [512]byte
	path := r.opts.appendPath(buf[:0], url)
	b, _, _ := r.decide(agent, path)
	if !b.found {
		return true, nil
	}
	return b.allow, nil
}

// Decide is Allowed with a full trace of the decision.
func (r *Robots) Decide(agent, url string) (Decision, error) {
	if !r.opts.validAgent(agent) {
		return Decision{}, fmt.Errorf("%w: %q", ErrInvalidToken, agent)
	}
	var buf [512]byte
	path := r.opts.appendPath(buf[:0], url)
	d := Decision{Allowed: true, Path: string(path)}
	b, sel, groups := r.decide(agent, path)
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
	case b.found:
		d.Allowed = b.allow
		d.Reason = RuleMatched
		d.Rule = r.opts.ruleRef(b.candidate)
		d.Ties = r.ties(&b, groups, path)
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
// them (§2.2.2); best.found is false when no rule decides.
func (r *Robots) decide(agent string, path []byte) (best, selection, []int32) {
	var b best
	sel, groups := r.selectGroups(agent)
	switch sel {
	case selNone:
		return b, selNone, nil
	case selOrphan:
		if !r.isRobotsTxt(path) {
			r.considerGroup(&b, r.prepared(), len(r.groups), path)
		}
		return b, selOrphan, nil
	}
	if r.isRobotsTxt(path) {
		return b, sel, groups
	}
	ix := r.prepared()
	for _, gi := range groups {
		r.considerGroup(&b, ix, int(gi), path)
	}
	return b, sel, groups
}

// selectGroups returns the groups that apply to agent (§2.2.1), in file
// order; none for selOrphan, whose rules are the orphan rules.
func (r *Robots) selectGroups(agent string) (selection, []int32) {
	groups, global := r.groupsOf(agent), r.global
	if r.groupMisread {
		groups, global = r.misreadGroupsOf(agent, groups)
	}
	switch {
	case groups != nil:
		return selNamed, groups
	case len(global) > 0:
		// A named group replaces "*" entirely (UA-4, UA-6).
		return selGlobal, global
	case len(r.orphan) > 0 && r.opts.OrphanRulesApply:
		return selOrphan, nil
	}
	return selNone, nil
}

// considerAll considers every rule of rs for the best match of path.
func (r *Robots) considerAll(b *best, rs []rule, path []byte) {
	var scratch [scratchLen]byte
	for _, ru := range rs {
		b.consider(&r.opts, r.candidate(ru), path, scratch[:])
	}
}

// candidate is a rule of the file as a decision considers it.
func (r *Robots) candidate(ru rule) candidate {
	c := candidate{raw: r.str(ru.raw), line: ru.line, allow: ru.allow}
	if ru.long > 0 {
		c.pre = &r.long[ru.long-1]
	}
	if ru.longDir > 0 {
		c.preDir = &r.long[ru.longDir-1]
	}
	return c
}

// scratchLen is the size of the buffer a decision compiles a rule into.
// A parsed file keeps the compiled form of each rule that normalisation
// changes and that could outgrow it (longer than scratchLen/3: an octet
// becomes at most three), so that no decision has to allocate for one.
const scratchLen = 1024

// compiledRule is the compiled form a parsed file keeps of a long rule.
type compiledRule struct {
	pat  pattern
	text string
}

// keepLong compiles the candidate when it is long and normalisation
// changes it, and returns its index in r.long plus one, or 0.
func (r *Robots) keepLong(c candidate) int32 {
	if len(c.raw) <= scratchLen/3 {
		return 0
	}
	p, _, text, changed := c.compile(nil, &r.opts)
	if !changed {
		return 0
	}
	r.long = append(r.long, compiledRule{p, string(text)})
	return int32(len(r.long))
}

// ties returns the lines of the rules of groups, other than the deciding
// one, that match path with its kind and length: any of them decides the
// same way. Only traces need them.
func (r *Robots) ties(b *best, groups []int32, path []byte) []int {
	var out []int
	var scratch [scratchLen]byte
	for _, gi := range groups {
		g := r.groups[gi].rules
		for _, ru := range r.rules[g[0]:g[1]] {
			cs := [2]candidate{r.candidate(ru)}
			n := 1
			if d, ok := cs[0].derived(&r.opts); ok {
				cs[1], n = d, 2
			}
			for _, c := range cs[:n] {
				if c.allow != b.allow || c.line == b.line && c.dir == b.dir {
					continue
				}
				if length, ok := matchRule(&r.opts, c, path, scratch[:]); ok && length == b.length {
					out = append(out, int(c.line))
				}
			}
		}
	}
	sort.Ints(out)
	return out
}

// candidate is a rule as a decision considers it: a path as written, or
// the rule Google derives from an allow of ".../index.htm*" (dir).
type candidate struct {
	raw   string // the rule's path as written
	line  int32
	allow bool
	// dir marks the rule Google derives from an allow of
	// ".../index.htm*": the directory itself, anchored (G-INDEX).
	dir bool
	// pre and preDir are the compiled forms a parsed file keeps of a
	// long rule and of the rule derived from it, or nil.
	pre, preDir *compiledRule
}

// derived returns, with Options.IndexHTML, the rule Google derives from
// the allow rule c, and whether there is one.
func (c candidate) derived(o *Options) (candidate, bool) {
	if !o.IndexHTML || !c.allow || c.dir {
		return candidate{}, false
	}
	if _, ok := indexDir(c.raw); !ok {
		return candidate{}, false
	}
	c.dir, c.pre = true, c.preDir
	return c, true
}

// compile compiles the candidate's path into a pattern (see compileTo);
// value is the path compiled: the rule's, or its directory.
func (c *candidate) compile(dst []byte, o *Options) (p pattern, value string, text []byte, changed bool) {
	value = c.raw
	if c.dir {
		value, _ = indexDir(c.raw)
	}
	p, text, changed = compileTo(dst, value, o)
	if c.dir {
		// As "dir$" would compile.
		p.anchored = true
		p.length++
	}
	return p, value, text, changed
}

// ruleRef describes a candidate for traces and for Groups.
func (o *Options) ruleRef(c candidate) RuleRef {
	p, value, text, changed := c.compile(nil, o)
	var norm string
	switch {
	case changed:
		norm = string(collapseStars(text))
	case !strings.Contains(value[:p.end], "**"):
		norm = value[:p.end] // as written, nothing to collapse: no copy
	default:
		norm = string(collapseStars([]byte(value[:p.end])))
	}
	return RuleRef{Line: int(c.line), Allow: c.allow, Pattern: c.raw, Length: int(p.length), Normalized: norm, Anchored: p.anchored}
}

// matchRule reports whether candidate c matches path, and its length for
// longest match. It first rules the candidate out by its literal prefix
// where it can, which spares compiling most rules of a file; a rule that
// normalisation changes is compiled into scratch, so nothing is allocated.
func matchRule(o *Options, c candidate, path, scratch []byte) (length int32, ok bool) {
	value := c.raw
	if c.dir {
		value, _ = indexDir(c.raw)
	}
	if !mayMatch(o, value, path) {
		return 0, false
	}
	if c.pre != nil {
		return c.pre.pat.length, matchText(&c.pre.pat, c.pre.text, path)
	}
	p, value, text, changed := c.compile(scratch, o)
	switch {
	case p.end == 0 && !p.anchored:
		return 0, false // an empty path matches nothing (PAT-2)
	case changed:
		ok = matchText(&p, text, path)
	default:
		ok = matchText(&p, value[:p.end], path)
	}
	return p.length, ok
}

// best is the deciding rule among those a decision has considered so far.
type best struct {
	candidate
	length int32
	found  bool
}

// consider matches the rule c (and with IndexHTML the rule Google derives
// from it) against path and keeps it if it decides over the best so far.
func (b *best) consider(o *Options, c candidate, path, scratch []byte) {
	b.try(o, c, path, scratch)
	if d, ok := c.derived(o); ok {
		b.try(o, d, path, scratch)
	}
}

func (b *best) try(o *Options, c candidate, path, scratch []byte) {
	if length, ok := matchRule(o, c, path, scratch); ok && (!b.found || o.beats(length, c, b)) {
		b.candidate, b.length, b.found = c, length, true
	}
}

// mayMatch reports whether a rule's value can match path, judging by its
// leading octets that compilation leaves as they are: a test much cheaper
// than compiling the rule, which rules out most rules of a file at their
// first octets.
func mayMatch(o *Options, value string, path []byte) bool {
	if o.CaseInsensitivePaths || o.SlashlessPatterns || o.WildcardUnanchored || o.RulesUnanchored {
		return true
	}
	class := classTable(false)
	for k := 0; k < len(value) && class[value[k]] == keep && value[k] != '*'; k++ {
		if k == len(path) || value[k] != path[k] {
			// The rule's literal prefix is longer than the path or
			// differs from it.
			return false
		}
	}
	return true
}

// indexDir returns the directory of an allow rule's value that ends in
// "/index.htm" and anything after it; Google's parser also allows the
// directory itself, anchored ("/dir/$", G-INDEX).
func indexDir(value string) (string, bool) {
	slash := strings.LastIndexByte(value, '/')
	if slash < 0 || !strings.HasPrefix(value[slash:], "/index.htm") {
		return "", false
	}
	return value[:slash+1], true
}

// beats reports whether a matching rule of the given length decides over
// the best so far (§2.2.2): the longer one (MATCH-4), allow on equal
// length unless DisallowWinsTies (MATCH-5), then the earlier line. With
// FirstMatch the earlier line alone decides.
func (o *Options) beats(length int32, c candidate, b *best) bool {
	if o.FirstMatch {
		return c.line < b.line
	}
	if length != b.length {
		return length > b.length
	}
	if c.allow != b.allow {
		return c.allow != o.DisallowWinsTies
	}
	return c.line < b.line
}
