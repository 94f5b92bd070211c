package diff

import (
	"fmt"
	"strings"

	"github.com/reptest/reptest/reference"
)

// DefaultMaxProbes is the number of probes DeriveProbes keeps per file
// when the caller gives no cap.
const DefaultMaxProbes = 400

// ProbeHost is the scheme and authority of derived probe URLs.
const ProbeHost = "http://example.com"

// unnamedAgents are the tokens tried, in order, for the one agent a file
// does not name.
var unnamedAgents = [...]string{"ReptestBot", "UnlistedCrawler", "ZzzProbeBot"}

// derivedRule is an allow or disallow line and the group it belongs to.
type derivedRule struct {
	line    int
	pattern string
	allow   bool
	group   int // index into groups; -1 before the first user-agent line
}

type derivedGroup struct {
	agents []string // product tokens the group's user-agent lines give
	star   bool
}

// DeriveProbes returns probes for a robots.txt body that comes without
// checks, from the file's own content: every agent the file names (each
// user-agent value that is a product token, and the leading token of one
// that is not, as Google reads it) plus one it does not name; and for each
// rule, paths at its literal prefix ("prefix"), just past it ("past"),
// with each "*" expanded to nothing and to text ("star"), at and past a
// final "$" ("dollar"), with a literal "*" ("star-literal"), case-flipped
// ("case"), percent-encoded with upper- and lower-case hex ("pct-enc",
// "pct-enc-lower"), with its escapes decoded or their hex case flipped
// ("pct-dec", "pct-case"), with and without a query ("query",
// "no-query"), and below a further segment "/x" ("nested"). Every agent is also asked about "/" ("root") and
// "/robots.txt" ("robots"), and a named agent about its group's first rule
// in flipped case ("agent-case"). An agent whose groups are those of an
// agent named before it gets only "root", "robots" and the "prefix" of its
// first two rules: the rest would repeat the other agent's questions. Named agents are asked about the rules of
// their own groups, the unnamed agent about the "*" group's rules and the
// rules before any group; then each agent about the first probe of the
// groups it does not own ("cross").
//
// URLs are ProbeHost followed by the path; paths holding control
// characters or "#" are left out. When there are more than max probes
// (DefaultMaxProbes when max ≤ 0), the kinds are kept in the order of
// importance above and the last kind that does not fit whole is sampled at
// even intervals, so the result is deterministic. Lines are read under the
// RFC options, and under Google's where those find a record the RFC does
// not (misspelt names, a missing colon).
func DeriveProbes(body []byte, max int) []Probe {
	if max <= 0 {
		max = DefaultMaxProbes
	}
	groups, rules := readGroups(body)

	// The agents, in file order, without case-insensitive duplicates.
	var agents []string
	owned := make(map[string][]int) // lower-case agent → rule indices
	seen := make(map[string]bool)
	byGroup := make([][]int, len(groups))
	for ri, r := range rules {
		if r.group >= 0 {
			byGroup[r.group] = append(byGroup[r.group], ri)
		}
	}
	for gi, g := range groups {
		for _, a := range g.agents {
			la := strings.ToLower(a)
			if !seen[la] {
				seen[la] = true
				agents = append(agents, a)
			}
			if len(byGroup[gi]) > 0 && !containsInt(owned[la], byGroup[gi][0]) {
				owned[la] = append(owned[la], byGroup[gi]...)
			}
		}
	}
	unnamed := unnamedAgents[0]
	for _, a := range unnamedAgents {
		if !seen[strings.ToLower(a)] {
			unnamed = a
			break
		}
	}
	var starRules []int
	for ri, r := range rules {
		if r.group < 0 || groups[r.group].star {
			starRules = append(starRules, ri)
		}
	}

	var tiers [4][]Probe
	add := func(t int, agent, path string, line int, kind string) {
		if strings.ContainsAny(path, "#\x7F") || strings.IndexFunc(path, func(r rune) bool { return r < 0x20 }) >= 0 {
			return
		}
		tiers[t] = append(tiers[t], Probe{Agent: agent, URL: ProbeHost + path, Line: line, Kind: kind})
	}
	own := func(agent string, ris []int, full bool) {
		add(0, agent, "/", 0, "root")
		for k, ri := range ris {
			r := rules[ri]
			for _, v := range pathVariants(r.pattern) {
				if full || k < 2 && v.tier == 0 {
					add(v.tier, agent, v.path, r.line, v.kind)
				}
			}
		}
		add(2, agent, "/robots.txt", 0, "robots")
	}
	// An agent whose rules are those of an agent before it gets only a
	// few probes of its own: the parsers treat the rules the same way.
	sets := make(map[string]bool)
	for _, a := range agents {
		ris := owned[strings.ToLower(a)]
		set := fmt.Sprint(ris)
		full := !sets[set]
		own(a, ris, full)
		sets[set] = true
		if full && len(ris) > 0 {
			if f := flipCase(a); f != a {
				r := rules[ris[0]]
				add(2, f, literalPath(r.pattern), r.line, "agent-case")
			}
		}
	}
	own(unnamed, starRules, !sets[fmt.Sprint(starRules)])
	// Ties: paths that match an allow and a disallow rule of the same
	// group and the same length.
	for _, p := range tieProbes(groups, rules) {
		for _, a := range agentsOf(groups[rules[p.rule].group], agents, unnamed) {
			add(1, a, p.path, rules[p.rule].line, "tie")
		}
	}
	// Cross probes: each agent against the first rule of a few groups that
	// are not its own, so that a parser choosing another group shows. The
	// "*" groups come first, then groups at even intervals.
	all := append(append([]string(nil), agents...), unnamed)
	first := make([]int, len(groups)) // first rule with a path, per group
	for gi := range first {
		first[gi] = -1
	}
	for ri := len(rules) - 1; ri >= 0; ri-- {
		if g := rules[ri].group; g >= 0 && rules[ri].pattern != "" {
			first[g] = ri
		}
	}
	var stars []int
	for gi, g := range groups {
		if g.star {
			stars = append(stars, gi)
		}
	}
	for ai, a := range all {
		picks := stars[:len(stars):len(stars)]
		for k := 0; k < 3 && len(groups) > 0; k++ {
			picks = append(picks, (ai+1+k*len(groups)/3)%len(groups))
		}
		done := make(map[int]bool)
		for _, gi := range picks {
			if done[gi] || first[gi] < 0 || groupNames(groups[gi], a) {
				continue
			}
			done[gi] = true
			r := rules[first[gi]]
			add(3, a, literalPath(r.pattern), r.line, "cross")
		}
	}

	// Keep tiers in order, without duplicates, sampling the last one that
	// does not fit.
	var out []Probe
	dup := make(map[string]bool)
	for _, tier := range tiers {
		var fresh []Probe
		for _, p := range tier {
			k := p.Agent + "\x00" + p.URL
			if !dup[k] {
				dup[k] = true
				fresh = append(fresh, p)
			}
		}
		room := max - len(out)
		if room <= 0 {
			break
		}
		if len(fresh) <= room {
			out = append(out, fresh...)
			continue
		}
		for i := 0; i < room; i++ {
			out = append(out, fresh[i*len(fresh)/room])
		}
	}
	return out
}

