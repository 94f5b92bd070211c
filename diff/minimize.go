package diff

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// DefaultMaxTests bounds the number of candidate inputs one minimisation
// puts to the parsers.
const DefaultMaxTests = 4000

// Minimize shrinks in while keep holds for the parsers' verdicts on the
// shrunk input, and returns the smallest input it found (in itself when
// keep does not hold for in, or when the parsers' names are not distinct).
// The usual keep is SameVerdicts(f), which keeps the signature.
//
// It removes, in turn: lines of the robots.txt (delta debugging: chunks,
// then single lines, after first trying just the lines the reference's
// trace names), characters of the remaining lines, line-end variety,
// segments and characters of the URL's path and query, and characters of
// the agent. It repeats until nothing more can go, at most DefaultMaxTests
// candidates or until ctx is done. The parsers are called from the
// calling goroutine only.
func Minimize(ctx context.Context, in Input, parsers []cases.Parser, keep func(Finding) bool) Input {
	p, err := newPanel(parsers, 0)
	if err != nil {
		return in
	}
	return minimize(ctx, p, in, keep, DefaultMaxTests)
}

// shrinker holds the state of one minimisation.
type shrinker struct {
	ctx   context.Context
	p     *panel
	keep  func(Finding) bool
	left  int // tests left
	seen  map[string]bool
	cur   Input
	vbuf  []cases.Verdict
	names []string
}

func minimize(ctx context.Context, p *panel, in Input, keep func(Finding) bool, maxTests int) Input {
	if maxTests <= 0 {
		maxTests = DefaultMaxTests
	}
	s := &shrinker{ctx: ctx, p: p, keep: keep, left: maxTests, seen: make(map[string]bool), cur: in}
	if !s.test(in) {
		return in
	}
	for round := 0; round < 4; round++ {
		before := s.cur
		s.lines()
		s.canonicalKeys()
		s.chars()
		s.lineEnds()
		s.url()
		s.agent()
		if string(before.Robots) == string(s.cur.Robots) && before.URL == s.cur.URL && before.Agent == s.cur.Agent {
			break
		}
	}
	return s.cur
}

// test reports whether keep holds on in; it makes in the current input
// when it does.
func (s *shrinker) test(in Input) bool {
	key := in.Agent + "\x00" + in.URL + "\x00" + string(in.Robots)
	if ok, done := s.seen[key]; done {
		return ok
	}
	if s.left <= 0 || s.ctx.Err() != nil {
		return false
	}
	s.left--
	f := s.p.finding(s.ctx, in)
	ok := s.keep(f)
	s.seen[key] = ok
	if ok {
		s.cur = in
	}
	return ok
}

func (s *shrinker) withBody(lines []string) Input {
	in := s.cur
	in.Robots = []byte(strings.Join(lines, ""))
	return in
}

// lines removes lines of the body.
func (s *shrinker) lines() {
	lines := splitLines(string(s.cur.Robots))
	if len(lines) == 0 {
		return
	}
	// First try only the lines the reference's trace names: the groups
	// that applied and the deciding rule. It is often all that matters.
	if keepLines := s.traceLines(len(lines)); len(keepLines) > 0 && len(keepLines) < len(lines) {
		var cand []string
		for i, l := range lines {
			if keepLines[i+1] {
				cand = append(cand, l)
			}
		}
		if s.test(s.withBody(cand)) {
			lines = cand
		}
	}
	ddmin(lines, true, func(c []string) bool { return s.test(s.withBody(c)) })
}

// traceLines returns the line numbers the reference's decision names,
// under the options of the input's profile.
func (s *shrinker) traceLines(n int) map[int]bool {
	opts := reference.RFC()
	if s.cur.Profile == cases.ProfileGoogle {
		opts = reference.Google()
	}
	d, err := reference.Parse(s.cur.Robots, opts).Decide(s.cur.Agent, s.cur.URL)
	if err != nil {
		return nil
	}
	m := make(map[int]bool)
	for _, l := range d.GroupLines {
		m[l] = true
	}
	if d.Reason == reference.RuleMatched {
		m[d.Rule.Line] = true
	}
	return m
}

// chars removes characters of each line, line ends excepted.
func (s *shrinker) chars() {
	lines := splitLines(string(s.cur.Robots))
	for i := range lines {
		text, eol := cutEOL(lines[i])
		units := splitUnits(text)
		ddmin(units, true, func(c []string) bool {
			cand := slices.Clone(lines)
			cand[i] = strings.Join(c, "") + eol
			if s.test(s.withBody(cand)) {
				lines = cand
				return true
			}
			return false
		})
	}
}

// lineEnds tries LF for every line end, then no final line end.
func (s *shrinker) lineEnds() {
	lines := splitLines(string(s.cur.Robots))
	norm := make([]string, len(lines))
	changed := false
	for i, l := range lines {
		text, eol := cutEOL(l)
		if eol != "" && eol != "\n" {
			changed = true
			eol = "\n"
		}
		norm[i] = text + eol
	}
	if changed {
		s.test(s.withBody(norm))
	}
}

