package reference

import "slices"

// A Comparison tells, question by question, whether two readings of one
// body decide alike, without deciding: it compares what a decision would
// read, the rules that apply to the agent as compiled and sorted, and
// how each reading turns a URL into a path. Fitting misreadings (package
// diagnose) asks a variant of the reference only where its reading of a
// body differs from the reference's for the agent asked, which for most
// misreadings is a small part of the questions.
type Comparison struct {
	a, b *Robots
	// paths is set when the options of a and b turn every URL into the
	// same path.
	paths bool
	// compiling is set when a and b compile rules alike: the same rules
	// as written are then the same rules compiled.
	compiling bool
	// parsed is set when a and b hold the same groups, agents and rules;
	// selecting when they also choose groups for an agent alike, so that
	// an agent's groups are the same in both.
	parsed, selecting bool
	// group holds, when selecting, whether a group is compiled alike in
	// both (groupAlike), as found so far.
	group  []int8
	agents map[string]*agentComparison
}

// The states of Comparison.group.
const (
	groupUnknown int8 = iota
	groupAlike
	groupOther
)

// agentComparison is what a Comparison found for one agent.
type agentComparison struct {
	// alike is set when the two readings apply the same rules to the
	// agent, or neither accepts it as an agent.
	alike bool
	// none is set when neither reading applies any rule to the agent:
	// both allow every path, however they read it.
	none bool
	// exempt says whether each reading exempts /robots.txt
	// (Options.ImplicitRobotsTxt) for the agent.
	exemptA, exemptB bool
}

// Compare returns a Comparison of a and b, two readings of one body,
// such as the reference's and a variant's (see WithMisreadings). Like a
// Robots, a Comparison decides nothing until asked; it is not safe for
// concurrent use.
func Compare(a, b *Robots) *Comparison {
	c := &Comparison{a: a, b: b, paths: a.opts.pathReading() == b.opts.pathReading(),
		compiling: a.opts.compiling() == b.opts.compiling(), agents: map[string]*agentComparison{}}
	c.parsed = sameParse(a, b)
	c.selecting = c.parsed && a.opts.selecting() == b.opts.selecting()
	if c.selecting && !c.compiling {
		c.group = make([]int8, len(a.groups)+1)
	}
	return c
}

// Alike reports whether a.Allowed(agent, url) and b.Allowed(agent, url)
// are sure to give the same answer (an error being one answer). It
// answers false where it cannot tell without deciding, so that a caller
// may decide only there. What it finds of an agent's rules is kept for
// the agent's next question.
func (c *Comparison) Alike(agent, url string) bool {
	ac := c.agents[agent]
	if ac == nil {
		ac = c.compareAgent(agent)
		c.agents[agent] = ac
	}
	switch {
	case !ac.alike:
		return false
	case ac.none || c.paths && ac.exemptA == ac.exemptB:
		return true
	}
	var bufA, bufB [512]byte
	pa := c.a.opts.appendPath(bufA[:0], url)
	if !c.paths && string(pa) != string(c.b.opts.appendPath(bufB[:0], url)) {
		return false
	}
	// One reading exempts /robots.txt and the other does not: alike on
	// every other path.
	return ac.exemptA == ac.exemptB || !isRobotsTxtPath(pa)
}

// compareAgent compares what a and b apply to agent.
func (c *Comparison) compareAgent(agent string) *agentComparison {
	ac := &agentComparison{}
	va, vb := c.a.opts.validAgent(agent), c.b.opts.validAgent(agent)
	if va != vb {
		return ac
	}
	if !va {
		ac.alike, ac.none = true, true
		return ac
	}
	sa, ga := c.a.selectGroups(agent)
	if c.selecting {
		return c.selected(ac, sa, ga)
	}
	sb, gb := c.b.selectGroups(agent)
	n, ok := 0, false
	if c.compiling {
		n, ok = sameWritten(c.a.written(sa, ga), c.b.written(sb, gb), c.a, c.b)
	}
	if !ok {
		n, ok = sameCompiled(c.a.applied(sa, ga), c.b.applied(sb, gb))
	}
	if !ok || n > 1 && !c.a.opts.sameTies(&c.b.opts) {
		// Between groups, a match decides over another by the options.
		return ac
	}
	ac.alike, ac.none = true, n == 0
	ac.exemptA, ac.exemptB = c.a.opts.ImplicitRobotsTxt, c.b.opts.ImplicitRobotsTxt
	return ac
}