// readGroups reads the groups and rules of body.
func readGroups(body []byte) ([]derivedGroup, []derivedRule) {
	rfcLines := reference.Parse(body, reference.RFC()).Lines()
	google := make(map[int]reference.Line)
	for _, l := range reference.Parse(body, reference.Google()).Lines() {
		google[l.Number] = l
	}
	var groups []derivedGroup
	var rules []derivedRule
	cur := -1
	open := false
	for _, l := range rfcLines {
		if !isRecord(l.Kind) {
			if g, ok := google[l.Number]; ok && isRecord(g.Kind) {
				l = g
			}
		}
		switch l.Kind {
		case reference.UserAgent:
			if cur < 0 || !open {
				groups = append(groups, derivedGroup{})
				cur = len(groups) - 1
				open = true
			}
			g := &groups[cur]
			v := l.Value
			if v == "*" || strings.HasPrefix(v, "* ") || strings.HasPrefix(v, "*\t") {
				g.star = true
				continue
			}
			if reference.IsProductToken(v) {
				g.agents = append(g.agents, v)
			}
			if lt := agentName(v, reference.Google()); lt != "" && lt != v {
				g.agents = append(g.agents, lt)
			}
		case reference.Allow, reference.Disallow:
			open = false
			rules = append(rules, derivedRule{line: l.Number, pattern: l.Value, allow: l.Kind == reference.Allow, group: cur})
		}
	}
	return groups, rules
}

