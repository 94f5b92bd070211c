package diff

import (
	"slices"
	"strconv"
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

// probeKinds are the kinds of derived probe and the requirement
// (corpus/requirements.yaml) each exercises, which is the probe's Req and
// so the area it is counted in.
var probeKinds = map[string]string{
	"root":          "UA-4",    // which group applies to the agent at all
	"robots":        "MATCH-7", // /robots.txt is always allowed
	"prefix":        "MATCH-1", // a rule decides the path it writes
	"past":          "MATCH-9", // and the paths that go on past it
	"star":          "SPC-1",
	"star-literal":  "SPC-4", // a literal "*" in the URI
	"dollar":        "SPC-2",
	"nested":        "MATCH-3", // matching starts at the path's first octet
	"case":          "MATCH-2",
	"pct-enc":       "PCT-2",
	"pct-enc-lower": "PCT-3",
	"pct-dec":       "PCT-2",
	"pct-case":      "PCT-3",
	"query":         "MATCH-11",
	"no-query":      "MATCH-11",
	"agent-case":    "UA-2",
	"tie":           "MATCH-5",
	"cross":         "UA-6", // a named group replaces the others
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
// "no-query"), and below a further segment "/x" ("nested"). Every agent
// is also asked about "/" ("root") and "/robots.txt" ("robots"), and a
// named agent about its group's first rule in flipped case
// ("agent-case"). An agent whose groups are those of an agent named before
// it gets only "root", "robots" and the "prefix" of its first two rules:
// the rest would repeat the other agent's questions. Named agents are
// asked about the rules of their own groups, the unnamed agent about the
// "*" group's rules and the rules before any group; then each agent about
// the first probe of the groups it does not own ("cross"). Each probe's
// Req is the requirement its kind exercises.
//
// URLs are ProbeHost followed by the path; paths holding control
// characters or "#" are left out. When there are more than max probes
// (DefaultMaxProbes when max ≤ 0), the kinds are kept in the order of
// importance above and the last kind that does not fit whole is sampled at
// even intervals, so the result is deterministic. The file is read as the
// reference reads it under Google's options, which find every record the
// RFC's do and more (misspelt names, a missing colon, leading tokens).
func DeriveProbes(body []byte, max int) []Probe {
	return deriveProbes(newReading(body), max)
}

// deriveProbes is DeriveProbes of the body rd reads.
func deriveProbes(rd *reading, max int) []Probe {
	if max <= 0 {
		max = DefaultMaxProbes
	}
	r := rd.parse(reference.Google())
	// A large file's most important kind of probe is often more than max
	// on its own: derived alone, it gives what deriving all would.
	if len(rd.robots) > oneTierBytes {
		if out := keepTiers(derive(r, 0), max); len(out) >= max {
			return out
		}
	}
	return keepTiers(derive(r, len(deriver{}.tiers)-1), max)
}

// oneTierBytes is the size past which DeriveProbes first derives the
// first tier alone.
const oneTierBytes = 8 << 10

// derive returns the probes of the file r of tiers up to maxTier, by
// tier.
func derive(r *reference.Robots, maxTier int) [4][]rawProbe {
	d := &deriver{groups: r.Groups(), maxTier: maxTier}
	d.readAgents()
	starRules := r.OrphanRules()
	d.sizeTiers(len(starRules))
	// An agent whose groups are those of an agent before it gets only a
	// few probes of its own: the parsers treat the rules the same way.
	sets := make(map[string]bool)
	for _, a := range d.agents {
		rules := d.rulesOf(d.owned[strings.ToLower(a)])
		set := ruleSet(rules)
		full := !sets[set]
		d.own(a, rules, full)
		sets[set] = true
		if f := flipCase(a); full && len(rules) > 0 && f != a {
			d.add(2, f, literalPath(rules[0].Pattern), rules[0].Line, "agent-case")
		}
	}
	for _, g := range d.groups {
		if isStar(g) {
			starRules = append(starRules, g.Rules...)
		}
	}
	d.own(d.unnamed, starRules, !sets[ruleSet(starRules)])
	// Ties: paths that match an allow and a disallow rule of the same
	// group and the same length.
	for _, p := range tieProbes(d.groups) {
		for _, a := range d.agentsOf(d.groups[p.group]) {
			d.add(1, a, p.path, p.line, "tie")
		}
	}
	d.cross()
	return d.tiers
}

// deriver collects the probes DeriveProbes derives from a file's groups,
// by tier of importance.
type deriver struct {
	groups   []reference.Group
	agents   []string         // the named agents, in file order
	owned    map[string][]int // lower-case agent → its groups that have rules
	unnamed  string
	tiers    [4][]rawProbe
	maxTier  int       // tiers past it are not derived
	variants []variant // pathVariants's buffer
}

// rawProbe is a derived probe before keepTiers keeps it: its path
// without ProbeHost, which only the kept ones are given.
type rawProbe struct {
	agent, path, kind string
	line              int
}

// readAgents finds the agents the file names, in file order and without
// case-insensitive duplicates, their groups, and a token it does not name.
func (d *deriver) readAgents() {
	d.owned = make(map[string][]int)
	seen := make(map[string]bool)
	for gi, g := range d.groups {
		for _, a := range g.Agents {
			if a.Token == "" {
				continue
			}
			la := strings.ToLower(a.Token)
			if !seen[la] {
				seen[la] = true
				// A string of its own: the token is cut from the parse's
				// copy of the body, which a finding or the diagnosis's
				// evidence holding the agent would keep whole.
				d.agents = append(d.agents, strings.Clone(a.Token))
			}
			if own := d.owned[la]; len(g.Rules) > 0 && (len(own) == 0 || own[len(own)-1] != gi) {
				d.owned[la] = append(own, gi)
			}
		}
	}
	d.unnamed = unnamedAgents[0]
	for _, a := range unnamedAgents {
		if !seen[strings.ToLower(a)] {
			d.unnamed = a
			break
		}
	}
}

// rulesOf returns the rules of the groups, in order.
func (d *deriver) rulesOf(groups []int) []reference.RuleRef {
	var rules []reference.RuleRef
	for _, gi := range groups {
		rules = append(rules, d.groups[gi].Rules...)
	}
	return rules
}

// ruleSet identifies a list of rules by their lines.
func ruleSet(rules []reference.RuleRef) string {
	b := make([]byte, 0, 4*len(rules))
	for _, r := range rules {
		b = strconv.AppendInt(b, int64(r.Line), 10)
		b = append(b, ' ')
	}
	return string(b)
}

// sizeTiers sizes the tiers for what a file of the groups and orphans
// rules before them usually gives (most rules owned by one agent), so
// that few grow as they are filled.
func (d *deriver) sizeTiers(orphans int) {
	rules := orphans
	for _, g := range d.groups {
		rules += len(g.Rules)
	}
	agents := len(d.agents) + 1
	d.tiers[0] = make([]rawProbe, 0, agents+rules)
	if d.maxTier > 0 {
		d.tiers[1] = make([]rawProbe, 0, 2*rules)
		d.tiers[2] = make([]rawProbe, 0, agents+5*rules)
		d.tiers[3] = make([]rawProbe, 0, 3*agents)
	}
}

// add adds a probe to a tier, unless its path holds a control character
// or "#".
func (d *deriver) add(tier int, agent, path string, line int, kind string) {
	if tier > d.maxTier {
		return
	}
	for i := 0; i < len(path); i++ {
		if c := path[i]; c < 0x20 || c == '#' || c == 0x7F {
			return
		}
	}
	d.tiers[tier] = append(d.tiers[tier], rawProbe{agent: agent, path: path, line: line, kind: kind})
}

// own adds an agent's probes of its own rules: all of them (full), or
// only the first tier's of its first two rules.
func (d *deriver) own(agent string, rules []reference.RuleRef, full bool) {
	d.add(0, agent, "/", 0, "root")
	for k, r := range rules {
		if d.maxTier == 0 {
			// The first tier's one variant, without deriving the others.
			if r.Pattern != "" && (full || k < 2) {
				d.add(0, agent, literalPath(r.Pattern), r.Line, "prefix")
			}
			continue
		}
		if !full && k >= 2 {
			continue // none of its variants would be kept
		}
		d.variants = pathVariants(d.variants[:0], r.Pattern)
		for _, v := range d.variants {
			if full || v.tier == 0 {
				d.add(v.tier, agent, v.path, r.Line, v.kind)
			}
		}
	}
	d.add(2, agent, "/robots.txt", 0, "robots")
}

// cross adds cross probes: each agent against the first rule of a few
// groups that are not its own, so that a parser choosing another group
// shows. The "*" groups come first, then groups at even intervals.
func (d *deriver) cross() {
	n := len(d.groups)
	var stars []int
	for gi, g := range d.groups {
		if isStar(g) {
			stars = append(stars, gi)
		}
	}
	for ai, a := range append(slices.Clone(d.agents), d.unnamed) {
		picks := stars[:len(stars):len(stars)]
		for k := 0; k < 3 && n > 0; k++ {
			picks = append(picks, (ai+1+k*n/3)%n)
		}
		done := make(map[int]bool)
		for _, gi := range picks {
			r, ok := firstRule(d.groups[gi])
			if done[gi] || !ok || names(d.groups[gi], a) {
				continue
			}
			done[gi] = true
			d.add(3, a, literalPath(r.Pattern), r.Line, "cross")
		}
	}
}

// keepTiers returns the tiers' probes in order, without duplicates, at
// most max: the last tier that does not fit whole is sampled at even
// intervals.
func keepTiers(tiers [4][]rawProbe, max int) []Probe {
	n := 0
	for _, tier := range tiers {
		n += len(tier)
	}
	out := make([]Probe, 0, min(n, max))
	dup := make(map[[2]string]struct{}, n)
	var fresh []int // indexes into the tier
	for _, tier := range tiers {
		room := max - len(out)
		if room <= 0 {
			break
		}
		fresh = fresh[:0]
		for i, p := range tier {
			k := [2]string{p.agent, p.path}
			if _, seen := dup[k]; !seen {
				dup[k] = struct{}{}
				fresh = append(fresh, i)
			}
		}
		if len(fresh) <= room {
			for _, i := range fresh {
				out = append(out, tier[i].probe())
			}
			continue
		}
		for i := 0; i < room; i++ {
			out = append(out, tier[fresh[i*len(fresh)/room]].probe())
		}
	}
	return out
}

// probe returns p as a probe of ProbeHost.
func (p *rawProbe) probe() Probe {
	return Probe{Agent: p.agent, URL: ProbeHost + p.path, Line: p.line, Kind: p.kind, Req: probeKinds[p.kind]}
}

// firstRule returns the group's first rule with a path.
func firstRule(g reference.Group) (reference.RuleRef, bool) {
	for _, r := range g.Rules {
		if r.Pattern != "" {
			return r, true
		}
	}
	return reference.RuleRef{}, false
}

// isStar reports whether the group is a "*" group.
func isStar(g reference.Group) bool {
	return slices.ContainsFunc(g.Agents, func(a reference.Agent) bool { return a.Star })
}

// names reports whether the group names agent.
func names(g reference.Group, agent string) bool {
	return slices.ContainsFunc(g.Agents, func(a reference.Agent) bool { return a.Token != "" && strings.EqualFold(a.Token, agent) })
}

// variant is one path derived from a rule.
type variant struct {
	tier int
	kind string
	path string
}

// pathVariants appends to vs the paths derived from one rule's pattern.
// The prefix is its one first-tier path (own derives it alone for tier 0).
func pathVariants(vs []variant, pattern string) []variant {
	if pattern == "" {
		return vs
	}
	base, anchored := strings.CutSuffix(pattern, "$")
	lit := literalPath(pattern)
	vs = append(vs,
		variant{0, "prefix", lit},
		variant{1, "past", lit + "x"},
	)
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
	if strings.IndexByte(p, '%') < 0 {
		return p
	}
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
	if strings.IndexByte(p, '%') < 0 {
		return p
	}
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

// tieProbe is a path that an allow and a disallow rule of a group both
// match: the group and the disallow rule's line.
type tieProbe struct {
	group, line int
	path        string
}

// maxTiePairs bounds the rule pairs tieProbes looks at per file.
const maxTiePairs = 400

// tieProbes returns paths that an allow rule and a disallow rule of the
// same group, of the same length as written, both match under the
// reference under the RFC options (reference.MatchRule): the literal of one followed
// by what comes after the last "*" of the other, and each expanded alone.
func tieProbes(groups []reference.Group) []tieProbe {
	var out []tieProbe
	pairs := 0
	for gi, g := range groups {
		allows := make(map[int][]reference.RuleRef) // by length as written
		for _, r := range g.Rules {
			if r.Allow && r.Pattern != "" {
				allows[len(r.Pattern)] = append(allows[len(r.Pattern)], r)
			}
		}
		for _, d := range g.Rules {
			if d.Allow || d.Pattern == "" {
				continue
			}
			for _, a := range allows[len(d.Pattern)] {
				if pairs++; pairs > maxTiePairs {
					return out
				}
				cands := []string{
					expandStars(d.Pattern), expandStars(a.Pattern),
					literalPath(d.Pattern) + tailOf(a.Pattern), literalPath(a.Pattern) + tailOf(d.Pattern),
				}
				for _, c := range cands {
					if _, ok := reference.MatchRule(reference.RFC(), false, d.Pattern, ProbeHost+c); !ok {
						continue
					}
					if _, ok := reference.MatchRule(reference.RFC(), true, a.Pattern, ProbeHost+c); ok {
						out = append(out, tieProbe{group: gi, line: d.Line, path: c})
						break
					}
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

// agentsOf returns the agents that a group applies to: the first of the
// named agents it names, and the unnamed agent for a "*" group.
func (d *deriver) agentsOf(g reference.Group) []string {
	var out []string
	if i := slices.IndexFunc(d.agents, func(a string) bool { return names(g, a) }); i >= 0 {
		out = append(out, d.agents[i])
	}
	if isStar(g) {
		out = append(out, d.unnamed)
	}
	return out
}