// selected completes ac where a and b select the same groups, sel and
// groups: alike when each of them is compiled alike.
func (c *Comparison) selected(ac *agentComparison, sel selection, groups []int32) *agentComparison {
	gs := c.a.ruled(sel, groups)
	for _, gi := range gs {
		if !c.compiling && !c.groupCompiledAlike(gi) {
			return ac
		}
	}
	n := len(gs)
	if n > 1 && !c.a.opts.sameTies(&c.b.opts) {
		return ac
	}
	ac.alike, ac.none = true, n == 0
	ac.exemptA, ac.exemptB = c.a.opts.ImplicitRobotsTxt, c.b.opts.ImplicitRobotsTxt
	return ac
}

// groupCompiledAlike reports whether group gi (len(a.groups): the orphan
// rules) compiles alike in a and b, found once.
func (c *Comparison) groupCompiledAlike(gi int) bool {
	if c.group[gi] == groupUnknown {
		c.group[gi] = groupOther
		// across: the group may be one of several an agent applies.
		if c.a.compiledGroup(c.a.index(), gi).sameRules(c.b.compiledGroup(c.b.index(), gi), true) {
			c.group[gi] = groupAlike
		}
	}
	return c.group[gi] == groupAlike
}

// sameParse reports whether a and b hold the same groups, agents, names
// and rules: whether a decision reads the same file in both, whatever
// options read it.
func sameParse(a, b *Robots) bool {
	if len(a.rules) != len(b.rules) || len(a.groups) != len(b.groups) || len(a.agents) != len(b.agents) ||
		len(a.names) != len(b.names) || len(a.orphan) != len(b.orphan) ||
		!slices.Equal(a.groups, b.groups) || !slices.Equal(a.nameGroups, b.nameGroups) || !slices.Equal(a.global, b.global) {
		return false
	}
	if n, ok := sameWritten([][]rule{a.rules, a.orphan}, [][]rule{b.rules, b.orphan}, a, b); !ok || n != 2 {
		return false
	}
	for i := range a.agents {
		if a.agents[i].line != b.agents[i].line || a.str(a.agents[i].value) != b.str(b.agents[i].value) {
			return false
		}
	}
	for i := range a.names {
		if a.names[i].groups != b.names[i].groups || a.str(a.names[i].token) != b.str(b.names[i].token) {
			return false
		}
	}
	return true
}

// sameWritten reports whether ga (rule lists of a) and gb (of b) hold the
// same rules as written, and how many lists.
func sameWritten(ga, gb [][]rule, a, b *Robots) (int, bool) {
	if len(ga) != len(gb) {
		return 0, false
	}
	for i := range ga {
		if len(ga[i]) != len(gb[i]) {
			return 0, false
		}
		for k := range ga[i] {
			x, y := &ga[i][k], &gb[i][k]
			if x.allow != y.allow || x.line != y.line || a.str(x.raw) != b.str(y.raw) {
				return 0, false
			}
		}
	}
	return len(ga), true
}

// sameCompiled reports whether ga and gb hold the same compiled rules,
// and how many groups.
func sameCompiled(ga, gb []*compiledGroup) (int, bool) {
	if len(ga) != len(gb) {
		return 0, false
	}
	for i := range ga {
		if !ga[i].sameRules(gb[i], len(ga) > 1) {
			return 0, false
		}
	}
	return len(ga), true
}

// ruled returns the groups a selection applies that have rules, in
// order (len(r.groups) for the orphan rules): groups without rules
// decide nothing.
func (r *Robots) ruled(sel selection, groups []int32) []int {
	var out []int
	switch sel {
	case selOrphan:
		if len(r.orphan) > 0 {
			out = append(out, len(r.groups))
		}
	case selNamed, selGlobal:
		for _, gi := range groups {
			if len(r.groupRules(int(gi))) > 0 {
				out = append(out, int(gi))
			}
		}
	}
	return out
}