// url removes the fragment, the query, path segments and characters of
// the URL, keeping its scheme and authority.
func (s *shrinker) url() {
	prefix, rest := splitURL(s.cur.URL)
	try := func(r string) bool {
		in := s.cur
		in.URL = prefix + r
		if s.test(in) {
			rest = r
			return true
		}
		return false
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		try(rest[:i])
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		try(rest[:i])
	}
	// Path segments: "/a/b/c" → "/a/c".
	if strings.HasPrefix(rest, "/") {
		segs := strings.SplitAfter(rest[1:], "/")
		ddmin(segs, true, func(c []string) bool { return try("/" + strings.Join(c, "")) })
	}
	// Characters after the leading "/".
	lead := ""
	body := rest
	if strings.HasPrefix(body, "/") {
		lead, body = "/", body[1:]
	}
	ddmin(splitUnits(body), true, func(c []string) bool { return try(lead + strings.Join(c, "")) })
}

// canonicalKeys tries writing record names as "User-agent", "Allow" and
// "Disallow", all at once and then one by one, so that an example shows an
// unusual spelling only when it matters.
func (s *shrinker) canonicalKeys() {
	lines := splitLines(string(s.cur.Robots))
	var at []int
	canon := slices.Clone(lines)
	for _, l := range reference.Parse(s.cur.Robots, optionsFor(s.cur.Profile)).Lines() {
		want := ""
		switch l.Kind {
		case reference.UserAgent:
			want = "User-agent"
		case reference.Allow:
			want = "Allow"
		case reference.Disallow:
			want = "Disallow"
		}
		n := l.Number - 1
		if want == "" || l.Key == want || n >= len(lines) {
			continue
		}
		if k := strings.Index(lines[n], l.Key); k >= 0 {
			canon[n] = lines[n][:k] + want + lines[n][k+len(l.Key):]
			at = append(at, n)
		}
	}
	if len(at) == 0 || s.test(s.withBody(canon)) || len(at) == 1 {
		return
	}
	for _, n := range at {
		cand := slices.Clone(lines)
		cand[n] = canon[n]
		if s.test(s.withBody(cand)) {
			lines = cand
		}
	}
}

// agent tries the agent as the file spells it, then removes characters of
// it; a product token is never empty.
func (s *shrinker) agent() {
	for _, l := range reference.Parse(s.cur.Robots, optionsFor(s.cur.Profile)).Lines() {
		if l.Kind != reference.UserAgent {
			continue
		}
		if name := agentName(l.Value, optionsFor(s.cur.Profile)); name != s.cur.Agent && isToken(name) && strings.EqualFold(name, s.cur.Agent) {
			in := s.cur
			in.Agent = name
			if s.test(in) {
				break
			}
		}
	}
	ddmin(splitUnits(s.cur.Agent), false, func(c []string) bool {
		in := s.cur
		in.Agent = strings.Join(c, "")
		return s.test(in)
	})
}

// ddmin removes items while test holds (Zeller's delta debugging, with the
// complement steps only): chunks of halving size, down to single items.
// It returns the reduced slice. With empty false it never tries the empty
// slice.
func ddmin[T any](items []T, empty bool, test func([]T) bool) []T {
	if len(items) == 0 {
		return items
	}
	if empty && test(nil) {
		return nil
	}
	n := 2
	for len(items) >= 2 {
		if n > len(items) {
			n = len(items)
		}
		size := (len(items) + n - 1) / n
		removed := false
		for start := 0; start < len(items); {
			end := min(start+size, len(items))
			cand := make([]T, 0, len(items)-(end-start))
			cand = append(append(cand, items[:start]...), items[end:]...)
			if len(cand) > 0 && test(cand) {
				items = cand
				removed = true
				continue // the next chunk now starts at start
			}
			start = end
		}
		switch {
		case removed:
			n = max(n-1, 2)
		case n >= len(items):
			return items
		default:
			n = min(2*n, len(items))
		}
	}
	return items
}

// splitLines splits a body into lines that keep their line ends (CR, LF
// or CRLF), so that joining them gives the body back.
func splitLines(body string) []string {
	var lines []string
	for len(body) > 0 {
		i := strings.IndexAny(body, "\r\n")
		if i < 0 {
			lines = append(lines, body)
			break
		}
		end := i + 1
		if body[i] == '\r' && end < len(body) && body[end] == '\n' {
			end++
		}
		lines = append(lines, body[:end])
		body = body[end:]
	}
	return lines
}

// cutEOL splits a line into its text and its line end.
func cutEOL(line string) (text, eol string) {
	i := strings.IndexAny(line, "\r\n")
	if i < 0 {
		return line, ""
	}
	return line[:i], line[i:]
}

// splitUnits splits s into characters when it is valid UTF-8, into bytes
// otherwise, so that shrinking never breaks a valid character in two.
func splitUnits(s string) []string {
	units := make([]string, 0, len(s))
	if !utf8.ValidString(s) {
		for i := 0; i < len(s); i++ {
			units = append(units, s[i:i+1])
		}
		return units
	}
	for i, r := range s {
		units = append(units, s[i:i+utf8.RuneLen(r)])
	}
	return units
}

// splitURL splits a URL into its scheme and authority ("https://h") and
// the rest (path, query, fragment). A URL without "://" is all rest.
func splitURL(u string) (prefix, rest string) {
	i := strings.Index(u, "://")
	if i < 0 || strings.ContainsAny(u[:i], "/?#") {
		return "", u
	}
	j := strings.IndexAny(u[i+3:], "/?#")
	if j < 0 {
		return u, ""
	}
	return u[:i+3+j], u[i+3+j:]
}
