package fuzz

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/reference"
)

// This file is FuzzInvariants: a small generator turns the fuzzer's bytes
// into a robots.txt file in structured form (groups of agents and rules),
// and each metamorphic property renders the file twice, once as generated
// and once transformed in a way that must not change any verdict.

// byteSource hands out the fuzzer's bytes as small numbers; past the end
// it gives zeros, so every input makes a file.
type byteSource struct {
	data []byte
	pos  int
}

func (s *byteSource) byte() byte {
	if s.pos >= len(s.data) {
		return 0
	}
	b := s.data[s.pos]
	s.pos++
	return b
}

// intn returns a number in [0, n).
func (s *byteSource) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(s.byte()) % n
}

// pick returns one of the choices.
func pick[T any](s *byteSource, choices ...T) T { return choices[s.intn(len(choices))] }

// genRule is an allow or disallow line.
type genRule struct {
	allow   bool
	pattern string
}

// genGroup is a group: its user-agent lines, then its rules.
type genGroup struct {
	agents []string
	rules  []genRule
}

// genFile is a generated robots.txt in structured form.
type genFile struct {
	orphans []genRule // rules before the first user-agent line (SYN-8)
	groups  []genGroup
}

// The generator's vocabulary. Group names are tokens (so the RFC's and
// Google's readings of them agree); probeAgents adds a token no group names.
// otherAgent names only the groups that properties add.
var (
	groupAgents      = []string{"a", "b", "FooBot", "foobot", "*"}
	invariantAgents  = []string{"a", "b", "FooBot", "nobody"}
	otherAgent       = "OtherBot"
	patternPieces    = []string{"a", "b", "/", "/", "*", ".", "?", "=", "x.html", "%61", "%2f", "%2F", "é", "$", "index.html"}
	urlPieces        = []string{"a", "b", "/", "/", ".", "?", "=", "x.html", "%61", "%2F", "é", "$", "*", "index.html", "ab"}
	noiseLines       = []string{"", "   ", "\t", "# a comment", "#", "Sitemap: https://example.com/sitemap.xml", "Crawl-delay: 10", "Host: example.com", "X-Unknown-Field: value", "this line means nothing", "Clean-param: ref /"}
	invariantMaxRule = 6
)

func genPattern(s *byteSource) string {
	switch s.intn(8) {
	case 0:
		return "" // an empty value: matches nothing (PAT-2)
	case 1:
		return "/"
	case 2:
		return "*"
	}
	var b strings.Builder
	b.WriteString(pick(s, "/", "/", "/", "*", ""))
	for n := 1 + s.intn(4); n > 0; n-- {
		b.WriteString(pick(s, patternPieces...))
	}
	return b.String()
}

func genRules(s *byteSource, max int) []genRule {
	rules := make([]genRule, s.intn(max+1))
	for i := range rules {
		rules[i] = genRule{allow: s.intn(2) == 0, pattern: genPattern(s)}
	}
	return rules
}

// generate builds a file of one to four groups.
func generate(s *byteSource) genFile {
	var f genFile
	if s.intn(4) == 0 {
		f.orphans = genRules(s, 2)
	}
	f.groups = make([]genGroup, 1+s.intn(4))
	for i := range f.groups {
		g := &f.groups[i]
		g.agents = make([]string, 1+s.intn(2))
		for j := range g.agents {
			g.agents[j] = pick(s, groupAgents...)
		}
		g.rules = genRules(s, invariantMaxRule)
	}
	return f.joinRuleless()
}

// joinRuleless moves the agents of a group without rules into the group
// after it, as the text does: user-agent lines with no rule between them
// are one group. Without this, a property that changes the later group
// (splitting it, say) would treat the two as separate.
func (f genFile) joinRuleless() genFile {
	var groups []genGroup
	var pending []string
	for i, g := range f.groups {
		if len(g.rules) == 0 && i < len(f.groups)-1 {
			pending = append(pending, g.agents...)
			continue
		}
		g.agents = append(pending, g.agents...)
		pending = nil
		groups = append(groups, g)
	}
	f.groups = groups
	return f
}

// genURLs returns the URLs each property is checked on: generated paths
// and the patterns of the file made concrete.
func genURLs(s *byteSource, f genFile) []string {
	urls := []string{"/", "/robots.txt"}
	for n := 3 + s.intn(4); n > 0; n-- {
		var b strings.Builder
		b.WriteString("/")
		for k := s.intn(6); k > 0; k-- {
			b.WriteString(pick(s, urlPieces...))
		}
		urls = append(urls, b.String())
	}
	for _, g := range f.groups {
		for _, r := range g.rules {
			p := strings.NewReplacer("*", pick(s, "", "a", "/x"), "$", "").Replace(r.pattern)
			if !strings.HasPrefix(p, "/") {
				p = "/" + p
			}
			urls = append(urls, p, p+"b")
		}
	}
	return urls
}

