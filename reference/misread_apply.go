package reference

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file implements the misreadings of the catalogue (misread.go) that
// need more than a test in the RFC's own code: each function runs only
// when an option of Misread asks for it, so that the RFC's path stays as
// it was.

// patternMisread reports whether the options compile rules otherwise than
// the RFC does (see misreadPattern).
func (o *Options) patternMisread() bool {
	return o.LengthWithoutWildcards || o.LiteralStar || o.WildcardUnanchored || o.RulesUnanchored
}

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
	case o.RulesUnanchored || o.WildcardUnanchored && (p.anchored || stars > 0):
		cur = append([]byte{'*'}, cur...)
		p.lit = 0
	default:
		return p, text, changed
	}
	p.end = int32(len(cur))
	return p, cur, true
}

// linesMisread reports whether the options read user-agent lines into
// groups otherwise than the RFC does.
func (o *Options) linesMisread() bool {
	return o.BlankLineEndsGroup || o.AgentLinesApart || o.RecordsSplitAgents || o.CrawlDelaySplitsAgents
}

// groupsMisread reports whether the options choose groups otherwise than
// the RFC does (see Robots.misreadGroups).
func (o *Options) groupsMisread() bool {
	return o.GroupChoice != MergeGroups || o.StarMergedIntoNamed || o.StarGroupForAll || o.AgentCompare != AgentEqual || o.EmptyGroupIgnored
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
	global = r.global
	if o.EmptyGroupIgnored {
		named, global = r.withRules(named), r.withRules(global)
	}
	named, global = o.GroupChoice.pick(named), o.GroupChoice.pick(global)
	if o.StarMergedIntoNamed && len(named) > 0 && len(global) > 0 {
		named = append(slices.Clip(named), global...)
		slices.Sort(named)
		named = slices.Compact(named)
	}
	return named, global
}

// withRules returns the groups of gs that have rules, or nil.
func (r *Robots) withRules(gs []int32) []int32 {
	var out []int32
	for _, g := range gs {
		if rs := r.groups[g].rules; rs[1] > rs[0] {
			out = append(out, g)
		}
	}
	return out
}

// trimUnicodeSpace narrows s[i:j] by the UTF-8 encoded Unicode white
// space at either end (Options.UnicodeSpace).
func trimUnicodeSpace(s string, i, j int) (int, int) {
	for i < j {
		r, n := utf8.DecodeRuneInString(s[i:j])
		if !unicode.IsSpace(r) && r != '\uFEFF' {
			break
		}
		i += n
	}
	for j > i {
		r, n := utf8.DecodeLastRuneInString(s[i:j])
		if !unicode.IsSpace(r) && r != '\uFEFF' {
			break
		}
		j -= n
	}
	return i, j
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
	if r.opts.AgentCompare == AgentLongestWithin {
		return r.groupsLongestWithin(agent)
	}
	var header string
	if r.opts.AgentCompare == AgentFullHeader {
		header = UserAgentHeader(agent)
	}
	var out []int32
	for _, n := range r.names {
		// Tokens are compared in place, without lowering copies: a
		// variant asks this for every question.
		t := r.str(n.token)
		var ok bool
		switch r.opts.AgentCompare {
		case AgentSubstring:
			ok = t != "" && (containsFold(agent, t) || containsFold(t, agent))
		case AgentPrefix:
			ok = t != "" && len(agent) >= len(t) && equalFold(agent[:len(t)], t)
		case AgentFullHeader:
			ok = equalFold(t, header)
		case AgentUnicodeFold:
			ok = t != "" && strings.EqualFold(t, agent)
		case AgentWithin:
			ok = t != "" && containsFold(agent, t)
		}
		if ok {
			out = append(out, r.nameGroups[n.groups[0]:n.groups[1]]...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// groupsLongestWithin returns, in file order, the groups of the longest
// token within agent (AgentLongestWithin); of equally long ones, the
// token of the earliest group.
func (r *Robots) groupsLongestWithin(agent string) []int32 {
	var best *name
	for i := range r.names {
		n := &r.names[i]
		t := r.str(n.token)
		if t == "" || !containsFold(agent, t) {
			continue
		}
		if best == nil || len(t) > len(r.str(best.token)) ||
			len(t) == len(r.str(best.token)) && r.nameGroups[n.groups[0]] < r.nameGroups[best.groups[0]] {
			best = n
		}
	}
	if best == nil {
		return nil
	}
	return slices.Clone(r.nameGroups[best.groups[0]:best.groups[1]])
}

// containsFold reports whether sub is within s, ASCII letters compared
// without regard to case (as equalFold does).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if equalFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// MayShow reports whether the variant of base with the misreading id can
// answer a question on one of urls otherwise than base does, for body
// served with status as FromStatus reads it. It answers false only when
// the input lacks all the misreading reads otherwise: a '*' for
// no-wildcards, a CR for cr-line-endings-ignored, a status of its class
// for an access misreading, a body read at all for a misreading of its
// text. It answers true when unsure, so that a caller may skip the
// variant exactly where it answers false.
func MayShow(id string, base Options, body []byte, status int, urls []string) bool {
	parsed := status >= 200 && status < 300
	switch id {
	case "5xx-allows":
		return status >= 500 && status < 600
	case "4xx-disallows":
		return status >= 400 && status < 500
	case "unreachable-allows":
		return status == 0
	case "redirects-not-followed":
		return status >= 300 && status < 400
	case "no-wildcards":
		return parsed && bytes.IndexByte(body, '*') >= 0
	case "no-end-anchor":
		return parsed && bytes.IndexByte(body, '$') >= 0
	case "wildcard-unanchored":
		return parsed && bytes.IndexAny(body, "*$") >= 0
	case "useragent-accepted":
		return parsed && bytes.Contains(bytes.ToLower(body), []byte("useragent"))
	case "crawl-delay-splits-agents":
		return parsed && bytes.Contains(bytes.ToLower(body), []byte("crawl-delay"))
	case "cr-line-endings-ignored":
		return parsed && bytes.IndexByte(body, '\r') >= 0
	case "bom-not-skipped":
		return parsed && len(body) > 0 && body[0] == 0xEF
	case "unicode-spaces-trimmed":
		// Unicode white space is not ASCII; of ASCII white space, only
		// VT and FF can stand around a value the RFC's way does not trim.
		return parsed && slices.ContainsFunc(body, func(c byte) bool { return c >= 0x80 || c == '\v' || c == '\f' })
	case "unicode-case-fold":
		// Agents are product tokens, ASCII: only a non-ASCII name folds
		// otherwise than ASCII letters do.
		return parsed && slices.ContainsFunc(body, func(c byte) bool { return c >= 0x80 })
	case "small-size-limit":
		return parsed && len(body) > SmallParseLimit
	case "no-size-limit":
		return parsed && base.MaxBytes > 0 && len(body) > base.MaxBytes
	case "query-ignored":
		return slices.ContainsFunc(urls, func(u string) bool { return strings.Contains(u, "?") })
	case "robots-txt-not-exempt":
		return slices.ContainsFunc(urls, func(u string) bool {
			return strings.Contains(lowerASCIIString(u), "robots") || strings.Contains(u, "%")
		})
	}
	return true
}
