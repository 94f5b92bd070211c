package reference

import (
	"slices"
	"strings"
)

// This file implements the misreadings of the catalogue (misread.go) that
// need more than a test in the RFC's own code: each function runs only
// when an option of Misread asks for it, so that the RFC's path stays as
// it was.

// misreadPattern applies LengthWithoutWildcards, LiteralStar and
// WildcardUnanchored to a rule compiled the RFC's way from value. It may
// allocate: only variants of the reference come here.
func (o *Options) misreadPattern(value string, p pattern, text []byte, changed bool) (pattern, []byte, bool) {
	cur := text
	if !changed {
		cur = []byte(value[:p.end])
	}
	stars := int32(strings.Count(value, "*"))
	if o.LengthWithoutWildcards {
		p.length -= stars
		if p.anchored {
			p.length--
		}
	}
	switch {
	case o.LiteralStar:
		if o.NormalizeURI && stars > 0 {
			// The URI writes a literal "*" as "%2A" (see canonicalClass).
			cur = []byte(strings.ReplaceAll(string(cur), "*", "%2A"))
		}
		p.lit = int32(len(cur))
	case o.WildcardUnanchored && (p.anchored || stars > 0):
		cur = append([]byte{'*'}, cur...)
		p.lit = 0
	default:
		return p, text, changed
	}
	p.end = int32(len(cur))
	return p, cur, true
}

// groupsMisread reports whether the options choose groups otherwise than
// the RFC does (see Robots.misreadGroups).
func (o *Options) groupsMisread() bool {
	return o.GroupChoice != MergeGroups || o.StarMergedIntoNamed || o.StarGroupForAll || o.AgentCompare != AgentEqual
}

// misreadGroups returns the groups that name agent and the "*" groups as
// the group misreadings choose them, given the groups that name agent as
// the RFC finds them. It allocates: only variants come here.
func (r *Robots) misreadGroups(agent string, named []int32) (groups, global []int32) {
	o := &r.opts
	if o.AgentCompare != AgentEqual {
		named = r.groupsCompared(agent)
	}
	if o.StarGroupForAll {
		named = nil
	}
	named, global = o.GroupChoice.pick(named), o.GroupChoice.pick(r.global)
	if o.StarMergedIntoNamed && len(named) > 0 && len(global) > 0 {
		named = append(slices.Clip(named), global...)
		slices.Sort(named)
		named = slices.Compact(named)
	}
	return named, global
}

// pick returns the groups of gs (in file order) that the choice keeps.
func (c GroupChoice) pick(gs []int32) []int32 {
	switch {
	case len(gs) == 0 || c == MergeGroups:
		return gs
	case c == FirstGroup:
		return gs[:1]
	}
	return gs[len(gs)-1:]
}

// groupsCompared returns, in file order, the groups whose user-agent lines
// name agent under Options.AgentCompare.
func (r *Robots) groupsCompared(agent string) []int32 {
	a := lowerASCIIString(agent)
	header := lowerASCIIString(UserAgentHeader(agent))
	var out []int32
	for _, n := range r.names {
		t := lowerASCIIString(r.str(n.token))
		var ok bool
		switch r.opts.AgentCompare {
		case AgentSubstring:
			ok = t != "" && (strings.Contains(a, t) || strings.Contains(t, a))
		case AgentPrefix:
			ok = t != "" && strings.HasPrefix(a, t)
		case AgentFullHeader:
			ok = t == header
		}
		if ok {
			out = append(out, r.nameGroups[n.groups[0]:n.groups[1]]...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