// renderOptions says how a genFile is written as text.
type renderOptions struct {
	eol      func(i int) string             // line end of physical line i
	key      func(key string, i int) string // record name of line i
	bom      bool
	noise    map[int][]string // noise lines before line i (len(lines): at the end)
	trailing map[int]string   // a comment after line i
}

// lines returns the file's lines as (key, value) records.
func (f genFile) lines() [][2]string {
	var out [][2]string
	rule := func(r genRule) [2]string {
		if r.allow {
			return [2]string{"Allow", r.pattern}
		}
		return [2]string{"Disallow", r.pattern}
	}
	for _, r := range f.orphans {
		out = append(out, rule(r))
	}
	for _, g := range f.groups {
		for _, a := range g.agents {
			out = append(out, [2]string{"User-agent", a})
		}
		for _, r := range g.rules {
			out = append(out, rule(r))
		}
	}
	return out
}

// render writes f as robots.txt.
func (f genFile) render(o renderOptions) []byte {
	var b strings.Builder
	if o.bom {
		b.WriteString("\xef\xbb\xbf")
	}
	eol := func(i int) string {
		if o.eol == nil {
			return "\n"
		}
		return o.eol(i)
	}
	n := 0 // physical line, for line ends
	writeLine := func(s string) {
		b.WriteString(s)
		b.WriteString(eol(n))
		n++
	}
	lines := f.lines()
	for i, kv := range lines {
		for _, noise := range o.noise[i] {
			writeLine(noise)
		}
		key := kv[0]
		if o.key != nil {
			key = o.key(key, i)
		}
		line := key + ": " + kv[1]
		if c, ok := o.trailing[i]; ok {
			line += " " + c
		}
		writeLine(line)
	}
	for _, noise := range o.noise[len(lines)] {
		writeLine(noise)
	}
	return []byte(b.String())
}

// verdicts returns the verdict of every (profile, agent, URL) probe, true
// for allow, in the order probeName lists them.
func verdicts(t *testing.T, body []byte, agents, urls []string) []bool {
	t.Helper()
	out := make([]bool, 0, 2*len(agents)*len(urls))
	for _, opts := range profiles() {
		r := reference.Parse(body, opts)
		for _, a := range agents {
			for _, u := range urls {
				ok, err := r.Allowed(a, u)
				if err != nil {
					t.Fatalf("%s: Allowed(%q, %q): %v", opts.Name, a, u, err)
				}
				out = append(out, ok)
			}
		}
	}
	return out
}

// probeName describes probe i of verdicts.
func probeName(i int, agents, urls []string) string {
	per := len(agents) * len(urls)
	opts := profiles()[i/per]
	i %= per
	return fmt.Sprintf("%s %s %s", opts.Name, agents[i/len(urls)], urls[i%len(urls)])
}

func verdictWord(allow bool) string {
	if allow {
		return "allow"
	}
	return "disallow"
}

// probes is a set of (agent, URL) probes with the base file's verdicts
// on them, computed once per input.
type probes struct {
	agents, urls []string
	base         []byte
	want         []bool
}

func newProbes(t *testing.T, base []byte, agents, urls []string) *probes {
	t.Helper()
	return &probes{agents: agents, urls: urls, base: base, want: verdicts(t, base, agents, urls)}
}

// sameVerdicts fails the test when variant gives any probe another verdict
// than the base file.
func (p *probes) sameVerdicts(t *testing.T, what string, variant []byte) {
	t.Helper()
	sameVerdicts(t, what, p.base, variant, p.agents, p.urls, p.want)
}

// sameVerdicts fails the test when the two files give different verdicts
// to any probe; want, when not nil, holds the base file's verdicts.
func sameVerdicts(t *testing.T, what string, base, variant []byte, agents, urls []string, want []bool) {
	t.Helper()
	if want == nil {
		want = verdicts(t, base, agents, urls)
	}
	got := verdicts(t, variant, agents, urls)
	if slices.Equal(want, got) {
		return
	}
	words := func(vs []bool) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = probeName(i, agents, urls) + ": " + verdictWord(v)
		}
		return out
	}
	t.Errorf("%s changed verdicts (-base +transformed):\n%s\nbase file:\n%q\ntransformed file:\n%q",
		what, cmp.Diff(words(want), words(got)), base, variant)
}

