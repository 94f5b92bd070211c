package diff

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// Tags returns the requirement IDs (corpus/requirements.yaml) that an input points
// to, from the reference's reading of it under the input's profile and
// from the verdicts (which may be nil). The mapping is small and coarse;
// it names what a reviewer should look at, not a proof of which rule a
// parser broke. Each row of tagRules adds its IDs when its predicate
// holds (TestTagsDocTable keeps this table equal to tagRules):
//
//	a parser answered reject                       SYN-9
//	the agent is not a product token               UA-1
//	reference: /robots.txt is always allowed       MATCH-7
//	reference: no group applies                    UA-5
//	reference: the "*" group applies               UA-4
//	reference: a named group applies, "*" exists   UA-6
//	the agent is named in two or more groups       UA-3
//	a user-agent value names the agent in another case  UA-2
//	a user-agent value is not a token or "*"       UA-7, G-UA
//	a rule pattern holds "*"                       SPC-1
//	a rule pattern ends in "$"                     SPC-2
//	a rule pattern has "$" before its end          SPC-3
//	"%2A"/"%24" in a rule, "*"/"$" in the URL      SPC-4
//	non-ASCII or unsafe octets, or a "%" that starts no escape (rule or URL)  PCT-1
//	an escape of an unreserved or reserved octet   PCT-2
//	lower-case hex in a rule's escape, or in a URL's escape of a reserved octet  PCT-3
//	a pattern not starting with "/" or "*"         PAT-1
//	an empty pattern                               PAT-2
//	two matching rules, allow and disallow, equal length  MATCH-5
//	two matching rules, allow and disallow, unequal  MATCH-4
//	a rule matches only when case is ignored       MATCH-2
//	a rule matches the path only past its first octet  MATCH-3
//	a rule's match depends on the URL's query      MATCH-11
//	an allow of ".../index.htm..."                 G-INDEX
//	record name in unusual case                    SYN-1
//	white space before a name or the colon         SYN-2
//	a CR line end                                  SYN-3
//	a "#" comment                                  SYN-4
//	a blank line inside a group                    SYN-5
//	more than one group                            SYN-6
//	a last group without rules                     SYN-7
//	a rule before the first user-agent line        SYN-8
//	a line the reference cannot parse              SYN-9
//	a (partial) byte order mark                    SYN-10
//	other records (sitemap, crawl-delay, ...)      OTH-3
//	a misspelt record name or missing colon        OTH-2, G-TYPO
//	a body past 500 KiB                            LIM-1
//
// When the agent is not a product token, only the first two rows apply.
// When none applies: MATCH-6 if no rule matched, MATCH-9 if a plain rule
// decided, MATCH-1 otherwise. The result is sorted and never empty.
func Tags(in result.Input, verdicts map[string]result.Verdict) []string {
	return tagsOf(in, verdicts, newReading(in.Robots))
}

// tagsOf is Tags reading the input's body through rd, which may be the
// reading of another body (then it is not used).
func tagsOf(in result.Input, verdicts map[string]result.Verdict, rd *reading) []string {
	t := newTagInput(in, verdicts, rd.of(in.Robots))
	set := make(map[string]bool)
	for i, r := range tagRules {
		if t.err != nil && i >= anyAgentRules {
			break
		}
		if r.holds(t) {
			for _, id := range r.ids {
				set[id] = true
			}
		}
	}
	if t.err != nil {
		return sortedKeys(set)
	}
	d := t.decision
	if d.Reason == reference.RuleMatched && len(set) == 0 {
		if strings.ContainsAny(d.Rule.Pattern, "*$%") {
			set["MATCH-1"] = true
		} else {
			set["MATCH-9"] = true
		}
	}
	if len(set) == 0 {
		if d.Reason == reference.NoMatchingRule {
			set["MATCH-6"] = true
		} else {
			set["MATCH-1"] = true
		}
	}
	return sortedKeys(set)
}

// parseFor parses the input's body under its profile's options.
func parseFor(in result.Input) *reference.Robots {
	opts, _ := reference.OptionsFor(in.Profile)
	return reference.Parse(in.Robots, opts)
}

// reading is one body as the reference reads it, under each option set
// asked for, parsed when first needed: the probes, the tally, the tags
// and the traces of one file share it rather than parse the body each.
// A reading is used from one goroutine at a time.
type reading struct {
	robots []byte
	text   string   // robots as a string, made once
	raw    []string // splitLines(text), made when first needed
	parsed []parsedAs
}

