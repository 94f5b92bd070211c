package reference

import "slices"

// Reread returns the file as options o read it, and true, when o reads
// its lines as r's options do (o differs from them only in how groups
// are chosen, rules compiled and matched, URLs read or files fetched):
// the result is what Parse of the same body under o returns, without
// parsing it again. It shares r's parse, and its compiled groups too when
// o compiles rules alike. It returns nil and false otherwise.
//
// Variants of the reference (WithMisreadings) mostly read a body's lines
// as the reference does: fitting them reads each body once.
func (r *Robots) Reread(o Options) (*Robots, bool) {
	if o.parsing() != r.opts.parsing() {
		return nil, false
	}
	v := &Robots{opts: o, body: r.body, truncated: r.truncated, size: r.size,
		rules: r.rules, groups: r.groups, agents: r.agents, names: r.names, nameGroups: r.nameGroups,
		global: r.global, long: r.long, orphan: r.orphan, others: r.others, groupMisread: o.groupsMisread()}
	if o.compiling() == r.opts.compiling() {
		// The compiled groups are the same: share them (their pointers
		// are atomic), not what the index keeps of the last agent.
		v.prep.index.Store(&ruleIndex{groups: r.index().groups})
		return v, true
	}
	if r.hasLong() {
		// Long rules keep their compiled form, which o may compile
		// otherwise.
		v.long = nil
		v.rules, v.orphan = slices.Clone(r.rules), slices.Clone(r.orphan)
		v.relong(v.rules)
		v.relong(v.orphan)
	}
	return v, true
}

// RereadFrom is Reread from the first of rs (readings of one body; nil
// ones are skipped) that reads lines as o does and also compiles rules
// as o does, whose compiled groups the result then shares; else from the
// first that reads lines as o does. It returns nil and false when none
// does. A file reread from a reread file answers as Parse does too.
func RereadFrom(o Options, rs ...*Robots) (*Robots, bool) {
	var alike *Robots
	for _, r := range rs {
		if r == nil || o.parsing() != r.opts.parsing() {
			continue
		}
		if o.compiling() == r.opts.compiling() {
			return r.Reread(o)
		}
		if alike == nil {
			alike = r
		}
	}
	if alike == nil {
		return nil, false
	}
	return alike.Reread(o)
}

// hasLong reports whether a rule of r is long enough to keep a compiled
// form (see keepLong).
func (r *Robots) hasLong() bool {
	long := func(ru rule) bool { return int(ru.raw[1]-ru.raw[0]) > scratchLen/3 }
	return slices.ContainsFunc(r.rules, long) || slices.ContainsFunc(r.orphan, long)
}

// relong compiles the long rules of rs again under r's options, as
// parsing does.
func (r *Robots) relong(rs []rule) {
	for i := range rs {
		ru := &rs[i]
		ru.long, ru.longDir = 0, 0
		if int(ru.raw[1]-ru.raw[0]) <= scratchLen/3 {
			continue
		}
		c := r.candidate(*ru)
		ru.long = r.keepLong(c)
		if d, ok := c.derived(&r.opts); ok {
			ru.longDir = r.keepLong(d)
		}
	}
}

// parsing returns the options that read a body's lines into groups and
// rules: o without those that only choose groups, compile and match
// rules, read URLs or fetch. The compiled form of long rules (keepLong)
// is left to Reread.
func (o Options) parsing() Options {
	c := o
	c.Name = ""
	c.OrphanRulesApply, c.DisallowWinsTies, c.CaseInsensitivePaths, c.NormalizeURI = false, false, false, false
	c.SemicolonEndsHost, c.SlashlessPatterns, c.ImplicitRobotsTxt, c.IndexHTML = false, false, false, false
	c.MaxRedirects, c.MaxBodyBytes, c.TooManyRequestsUnreachable = 0, 0, false
	c.CacheTTL, c.OutageLimit, c.OutagePolicy, c.OutageIgnoresCache = 0, 0, 0, false
	c.FirstMatch, c.LengthWithoutWildcards, c.LiteralStar, c.LiteralDollar = false, false, false, false
	c.WildcardUnanchored, c.RawPaths, c.DecodeAllEscapes, c.IgnoreQuery, c.RulesUnanchored = false, false, false, false, false
	c.GroupChoice, c.StarMergedIntoNamed, c.StarGroupForAll, c.EmptyGroupIgnored, c.AgentCompare = 0, false, false, false, 0
	c.ServerErrorAllows, c.UnreachableAllows, c.ClientErrorDisallows = false, false, false
	c.PortIgnored, c.SchemeIgnored, c.RobotsAfterPage, c.RobotsOtherAgent = false, false, false, false
	return c
}
