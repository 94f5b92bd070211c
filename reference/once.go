package reference

import "fmt"

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
	if o.linesMisread() || o.groupsMisread() {
		// Misreadings of groups are implemented on a parsed file only.
		return ParseString(body, opts).Allowed(agent, url)
	}
	var buf [512]byte
	path := o.appendPath(buf[:0], url)
	if o.ImplicitRobotsTxt && isRobotsTxtPath(path) {
		return true, nil
	}
	b, _ := decideOnce(body, o, agent, path)
	if !b.found {
		return true, nil
	}
	return b.allow, nil
}

// ReasonOnce returns the reason of the reference's decision on agent and
// url under the robots.txt body, for a caller that needs only that: it
// reads the body once, keeps nothing and allocates as AllowedOnce does.
// Its answer is always the Reason of ParseString(body, opts).Decide(agent,
// url), and its error is Decide's.
func ReasonOnce(body string, opts Options, agent, url string) (Reason, error) {
	o := &opts
	if !o.validAgent(agent) {
		return 0, fmt.Errorf("%w: %q", ErrInvalidToken, agent)
	}
	if o.linesMisread() || o.groupsMisread() {
		d, err := ParseString(body, opts).Decide(agent, url)
		return d.Reason, err
	}
	var buf [512]byte
	path := o.appendPath(buf[:0], url)
	robotsTxt := o.ImplicitRobotsTxt && isRobotsTxtPath(path)
	if robotsTxt {
		path = nil // no rule is matched against it
	}
	b, sel := decideOnce(body, o, agent, path)
	switch {
	case sel == selNone:
		return NoGroup, nil
	case robotsTxt:
		return RobotsTxt, nil
	case b.found:
		return RuleMatched, nil
	}
	return NoMatchingRule, nil
}

// decideOnce reads body for the deciding rule among the groups that apply
// to agent, and which groups those are; a nil path is matched by no rule.
// The options misread no groups.
func decideOnce(body string, o *Options, agent string, path []byte) (best, selection) {
	body, _ = limitBody(body, o.MaxBytes)

	// The best rule so far among the groups that name the agent, among
	// the "*" groups, and among rules before any group (§2.2.1: the named
	// groups win, then "*", then, with OrphanRulesApply, the orphans).
	var named, global, orphan best
	sawNamed, sawGlobal, sawOrphan := false, false, false
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
			case path == nil:
				// Only which groups apply is asked.
				if !inGroup {
					sawOrphan = true
					continue
				}
			case !inGroup:
				sawOrphan = true
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
	switch {
	case sawNamed:
		return named, selNamed
	case sawGlobal:
		return global, selGlobal
	case sawOrphan && o.OrphanRulesApply:
		return orphan, selOrphan
	}
	return orphan, selNone
}