// parsedAs is a body parsed under one option set, and its lines.
type parsedAs struct {
	name   string // reference.Options.Name
	robots *reference.Robots
	lines  []reference.Line // nil until asked
}

func newReading(robots []byte) *reading { return &reading{robots: robots, text: string(robots)} }

// of returns rd when it reads body, else a reading of body.
func (rd *reading) of(body []byte) *reading {
	if rd != nil && bytes.Equal(rd.robots, body) {
		return rd
	}
	return newReading(body)
}

// as returns the body parsed under opts, the options of a profile (or
// Google's): parsed once per option set.
func (rd *reading) as(opts reference.Options) *parsedAs {
	for k := range rd.parsed {
		if rd.parsed[k].name == opts.Name {
			return &rd.parsed[k]
		}
	}
	rd.parsed = append(rd.parsed, parsedAs{name: opts.Name, robots: reference.ParseString(rd.text, opts)})
	return &rd.parsed[len(rd.parsed)-1]
}

// parse returns the body parsed under opts.
func (rd *reading) parse(opts reference.Options) *reference.Robots { return rd.as(opts).robots }

// lines returns the lines of the body parsed under opts.
func (rd *reading) lines(opts reference.Options) []reference.Line {
	p := rd.as(opts)
	if p.lines == nil {
		p.lines = p.robots.Lines()
	}
	return p.lines
}

// rawLines returns the body's lines as written, line ends included.
func (rd *reading) rawLines() []string {
	if rd.raw == nil {
		rd.raw = splitLines(rd.text)
	}
	return rd.raw
}

// tagRule is one row of Tags's table: the requirement IDs an input points
// to when the predicate holds.
type tagRule struct {
	what  string
	ids   []string
	holds func(*tagInput) bool
}

// anyAgentRules is how many of tagRules, the first ones, apply when the
// agent is not a product token (the reference then decides nothing).
const anyAgentRules = 2

