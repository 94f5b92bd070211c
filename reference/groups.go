package reference

import (
	"slices"
	"strings"
)

// Robots is a parsed robots.txt file. It is immutable and safe for
// concurrent use.
//
// Apart from the body itself, a parsed file holds no pointers to strings:
// rules, names and records are offsets into the body (or into extra, for
// rule paths that normalisation changed). Parsing a large file then costs
// the garbage collector almost nothing.
type Robots struct {
	opts      Options
	body      string // the parsed part of the body, after the limit
	extra     string // normalised rule paths that differ from the body
	truncated bool   // content past Options.MaxBytes was ignored
	size      int    // the size of the whole body given to Parse

	rules      []rule // every rule; each group holds a span, sorted
	groups     []group
	agents     []agentLine // user-agent lines; each group holds a span
	names      []name      // the product tokens the file names
	nameGroups []int32     // group indexes; each name holds a span
	// index maps lower-case tokens to names; nil for files naming few
	// agents, which are found by a linear scan instead.
	index  map[string]int32
	global []int32 // groups that name "*"
	// orphan holds the rules before any user-agent line; they apply only
	// with Options.OrphanRulesApply.
	orphan []rule
	others []record
}

// span is a half-open range of offsets or indexes.
type span [2]int32

// group is one group of §2.1: user-agent lines followed by rules.
type group struct {
	agents span // of Robots.agents
	rules  span // of rules, longest first; see sortRules
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
	pat   pattern
	raw   span // the value as written, in body
	line  int32
	allow bool
	// derived marks the rule Options.IndexHTML adds for an allow of
	// ".../index.htm*": it has the line of the rule it comes from.
	derived bool
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
	r := &Robots{opts: opts, size: len(body)}
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

// linearNames is how many names a file may have before lookups go
// through a map rather than a scan.
const linearNames = 8

func (r *Robots) build() {
	o := &r.opts
	nUA, nRules, nOther := countKinds(r.body)
	all := make([]rule, 0, nRules)
	r.groups = make([]group, 0, nUA)
	r.agents = make([]agentLine, 0, nUA)
	// One allocation for the two lists of int32 that each hold at most
	// one entry per user-agent line.
	ints := make([]int32, 2*nUA)
	r.global = ints[0:0:nUA]
	spare := ints[nUA:]
	type pair struct {
		token span
		group int32
	}
	var pairBuf [16]pair
	pairs := pairBuf[:0]
	if nOther > 0 {
		r.others = make([]record, 0, nOther)
	}
	var extra strings.Builder
	open := false // the current group still takes user-agent lines
	ruleStart := 0
	scanLines(r.body, o, func(n, at int, text string) {
		kind, ks, ke, vs, ve, _ := classifySpan(text, o)
		value := text[vs:ve]
		switch kind {
		case UserAgent:
			if !open {
				r.closeGroup(all, ruleStart)
				ruleStart = len(all)
				k := int32(len(r.agents))
				r.groups = append(r.groups, group{agents: span{k, k}})
				open = true
			}
			gi := int32(len(r.groups) - 1)
			r.agents = append(r.agents, agentLine{int32(n), span{int32(at + vs), int32(at + ve)}})
			r.groups[gi].agents[1]++
			token, star := o.agentName(value)
			switch {
			case star:
				if len(r.global) == 0 || r.global[len(r.global)-1] != gi {
					r.global = append(r.global, gi)
				}
			case token != "":
				// The token is a prefix of the value.
				pairs = append(pairs, pair{span{int32(at + vs), int32(at + vs + len(token))}, gi})
			}
		case Allow, Disallow:
			ru := rule{line: int32(n), allow: kind == Allow, raw: span{int32(at + vs), int32(at + ve)}}
			ru.pat = r.compile(value, at+vs, &extra)
			if len(r.groups) == 0 {
				r.orphan = r.appendRule(r.orphan, ru, &extra)
				return
			}
			open = false
			all = r.appendRule(all, ru, &extra)
		case Other:
			r.others = append(r.others, record{line: int32(n),
				key: span{int32(at + ks), int32(at + ke)}, value: span{int32(at + vs), int32(at + ve)}})
		}
	})
	r.closeGroup(all, ruleStart)
	r.rules = all
	r.sortRules(r.orphan)
	r.extra = extra.String()

	// Gather the groups of each token (UA-3: they are merged).
	var idBuf [16]int32
	ids := idBuf[:0]
	if len(pairs) > linearNames {
		r.index = make(map[string]int32)
	}
	r.names = make([]name, 0, len(pairs))
	for _, p := range pairs {
		token := r.str(p.token)
		id := r.lookupName(token)
		if id < 0 {
			id = int32(len(r.names))
			r.names = append(r.names, name{token: p.token})
			if r.index != nil {
				r.index[lowerASCIIString(token)] = id
			}
		}
		ids = append(ids, id)
		r.names[id].groups[1]++ // a count, until the spans are laid out
	}
	next := int32(0)
	for i := range r.names {
		n := r.names[i].groups[1]
		r.names[i].groups = span{next, next}
		next += n
	}
	if int(next) <= len(spare) {
		r.nameGroups = spare[:next:next]
	} else {
		r.nameGroups = make([]int32, next)
	}
	for i, p := range pairs {
		g := &r.names[ids[i]].groups
		if g[1] > g[0] && r.nameGroups[g[1]-1] == p.group {
			continue // the same token twice in one group
		}
		r.nameGroups[g[1]] = p.group
		g[1]++
	}
}

// str returns the text of a span of the body.
func (r *Robots) str(s span) string { return r.body[s[0]:s[1]] }

// text returns a pattern's text.
func (r *Robots) text(p *pattern) string {
	if p.inExtra {
		return r.extra[p.start:p.end]
	}
	return r.body[p.start:p.end]
}

// compile compiles a rule path that stands at offset at in the body (or
// nowhere, at < 0), placing its text in the body when normalisation left
// it as written and in extra otherwise.
func (r *Robots) compile(value string, at int, extra *strings.Builder) pattern {
	p, text, changed := compilePattern(value, &r.opts)
	if at >= 0 && !changed {
		p.start, p.end = int32(at), int32(at+len(text))
		return p
	}
	p.inExtra = true
	p.start = int32(extra.Len())
	extra.WriteString(text)
	p.end = int32(extra.Len())
	return p
}

// closeGroup gives the last group its rules, all[start:], sorted.
func (r *Robots) closeGroup(all []rule, start int) {
	if len(r.groups) == 0 {
		return
	}
	r.sortRules(all[start:])
	r.groups[len(r.groups)-1].rules = span{int32(start), int32(len(all))}
}

// lookupName returns the index of token among the file's names, or -1.
func (r *Robots) lookupName(token string) int32 {
	if r.index == nil {
		for i := range r.names {
			if equalFold(r.str(r.names[i].token), token) {
				return int32(i)
			}
		}
		return -1
	}
	var buf [64]byte
	if len(token) <= len(buf) {
		for i := 0; i < len(token); i++ {
			buf[i] = lowerASCII(token[i])
		}
		if id, ok := r.index[string(buf[:len(token)])]; ok {
			return id
		}
		return -1
	}
	if id, ok := r.index[lowerASCIIString(token)]; ok {
		return id
	}
	return -1
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

// countKinds bounds the number of user-agent lines, rule lines and other
// records from the first letter of each line, so that parsing allocates
// each slice once.
func countKinds(body string) (ua, rules, other int) {
	for i := 0; i < len(body); {
		for i < len(body) && (body[i] == ' ' || body[i] == '\t') {
			i++
		}
		if i < len(body) {
			switch body[i] | 0x20 {
			case 'u':
				ua++
			case 'a', 'd':
				rules++
			case '#', '\n' | 0x20, '\r' | 0x20:
			default:
				other++
			}
		}
		// Skip to the next line end, CR or LF; every byte is looked at
		// once, whatever the line ends are.
		for i < len(body) && body[i] != '\n' && body[i] != '\r' {
			i++
		}
		i++
	}
	return ua, rules, other
}

// appendRule appends the rule, and with Options.IndexHTML also the rule
// Google derives from an allow of ".../index.htm*": the directory itself,
// anchored (G-INDEX).
func (r *Robots) appendRule(dst []rule, ru rule, extra *strings.Builder) []rule {
	dst = append(dst, ru)
	if !r.opts.IndexHTML || !ru.allow {
		return dst
	}
	raw := r.str(ru.raw)
	slash := strings.LastIndexByte(raw, '/')
	if slash < 0 || !strings.HasPrefix(raw[slash:], "/index.htm") {
		return dst
	}
	dir := ru
	dir.derived = true
	dir.pat = r.compile(raw[:slash+1]+"$", -1, extra)
	return append(dst, dir)
}

// sortRules orders rules so that the first match is the deciding one:
// longer patterns first (MATCH-4), then allow before disallow on equal
// length (MATCH-5) unless DisallowWinsTies, then file order. The order is
// total, so any sort gives the same result.
func (r *Robots) sortRules(rs []rule) {
	disallowFirst := r.opts.DisallowWinsTies
	less := func(a, b *rule) bool {
		if a.pat.length != b.pat.length {
			return a.pat.length > b.pat.length
		}
		if a.allow != b.allow {
			return a.allow != disallowFirst
		}
		return a.line < b.line
	}
	if len(rs) <= 16 {
		for i := 1; i < len(rs); i++ {
			for j := i; j > 0 && less(&rs[j], &rs[j-1]); j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
		return
	}
	maxLen := int32(0)
	for i := range rs {
		maxLen = max(maxLen, rs[i].pat.length)
	}
	if maxLen > 4096 {
		slices.SortFunc(rs, func(a, b rule) int {
			switch {
			case less(&a, &b):
				return -1
			case less(&b, &a):
				return 1
			}
			return 0
		})
		return
	}
	// Rules arrive in file order, so a stable counting sort on (length,
	// kind) gives the whole order in linear time: key 0 is the longest
	// rule of the kind that wins ties.
	key := func(ru *rule) int32 {
		k := 2 * (maxLen - ru.pat.length)
		if ru.allow == disallowFirst {
			k++
		}
		return k
	}
	start := make([]int32, 2*(maxLen+1)+1)
	for i := range rs {
		start[key(&rs[i])+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	dest := make([]int32, len(rs))
	for i := range rs {
		k := key(&rs[i])
		dest[i] = start[k]
		start[k]++
	}
	// Move each rule to its place by following the permutation's cycles.
	for i := range rs {
		for dest[i] != int32(i) {
			j := dest[i]
			rs[i], rs[j] = rs[j], rs[i]
			dest[i], dest[j] = dest[j], dest[i]
		}
	}
}

// Lines returns every line of the parsed part of the file with its number
// and classification. It reads the body again on each call; parsing itself
// keeps only what decisions need.
func (r *Robots) Lines() []Line {
	var lines []Line
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

// Groups returns the file's groups in file order. Each call builds the
// result anew from the parsed file; the caller may keep and change it.
func (r *Robots) Groups() []Group {
	out := make([]Group, len(r.groups))
	for i, g := range r.groups {
		agents := r.agents[g.agents[0]:g.agents[1]]
		out[i].Agents = make([]Agent, len(agents))
		for j, a := range agents {
			value := r.str(a.value)
			token, star := r.opts.agentName(value)
			if !isToken(token) {
				token = ""
			}
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

// ruleRefs returns the rules as the file has them: in line order, without
// the rules Options.IndexHTML derives.
func (r *Robots) ruleRefs(rs []rule) []RuleRef {
	out := make([]RuleRef, 0, len(rs))
	for i := range rs {
		if !rs[i].derived {
			out = append(out, r.ruleRef(&rs[i]))
		}
	}
	slices.SortFunc(out, func(a, b RuleRef) int { return a.Line - b.Line })
	return out
}

// ruleRef describes a rule for traces and for Groups.
func (r *Robots) ruleRef(ru *rule) RuleRef {
	return RuleRef{Line: int(ru.line), Allow: ru.allow, Pattern: r.str(ru.raw),
		Length: int(ru.pat.length), Normalized: r.text(&ru.pat), Anchored: ru.pat.anchored}
}
