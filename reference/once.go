package reference

import "strings"

// AllowedOnce reports whether agent may access url under the robots.txt
// body, for a caller that makes one decision per file: it reads the body
// once and keeps nothing, compiling only the rules of the groups that can
// apply to agent, and allocates nothing. Its verdict is always that of
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
	var scratch [256]byte // compiled text of a rule that normalisation changes
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
			ru := rule{line: int32(n), allow: kind == Allow}
			switch {
			case !inGroup:
				if o.OrphanRulesApply {
					orphan.consider(o, value, ru, path, scratch[:])
				}
				continue
			case curNamed:
				named.consider(o, value, ru, path, scratch[:])
			case curGlobal && !sawNamed:
				global.consider(o, value, ru, path, scratch[:])
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
	return b.rule.allow, nil
}

// best is the deciding rule among those considered so far.
type best struct {
	rule  rule
	found bool
}

// consider matches one rule (and with IndexHTML the rule Google derives
// from it) against path and keeps it if it decides over the best so far.
func (b *best) consider(o *Options, value string, ru rule, path, scratch []byte) {
	b.try(o, value, false, ru, path, scratch)
	if o.IndexHTML && ru.allow {
		if dir, ok := indexDir(value); ok {
			b.try(o, dir, true, ru, path, scratch)
		}
	}
}

// try matches one rule against path; anchor adds the "$" that derived
// rules end in.
func (b *best) try(o *Options, value string, anchor bool, ru rule, path, scratch []byte) {
	if !mayMatch(o, value, path) {
		return
	}
	p, text, changed := compileTo(scratch, value, o)
	if anchor {
		p.anchored = true
		p.length++
	}
	var match bool
	switch {
	case p.end == 0 && !p.anchored:
		return // an empty path matches nothing (PAT-2)
	case changed:
		match = matchText(&p, text, path)
	default:
		match = matchText(&p, value[:p.end], path)
	}
	if !match {
		return
	}
	ru.pat = p
	if !b.found || o.beats(&ru, &b.rule) {
		b.rule, b.found = ru, true
	}
}

// mayMatch reports whether a rule's value can match path, judging by its
// leading octets that compilation leaves as they are: a test much cheaper
// than compiling the rule, which rules out most rules of a file at their
// first octets.
func mayMatch(o *Options, value string, path []byte) bool {
	if o.CaseInsensitivePaths || o.SlashlessPatterns {
		return true
	}
	class := classTable(false)
	k := 0
	for k < len(value) && class[value[k]] == keep && value[k] != '*' {
		if k == len(path) || value[k] != path[k] {
			// The rule's literal prefix is longer than the path or
			// differs from it.
			return false
		}
		k++
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