// FuzzInvariants checks metamorphic properties of the reference (RFC and
// Google options) on files generated from the fuzzer's bytes. Each property
// is a subtest; verdicts are compared, not traces, since line numbers move.
func FuzzInvariants(f *testing.F) {
	addInvariantSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &byteSource{data: data}
		file := generate(s)
		urls := genURLs(s, file)
		base := file.render(renderOptions{})
		agents := invariantAgents
		all := newProbes(t, base, agents, urls)

		property(t, "rule-order", func(t *testing.T) {
			// MATCH-4: the order of rules within a group does not matter.
			v := file.clone()
			for gi := range v.groups {
				rs := v.groups[gi].rules
				for i := len(rs) - 1; i > 0; i-- {
					j := s.intn(i + 1)
					rs[i], rs[j] = rs[j], rs[i]
				}
			}
			all.sameVerdicts(t, "reordering rules", v.render(renderOptions{}))
		})

		property(t, "split-group", func(t *testing.T) {
			// UA-3: a group split into several groups for the same agents
			// is merged back.
			// The second part keeps at least one rule: a part without rules
			// at the end would join the next group's user-agent lines.
			v := file.clone()
			gi := s.intn(len(v.groups))
			g := v.groups[gi]
			if len(g.rules) == 0 {
				return
			}
			cut := s.intn(len(g.rules))
			first := genGroup{agents: g.agents, rules: g.rules[:cut]}
			second := genGroup{agents: g.agents, rules: g.rules[cut:]}
			groups := append([]genGroup{}, v.groups[:gi]...)
			groups = append(groups, first, second)
			v.groups = append(groups, v.groups[gi+1:]...)
			all.sameVerdicts(t, "splitting a group", v.render(renderOptions{}))
		})

		property(t, "noise-lines", func(t *testing.T) {
			// SYN-4, SYN-5, SYN-9, OTH-3: blank lines, comments, Sitemap and
			// unknown records, anywhere, end nothing.
			n := len(file.lines())
			o := renderOptions{noise: map[int][]string{}, trailing: map[int]string{}}
			for k := 1 + s.intn(6); k > 0; k-- {
				at := s.intn(n + 1)
				o.noise[at] = append(o.noise[at], pick(s, noiseLines...))
			}
			for k := s.intn(3); k > 0; k-- {
				o.trailing[s.intn(n+1)] = pick(s, "# note", "#", "#Disallow: /")
			}
			all.sameVerdicts(t, "inserting noise lines", file.render(o))
		})

		property(t, "line-ends", func(t *testing.T) {
			// SYN-3: LF, CRLF and CR end lines alike.
			for _, end := range []string{"\r\n", "\r", "mixed"} {
				o := renderOptions{eol: func(int) string { return end }}
				if end == "mixed" {
					ends := make([]string, 64)
					for i := range ends {
						ends[i] = pick(s, "\n", "\r\n", "\r")
					}
					o.eol = func(i int) string { return ends[i%len(ends)] }
				}
				all.sameVerdicts(t, fmt.Sprintf("line ends %q", end), file.render(o))
			}
		})

		property(t, "record-name-case", func(t *testing.T) {
			// SYN-1: record names are case-insensitive.
			flips := make([]byte, 16)
			for i := range flips {
				flips[i] = s.byte()
			}
			o := renderOptions{key: func(key string, i int) string {
				k := []byte(key)
				for j := range k {
					if flips[(i+j)%len(flips)]&(1<<(j%8)) != 0 {
						k[j] ^= 0x20 // letters only: "-" is never flipped below
					}
					if key[j] == '-' {
						k[j] = '-'
					}
				}
				return string(k)
			}}
			all.sameVerdicts(t, "changing record-name case", file.render(o))
		})

		property(t, "bom", func(t *testing.T) {
			// SYN-10: a leading UTF-8 byte order mark is skipped.
			all.sameVerdicts(t, "a leading BOM", file.render(renderOptions{bom: true}))
		})

		property(t, "other-groups", func(t *testing.T) {
			// UA-2, UA-6: groups for another agent change nothing for the
			// probe agents. A group may only go where a user-agent line
			// starts a group: first, or after a group that has rules.
			v := file.clone()
			places := []int{0}
			for i, g := range v.groups {
				if len(g.rules) > 0 {
					places = append(places, i+1)
				}
			}
			at := places[s.intn(len(places))]
			other := genGroup{agents: []string{otherAgent}, rules: append(genRules(s, 3), genRule{pattern: "/"})}
			v.groups = append(v.groups[:at], append([]genGroup{other}, v.groups[at:]...)...)
			all.sameVerdicts(t, "adding another agent's group", v.render(renderOptions{}))
		})

		property(t, "duplicate-rule", func(t *testing.T) {
			// MATCH-8: a rule written twice in its group changes nothing.
			v := file.clone()
			gi := s.intn(len(v.groups))
			g := &v.groups[gi]
			if len(g.rules) == 0 {
				return
			}
			r := g.rules[s.intn(len(g.rules))]
			at := s.intn(len(g.rules) + 1)
			g.rules = append(g.rules[:at], append([]genRule{r}, g.rules[at:]...)...)
			all.sameVerdicts(t, "duplicating a rule", v.render(renderOptions{}))
		})

		property(t, "star-group", func(t *testing.T) {
			// UA-6: for an agent that has its own group, "*" groups do not
			// matter: compare with every "*" renamed to another agent, and
			// with one more "*" group.
			var named []string
			for _, a := range agents {
				if file.names(a) {
					named = append(named, a)
				}
			}
			if len(named) == 0 {
				return
			}
			without := file.starRenamed()
			with := without.clone()
			star := genGroup{agents: []string{"*"}, rules: append(genRules(s, 3), genRule{pattern: "/"})}
			with.groups = append([]genGroup{star}, with.groups...)
			mine := newProbes(t, base, named, urls)
			mine.sameVerdicts(t, "renaming the * groups", without.render(renderOptions{}))
			mine.sameVerdicts(t, "adding a * group", with.render(renderOptions{}))
		})

		property(t, "allow-wins-tie", func(t *testing.T) {
			// MATCH-5: an allow and a disallow of the same pattern resolve
			// to allow. Adding "Disallow: P" next to "Allow: P" changes
			// nothing, and a file of just the two allows everything.
			p := genPattern(s)
			withAllow := file.clone()
			gi := s.intn(len(withAllow.groups))
			g := &withAllow.groups[gi]
			g.rules = append(g.rules, genRule{allow: true, pattern: p})
			withBoth := withAllow.clone()
			gb := &withBoth.groups[gi]
			at := s.intn(len(gb.rules) + 1)
			gb.rules = append(gb.rules[:at], append([]genRule{{pattern: p}}, gb.rules[at:]...)...)
			sameVerdicts(t, fmt.Sprintf("adding Disallow: %s next to Allow: %s", p, p),
				withAllow.render(renderOptions{}), withBoth.render(renderOptions{}), agents, urls, nil)

			pair := genFile{groups: []genGroup{{agents: []string{"*"}, rules: []genRule{{pattern: p}, {allow: true, pattern: p}}}}}
			if s.intn(2) == 0 {
				pair.groups[0].rules[0], pair.groups[0].rules[1] = pair.groups[0].rules[1], pair.groups[0].rules[0]
			}
			body := pair.render(renderOptions{})
			for i, ok := range verdicts(t, body, agents, urls) {
				if !ok {
					t.Errorf("file %q: %s: disallow, want allow", body, probeName(i, agents, urls))
				}
			}
		})
	})
}

