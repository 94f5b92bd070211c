package reference

import "strings"

// AllowedOnce reports whether agent may access url under the robots.txt
// body, for a caller that makes one decision per file: it reads the body
// once and keeps nothing, compiling only the rules of the groups that can
// apply to agent. Its verdict is always that of
// ParseString(body, opts).Allowed(agent, url); for several decisions on
// one file, parse it once instead.
func AllowedOnce(body string, opts Options, agent, url string) (bool, error) {
	o := &opts
	if !o.validAgent(agent) {
		return false, ErrInvalidToken
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
	scanLines(body, o, func(n, _ int, text string) {
		kind, _, _, vs, ve, _ := classifySpan(text, o)
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
			ru := rule{line: int32(n), allow: kind == Allow}
			if !inGroup {
				if o.OrphanRulesApply {
					orphan.consider(o, value, ru, path)
				}
				return
			}
			open = false
			if curNamed {
				named.consider(o, value, ru, path)
			}
			if curGlobal && !sawNamed {
				global.consider(o, value, ru, path)
			}
		}
	})
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
	return b.rule.allow, nil
}

// best is the deciding rule among those considered so far.
type best struct {
	rule  rule
	found bool
}

// consider matches one rule (and with IndexHTML the rule Google derives
// from it) against path and keeps it if it decides over the best so far.
func (b *best) consider(o *Options, value string, ru rule, path []byte) {
	b.try(o, value, ru, path)
	if o.IndexHTML && ru.allow {
		if slash := strings.LastIndexByte(value, '/'); slash >= 0 && strings.HasPrefix(value[slash:], "/index.htm") {
			b.try(o, value[:slash+1]+"$", ru, path)
		}
	}
}

func (b *best) try(o *Options, value string, ru rule, path []byte) {
	p, text, _ := compilePattern(value, o)
	if text == "" && !p.anchored || !p.matches(text, path) {
		return
	}
	ru.pat = p
	if !b.found || o.beats(&ru, &b.rule) {
		b.rule, b.found = ru, true
	}
}