// tagRules drives Tags and writes its doc table (tagDocTable).
var tagRules = []tagRule{
	{"a parser answered reject", []string{"SYN-9"}, func(t *tagInput) bool {
		for _, v := range t.verdicts {
			if v == result.Reject {
				return true
			}
		}
		return false
	}},
	{"the agent is not a product token", []string{"UA-1"}, func(t *tagInput) bool { return t.err != nil }},
	{"reference: /robots.txt is always allowed", []string{"MATCH-7"}, func(t *tagInput) bool { return t.decision.Reason == reference.RobotsTxt }},
	{"reference: no group applies", []string{"UA-5"}, func(t *tagInput) bool { return t.decision.Reason == reference.NoGroup }},
	{`reference: the "*" group applies`, []string{"UA-4"}, func(t *tagInput) bool { return t.decision.Group == "*" }},
	{`reference: a named group applies, "*" exists`, []string{"UA-6"}, func(t *tagInput) bool {
		return t.decision.Group != "" && t.decision.Group != "*" && t.robots.HasStarGroup()
	}},
	{"the agent is named in two or more groups", []string{"UA-3"}, func(t *tagInput) bool {
		n := 0
		for _, g := range t.groups {
			if names(g, t.in.Agent) {
				n++
			}
		}
		return n > 1
	}},
	{"a user-agent value names the agent in another case", []string{"UA-2"}, func(t *tagInput) bool {
		return t.anyAgent(func(a reference.Agent) bool { return strings.EqualFold(a.Value, t.in.Agent) && a.Value != t.in.Agent })
	}},
	{`a user-agent value is not a token or "*"`, []string{"UA-7", "G-UA"}, func(t *tagInput) bool {
		return t.anyAgent(func(a reference.Agent) bool { return a.Value != "*" && !reference.IsProductToken(a.Value) })
	}},
	{`a rule pattern holds "*"`, []string{"SPC-1"}, func(t *tagInput) bool { return t.anyPattern(func(p string) bool { return strings.Contains(p, "*") }) }},
	{`a rule pattern ends in "$"`, []string{"SPC-2"}, func(t *tagInput) bool { return t.anyPattern(func(p string) bool { return strings.HasSuffix(p, "$") }) }},
	{`a rule pattern has "$" before its end`, []string{"SPC-3"}, func(t *tagInput) bool {
		return t.anyPattern(func(p string) bool { return strings.Contains(strings.TrimSuffix(p, "$"), "$") })
	}},
	{`"%2A"/"%24" in a rule, "*"/"$" in the URL`, []string{"SPC-4"}, func(t *tagInput) bool { return t.encoding["SPC-4"] }},
	{`non-ASCII or unsafe octets, or a "%" that starts no escape (rule or URL)`, []string{"PCT-1"}, func(t *tagInput) bool { return t.encoding["PCT-1"] }},
	{"an escape of an unreserved or reserved octet", []string{"PCT-2"}, func(t *tagInput) bool { return t.encoding["PCT-2"] }},
	{"lower-case hex in a rule's escape, or in a URL's escape of a reserved octet", []string{"PCT-3"}, func(t *tagInput) bool { return t.encoding["PCT-3"] }},
	{`a pattern not starting with "/" or "*"`, []string{"PAT-1"}, func(t *tagInput) bool {
		return t.anyPattern(func(p string) bool { return p != "" && p[0] != '/' && p[0] != '*' })
	}},
	{"an empty pattern", []string{"PAT-2"}, func(t *tagInput) bool { return t.anyPattern(func(p string) bool { return p == "" }) }},
	{"two matching rules, allow and disallow, equal length", []string{"MATCH-5"}, func(t *tagInput) bool { return t.conflict(true) }},
	{"two matching rules, allow and disallow, unequal", []string{"MATCH-4"}, func(t *tagInput) bool { return t.conflict(false) }},
	{"a rule matches only when case is ignored", []string{"MATCH-2"}, func(t *tagInput) bool {
		lower := reference.NewRuleMatcher(t.opts, ProbeHost+strings.ToLower(t.pq))
		return t.anyMiss(func(r tagRuleRef) bool {
			_, ok := lower.Match(r.Allow, strings.ToLower(r.Pattern))
			return ok
		})
	}},
	{"a rule matches the path only past its first octet", []string{"MATCH-3"}, func(t *tagInput) bool {
		return t.anyMiss(func(r tagRuleRef) bool {
			lit, _, _ := strings.Cut(r.Pattern, "*")
			lit, _, _ = strings.Cut(lit, "$")
			return len(lit) > 1 && strings.Contains(t.pq[1:], lit)
		})
	}},
	{"a rule's match depends on the URL's query", []string{"MATCH-11"}, func(t *tagInput) bool {
		path, _, hasQuery := strings.Cut(t.pq, "?")
		if !hasQuery {
			return false
		}
		m := reference.NewRuleMatcher(t.opts, ProbeHost+path)
		return slices.ContainsFunc(t.rules, func(r tagRuleRef) bool {
			_, ok := m.Match(r.Allow, r.Pattern)
			return ok != r.matches
		})
	}},
	{`an allow of ".../index.htm..."`, []string{"G-INDEX"}, func(t *tagInput) bool {
		return slices.ContainsFunc(t.rules, func(r tagRuleRef) bool { return r.Allow && strings.Contains(r.Pattern, "/index.htm") })
	}},
	{"record name in unusual case", []string{"SYN-1"}, func(t *tagInput) bool {
		return t.anyRecord(func(l reference.Line, _ string) bool { return !slices.Contains(usualNames, l.Key) })
	}},
	{"white space before a name or the colon", []string{"SYN-2"}, func(t *tagInput) bool {
		return t.anyRecord(func(_ reference.Line, text string) bool {
			c := strings.IndexByte(text, ':')
			return strings.HasPrefix(text, " ") || strings.HasPrefix(text, "\t") || c > 0 && (text[c-1] == ' ' || text[c-1] == '\t')
		})
	}},
	{"a CR line end", []string{"SYN-3"}, func(t *tagInput) bool { return strings.IndexByte(t.body, '\r') >= 0 }},
	{`a "#" comment`, []string{"SYN-4"}, func(t *tagInput) bool { return strings.IndexByte(t.body, '#') >= 0 }},
	{"a blank line inside a group", []string{"SYN-5"}, (*tagInput).blankInGroup},
	{"more than one group", []string{"SYN-6"}, func(t *tagInput) bool { return len(t.groups) > 1 }},
	{"a last group without rules", []string{"SYN-7"}, func(t *tagInput) bool { return len(t.groups) > 0 && len(t.groups[len(t.groups)-1].Rules) == 0 }},
	{"a rule before the first user-agent line", []string{"SYN-8"}, func(t *tagInput) bool { return len(t.robots.OrphanRules()) > 0 }},
	{"a line the reference cannot parse", []string{"SYN-9"}, func(t *tagInput) bool { return t.anyLine(reference.Invalid) }},
	{"a (partial) byte order mark", []string{"SYN-10"}, func(t *tagInput) bool { return strings.HasPrefix(t.body, "\xEF") }},
	{"other records (sitemap, crawl-delay, ...)", []string{"OTH-3"}, func(t *tagInput) bool { return t.anyLine(reference.Other) }},
	{"a misspelt record name or missing colon", []string{"OTH-2", "G-TYPO"}, (*tagInput).otherReading},
	{"a body past 500 KiB", []string{"LIM-1"}, func(t *tagInput) bool { return len(t.body) > reference.ParseLimit }},
}