// TestInvariantProbes shows that the probes tell files apart: inserting a
// user-agent line into a run of them (which the properties never do)
// changes verdicts, and sameVerdicts would report it.
func TestInvariantProbes(t *testing.T) {
	base := genFile{groups: []genGroup{{agents: []string{"a"}, rules: []genRule{{pattern: "/x"}}}}}
	joined := base.clone()
	joined.groups[0].agents = append(joined.groups[0].agents, "b")
	urls := []string{"/x", "/y"}
	want := verdicts(t, base.render(renderOptions{}), invariantAgents, urls)
	got := verdicts(t, joined.render(renderOptions{}), invariantAgents, urls)
	if slices.Equal(want, got) {
		t.Errorf("adding agent b to the group changed no verdict: %v", got)
	}
}

// clone returns a deep copy of f.
func (f genFile) clone() genFile {
	c := genFile{orphans: append([]genRule(nil), f.orphans...)}
	c.groups = make([]genGroup, len(f.groups))
	for i, g := range f.groups {
		c.groups[i] = genGroup{agents: append([]string(nil), g.agents...), rules: append([]genRule(nil), g.rules...)}
	}
	return c
}

// names reports whether a group of f names agent (not through "*").
func (f genFile) names(agent string) bool {
	for _, g := range f.groups {
		for _, a := range g.agents {
			if strings.EqualFold(a, agent) {
				return true
			}
		}
	}
	return false
}

// starRenamed returns f with every "*" user-agent line naming otherAgent
// instead. (Dropping the lines could join a rule-less group to the next.)
func (f genFile) starRenamed() genFile {
	c := f.clone()
	for _, g := range c.groups {
		for i, a := range g.agents {
			if a == "*" {
				g.agents[i] = otherAgent
			}
		}
	}
	return c
}