func isRecord(k reference.LineKind) bool {
	return k == reference.UserAgent || k == reference.Allow || k == reference.Disallow
}

func groupNames(g derivedGroup, agent string) bool {
	for _, a := range g.agents {
		if strings.EqualFold(a, agent) {
			return true
		}
	}
	return false
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// variant is one path derived from a rule.
type variant struct {
	tier int
	kind string
	path string
}

// pathVariants returns the paths derived from one rule's pattern.
func pathVariants(pattern string) []variant {
	if pattern == "" {
		return nil
	}
	base, anchored := strings.CutSuffix(pattern, "$")
	lit := literalPath(pattern)
	vs := []variant{
		{0, "prefix", lit},
		{1, "past", lit + "x"},
	}
	if strings.Contains(base, "*") {
		vs = append(vs,
			variant{1, "star", rooted(strings.ReplaceAll(base, "*", ""))},
			variant{1, "star", rooted(strings.ReplaceAll(base, "*", "ab/c"))},
			variant{2, "star-literal", rooted(base)},
		)
	}
	if anchored {
		exact := rooted(strings.ReplaceAll(base, "*", ""))
		vs = append(vs,
			variant{1, "dollar", exact},
			variant{1, "dollar", exact + "x"},
			variant{1, "dollar", exact + "?q=1"},
		)
	}
	// The pattern's match one segment deeper, which only a parser that
	// does not anchor patterns at the start of the path would match.
	if strings.ContainsAny(pattern, "*$") {
		vs = append(vs, variant{1, "nested", "/x" + rooted(strings.ReplaceAll(base, "*", ""))})
	} else {
		vs = append(vs, variant{2, "nested", "/x" + lit})
	}
	if f := flipCase(lit); f != lit {
		vs = append(vs, variant{2, "case", f})
	}
	if e := encodeOne(lit, false); e != lit {
		vs = append(vs, variant{2, "pct-enc", e})
	}
	if e := encodeOne(lit, true); e != lit {
		vs = append(vs, variant{2, "pct-enc-lower", e})
	}
	if d := decodeAll(lit); d != lit {
		vs = append(vs, variant{2, "pct-dec", d})
	}
	if c := flipHexCase(lit); c != lit {
		vs = append(vs, variant{2, "pct-case", c})
	}
	if q, _, ok := strings.Cut(lit, "?"); ok {
		vs = append(vs, variant{2, "no-query", q})
	} else {
		vs = append(vs, variant{2, "query", lit + "?q=1"})
	}
	return vs
}

// literalPath is the pattern's literal prefix (before the first "*" or a
// final "$") as a path starting with "/".
func literalPath(pattern string) string {
	base, _ := strings.CutSuffix(pattern, "$")
	if i := strings.IndexByte(base, '*'); i >= 0 {
		base = base[:i]
	}
	return rooted(base)
}

func rooted(p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return "/" + p
}

// flipCase swaps the case of ASCII letters.
func flipCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case 'A' <= c && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
}