// usualNames are the spellings of the record names that SYN-1 does not
// count as unusual.
var usualNames = []string{"User-agent", "user-agent", "Allow", "allow", "Disallow", "disallow"}

// tagDocTable writes tagRules as the table of Tags's doc comment.
func tagDocTable() string {
	var b strings.Builder
	for _, r := range tagRules {
		ids := strings.Join(r.ids, ", ")
		if len(r.what) < 46 {
			fmt.Fprintf(&b, "//\t%-46s %s\n", r.what, ids)
		} else {
			fmt.Fprintf(&b, "//\t%s  %s\n", r.what, ids)
		}
	}
	return b.String()
}

// tagInput is what the predicates of tagRules read: the input, the
// verdicts and the reference's reading of the input under its profile.
type tagInput struct {
	in       result.Input
	verdicts map[string]result.Verdict
	opts     reference.Options
	rd       *reading
	robots   *reference.Robots
	decision reference.Decision
	err      error // from Decide: the agent is not a product token
	body     string
	pq       string // the URL's path and query
	lines    []reference.Line
	groups   []reference.Group
	// rules are the orphan rules (group -1) and the groups' rules, in
	// file order, each with whether it alone matches the URL.
	rules    []tagRuleRef
	encoding map[string]bool // tagEncoding over the rules and the URL
}

// tagRuleRef is a rule, its group and whether it matches the URL.
type tagRuleRef struct {
	reference.RuleRef
	group   int
	matches bool
	length  int
}

// newTagInput reads in, whose body rd reads.
func newTagInput(in result.Input, verdicts map[string]result.Verdict, rd *reading) *tagInput {
	opts, _ := reference.OptionsFor(in.Profile)
	t := &tagInput{in: in, verdicts: verdicts, opts: opts, rd: rd, robots: rd.parse(opts)}
	t.decision, t.err = t.robots.Decide(in.Agent, in.URL)
	if t.err != nil {
		return t
	}
	t.body = rd.text
	t.pq = reference.PathQuery(in.URL)
	t.lines = rd.lines(opts)
	t.groups = t.robots.Groups()
	t.encoding = make(map[string]bool)
	tagEncoding(t.encoding, t.pq, true)
	orphans := t.robots.OrphanRules()
	n := len(orphans)
	for _, g := range t.groups {
		n += len(g.Rules)
	}
	t.rules = make([]tagRuleRef, 0, n)
	m := reference.NewRuleMatcher(opts, in.URL)
	add := func(r reference.RuleRef, group int) {
		n, ok := m.Match(r.Allow, r.Pattern)
		t.rules = append(t.rules, tagRuleRef{RuleRef: r, group: group, matches: ok, length: n})
		tagEncoding(t.encoding, r.Pattern, false)
	}
	for _, r := range orphans {
		add(r, -1)
	}
	for gi, g := range t.groups {
		for _, r := range g.Rules {
			add(r, gi)
		}
	}
	return t
}

func (t *tagInput) anyAgent(f func(reference.Agent) bool) bool {
	return slices.ContainsFunc(t.groups, func(g reference.Group) bool { return slices.ContainsFunc(g.Agents, f) })
}

func (t *tagInput) anyPattern(f func(string) bool) bool {
	return slices.ContainsFunc(t.rules, func(r tagRuleRef) bool { return f(r.Pattern) })
}

// anyMiss reports whether f holds for a rule that does not match the URL.
func (t *tagInput) anyMiss(f func(tagRuleRef) bool) bool {
	return slices.ContainsFunc(t.rules, func(r tagRuleRef) bool { return !r.matches && f(r) })
}

func (t *tagInput) anyLine(kind reference.LineKind) bool {
	return slices.ContainsFunc(t.lines, func(l reference.Line) bool { return l.Kind == kind })
}

// anyRecord reports whether f holds for a user-agent, allow or disallow
// line, given with its text as written.
func (t *tagInput) anyRecord(f func(l reference.Line, text string) bool) bool {
	raw := t.rd.rawLines()
	return slices.ContainsFunc(t.lines, func(l reference.Line) bool {
		if !isRecord(l.Kind) || l.Number > len(raw) {
			return false
		}
		text, _ := cutEOL(raw[l.Number-1])
		return f(l, text)
	})
}

