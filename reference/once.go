package reference

// AllowedOnce reports whether agent may access url under the robots.txt
// body, for a caller that makes one decision per file: it reads the body
// once and keeps nothing, compiling only the rules of the groups that can
// apply to agent that their literal prefix does not rule out. It allocates
// nothing, unless such a rule is longer than scratchLen/3 bytes and must
// be normalised. Its verdict is always that of
// ParseString(body, opts).Allowed(agent, url); for several decisions on
// one file, parse it once instead.
func AllowedOnce(body string, opts Options, agent, url string) (bool, error) {
	o := &opts
	if !o.validAgent(agent) {
		return false, ErrInvalidToken
	}
	if o.BlankLineEndsGroup || o.AgentLinesApart || o.RecordsSplitAgents || o.groupsMisread() {
		// Misreadings of groups are implemented on a parsed file only.
		return ParseString(body, opts).Allowed(agent, url)
	}
	var buf [512]byte
	path := o.appendPath(buf[:0], url)
	if o.ImplicitRobotsTxt && isRobotsTxtPath(path) {
		return true, nil
	}
	body, _ = limitBody(body, o.MaxBytes)

	// The best rule so far among the groups that name the agent, among
	// the "*" groups, and among rules before any group (§2.2.1: the named
	// groups win, then "*", then, with OrphanRulesApply, the orphans).
	var named, global, orphan best
	sawNamed, sawGlobal := false, false
	inGroup, open := false, false
	curNamed, curGlobal := false, false
	var scratch [scratchLen]byte // compiled text of a rule that normalisation changes
	var c candidate
	sc := newLineScanner(body, o)
	for {
		n, _, text, ok := sc.next()
		if !ok {
			break
		}
		kind, ks, ke, vs, ve, _ := classifySpan(text, o)
		value := text[vs:ve]
		switch kind {
		case UserAgent:
			if !open {
				curNamed, curGlobal, open, inGroup = false, false, true, true
			}
			token, star := o.agentName(value)
			switch {
			case star:
				curGlobal, sawGlobal = true, true
			case o.names(token) && equalFold(token, agent):
				curNamed, sawNamed = true, true
			}
		case Allow, Disallow:
			c = candidate{raw: value, line: int32(n), allow: kind == Allow}
			switch {
			case !inGroup:
				if o.OrphanRulesApply {
					orphan.consider(o, c, path, scratch[:])
				}
				continue
			case curNamed:
				named.consider(o, c, path, scratch[:])
			case curGlobal && !sawNamed:
				global.consider(o, c, path, scratch[:])
			}
			open = false
		case Other:
			if o.UsageRules && inGroup && isUsageKey(text[ks:ke]) {
				open = false
			}
		}
	}
	var b *best
	switch {
	case sawNamed:
		b = &named
	case sawGlobal:
		b = &global
	default:
		b = &orphan
	}
	if !b.found {
		return true, nil
	}
	return b.allow, nil
}