// encodeOne percent-encodes every non-ASCII octet of p and its first
// letter or digit outside an escape, in lower- or upper-case hex.
func encodeOne(p string, lower bool) string {
	hex := "0123456789ABCDEF"
	if lower {
		hex = "0123456789abcdef"
	}
	var b strings.Builder
	done := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '%' && i+2 < len(p) && isHexByte(p[i+1]) && isHexByte(p[i+2]) {
			b.WriteString(p[i : i+3]) // an escape stays as it is
			i += 2
			continue
		}
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if c >= 0x80 || alnum && !done {
			if alnum {
				done = true
			}
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// decodeAll decodes every %XX escape of p.
func decodeAll(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) && isHexByte(p[i+1]) && isHexByte(p[i+2]) {
			b.WriteByte(hexVal(p[i+1])<<4 | hexVal(p[i+2]))
			i += 2
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// flipHexCase swaps the case of the hex letters of every %XX escape.
func flipHexCase(p string) string {
	b := []byte(p)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' && isHexByte(b[i+1]) && isHexByte(b[i+2]) {
			for _, j := range []int{i + 1, i + 2} {
				switch c := b[j]; {
				case 'a' <= c && c <= 'f':
					b[j] = c - 'a' + 'A'
				case 'A' <= c && c <= 'F':
					b[j] = c - 'A' + 'a'
				}
			}
			i += 2
		}
	}
	return string(b)
}

// tieProbe is a path that an allow and a disallow rule both match.
type tieProbe struct {
	rule int // the disallow rule
	path string
}

// maxTiePairs bounds the rule pairs tieProbes looks at per file.
const maxTiePairs = 400

// tieProbes returns paths that an allow rule and a disallow rule of the
// same group, of the same length as written, both match under the
// reference (the two rules alone in a file): the literal of one followed
// by what comes after the last "*" of the other, and each expanded alone.
func tieProbes(groups []derivedGroup, rules []derivedRule) []tieProbe {
	type key struct{ group, length int }
	allows := make(map[key][]int)
	for ri, r := range rules {
		if r.allow && r.group >= 0 && r.pattern != "" {
			k := key{r.group, len(r.pattern)}
			allows[k] = append(allows[k], ri)
		}
	}
	var out []tieProbe
	pairs := 0
	opts := reference.RFC()
	for di, d := range rules {
		if d.allow || d.group < 0 || d.pattern == "" {
			continue
		}
		for _, ai := range allows[key{d.group, len(d.pattern)}] {
			if pairs++; pairs > maxTiePairs {
				return out
			}
			a := rules[ai]
			cands := []string{
				expandStars(d.pattern), expandStars(a.pattern),
				literalPath(d.pattern) + tailOf(a.pattern), literalPath(a.pattern) + tailOf(d.pattern),
			}
			for _, c := range cands {
				if ok, _ := ruleMatches(opts, "x", false, d.pattern, ProbeHost+c); !ok {
					continue
				}
				if ok, _ := ruleMatches(opts, "x", true, a.pattern, ProbeHost+c); ok {
					out = append(out, tieProbe{rule: di, path: c})
					break
				}
			}
		}
	}
	return out
}

// expandStars is the pattern with every "*" matching nothing, as a path.
func expandStars(pattern string) string {
	base, _ := strings.CutSuffix(pattern, "$")
	return rooted(strings.ReplaceAll(base, "*", ""))
}

// tailOf is what follows the pattern's last "*", without a final "$".
func tailOf(pattern string) string {
	base, _ := strings.CutSuffix(pattern, "$")
	if i := strings.LastIndexByte(base, '*'); i >= 0 {
		return base[i+1:]
	}
	return ""
}

// agentsOf returns the agents that a group applies to: its names among
// agents, or the unnamed agent for a "*" group.
func agentsOf(g derivedGroup, agents []string, unnamed string) []string {
	var out []string
	for _, a := range agents {
		if groupNames(g, a) {
			out = append(out, a)
			break // one is enough
		}
	}
	if g.star {
		out = append(out, unnamed)
	}
	return out
}