func isRecord(k reference.LineKind) bool {
	return k == reference.UserAgent || k == reference.Allow || k == reference.Disallow
}

// conflict reports whether an allow and a disallow rule that both match
// the URL, of equal length (or of unequal length), are compared: they
// are in one group, or in groups that name a token in common or are both
// "*" groups (merged, UA-3).
func (t *tagInput) conflict(equal bool) bool {
	var matched []tagRuleRef // few: the rules that match the URL
	for _, r := range t.rules {
		if r.matches {
			matched = append(matched, r)
		}
	}
	for i, a := range matched {
		for _, b := range matched[i+1:] {
			if a.Allow != b.Allow && t.together(a.group, b.group) && (a.length == b.length) == equal {
				return true
			}
		}
	}
	return false
}

func (t *tagInput) together(a, b int) bool {
	if a == b {
		return true
	}
	if a < 0 || b < 0 {
		return false
	}
	ga, gb := t.groups[a], t.groups[b]
	return isStar(ga) && isStar(gb) || slices.ContainsFunc(ga.Agents, func(x reference.Agent) bool { return x.Token != "" && names(gb, x.Token) })
}

// blankInGroup reports whether a blank or comment line stands between
// two records of a group: not between a rule and the user-agent line
// that starts the next group.
func (t *tagInput) blankInGroup() bool {
	pendingBlank := false
	prev := reference.Blank
	for _, l := range t.lines {
		switch {
		case l.Kind == reference.Blank || l.Kind == reference.Comment:
			pendingBlank = true
		case isRecord(l.Kind):
			if pendingBlank && prev != reference.Blank && !(prev != reference.UserAgent && l.Kind == reference.UserAgent) {
				return true
			}
			pendingBlank = false
			prev = l.Kind
		}
	}
	return false
}

// otherReading reports whether a line is a user-agent, allow or disallow
// line under one of the RFC's and Google's options and not the same
// under the other.
func (t *tagInput) otherReading() bool {
	other := reference.Google()
	if t.opts.GoogleKeys {
		other = reference.RFC()
	}
	// The other reading's kind of each line by number; its lines are
	// numbered in order, from 1.
	theirs := t.rd.lines(other)
	return slices.ContainsFunc(t.lines, func(l reference.Line) bool {
		at := l.Number - 1
		if at < 0 || at >= len(theirs) || theirs[at].Number != l.Number {
			at = sort.Search(len(theirs), func(i int) bool { return theirs[i].Number >= l.Number })
		}
		if at == len(theirs) || theirs[at].Number != l.Number {
			return false
		}
		k := theirs[at].Kind
		return k != l.Kind && (isRecord(k) || isRecord(l.Kind))
	})
}

// tagEncoding tags the percent-encoding features of a rule path or a URI's
// path and query. Lower-case hex digits count for PCT-3 only where they
// matter to a parser that compares escapes as written: in a rule, or in a
// URI escape of a reserved octet (an unreserved one is decoded, PCT-2).
func tagEncoding(set map[string]bool, s string, uri bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80 || c <= 0x20 || c == 0x7F || strings.IndexByte("\"<>\\^`{|}", c) >= 0:
			set["PCT-1"] = true
		case uri && (c == '*' || c == '$'):
			set["SPC-4"] = true
		case c == '%' && i+2 < len(s) && isHexByte(s[i+1]) && isHexByte(s[i+2]):
			v := hexVal(s[i+1])<<4 | hexVal(s[i+2])
			switch {
			case !uri && (v == '*' || v == '$'):
				set["SPC-4"] = true
			default:
				set["PCT-2"] = true
			}
			unreserved := 'a' <= v && v <= 'z' || 'A' <= v && v <= 'Z' || '0' <= v && v <= '9' || v == '-' || v == '.' || v == '_' || v == '~'
			if (isLowerHex(s[i+1]) || isLowerHex(s[i+2])) && (!uri || !unreserved) {
				set["PCT-3"] = true
			}
			i += 2
		case c == '%':
			set["PCT-1"] = true // a "%" that starts no escape stands for "%25"
		}
	}
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func sortedKeys(set map[string]bool) []string {
	s := make([]string, 0, len(set))
	for k := range set {
		s = append(s, k)
	}
	slices.Sort(s)
	return s
}