// written returns the rules of the groups a selection applies, as
// written, leaving out groups without rules.
func (r *Robots) written(sel selection, groups []int32) [][]rule {
	var out [][]rule
	for _, gi := range r.ruled(sel, groups) {
		out = append(out, r.groupRules(gi))
	}
	return out
}

// applied returns the compiled groups a selection applies, in order,
// leaving out those without rules, as compiled: they decide nothing.
func (r *Robots) applied(sel selection, groups []int32) []*compiledGroup {
	ix := r.index()
	var out []*compiledGroup
	for _, gi := range r.ruled(sel, groups) {
		if cg := r.compiledGroup(ix, gi); len(cg.rules) > 0 {
			out = append(out, cg)
		}
	}
	return out
}

// sameRules reports whether g and h hold the same compiled rules in the
// same order. Within one group the first rule that matches decides, so
// patterns and kinds are all that count; between groups (across) the
// rules' lengths and lines decide too.
func (g *compiledGroup) sameRules(h *compiledGroup, across bool) bool {
	if len(g.rules) != len(h.rules) {
		return false
	}
	for i := range g.rules {
		x, y := &g.rules[i], &h.rules[i]
		if x.text != y.text || x.allow != y.allow || x.pat.end != y.pat.end || x.pat.lit != y.pat.lit ||
			x.pat.anchored != y.pat.anchored {
			return false
		}
		if across && (x.pat.length != y.pat.length || x.line != y.line) {
			return false
		}
	}
	return true
}

// pathOptions are the options Options.appendPath reads.
type pathOptions struct {
	semicolon, nul, query, normalize, decodeAll, fold bool
}

// pathReading returns the options that turn a URL into a path.
func (o *Options) pathReading() pathOptions {
	return pathOptions{o.SemicolonEndsHost, o.NULEndsLine, o.IgnoreQuery, o.NormalizeURI, o.DecodeAllEscapes, o.CaseInsensitivePaths}
}

// compiling returns the options that compile a group's rules: o without
// those that only choose groups, read lines, or fetch. Two options with
// the same compiling options compile the same rules alike.
func (o Options) compiling() Options {
	c := o
	c.Name = ""
	c.SkipBOM, c.SkipPartialBOM, c.MaxBytes, c.MaxLineBytes = false, false, 0, 0
	c.GoogleKeys, c.UserAgentTypo, c.MissingColon, c.GoogleSpace = false, false, false, false
	c.AgentMatch, c.AnyAgent, c.StarPrefix, c.OrphanRulesApply, c.ImplicitRobotsTxt = 0, false, false, false, false
	c.IgnoreAllow, c.UnicodeSpace, c.LFOnly = false, false, false
	c.GroupChoice, c.StarMergedIntoNamed, c.StarGroupForAll, c.EmptyGroupIgnored, c.AgentCompare = 0, false, false, false, 0
	c.BlankLineEndsGroup, c.AgentLinesApart, c.RecordsSplitAgents, c.CrawlDelaySplitsAgents = false, false, false, false
	return c
}

// selecting returns the options that choose the groups for an agent
// from parsed groups.
func (o *Options) selecting() selectOptions {
	return selectOptions{o.AgentMatch, o.AnyAgent, o.StarPrefix, o.OrphanRulesApply, o.GroupChoice, o.StarMergedIntoNamed,
		o.StarGroupForAll, o.EmptyGroupIgnored, o.AgentCompare}
}

// selectOptions are the options Options.selecting returns.
type selectOptions struct {
	match                                AgentMatch
	anyAgent, starPrefix, orphans        bool
	choice                               GroupChoice
	starMerged, starForAll, emptyIgnored bool
	compare                              AgentCompare
}

// sameTies reports whether o and p order two matching rules alike
// (Options.beats).
func (o *Options) sameTies(p *Options) bool {
	return o.FirstMatch == p.FirstMatch && o.DisallowWinsTies == p.DisallowWinsTies
}
