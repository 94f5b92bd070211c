package diff

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// DefaultMaxTests bounds the number of candidate inputs one minimisation
// puts to the parsers.
const DefaultMaxTests = 4000

// MaxMinimizeBytes bounds the body bytes one minimisation puts to the
// parsers, summed over its candidates, so that a disagreement that needs a
// large body (the 500 KiB limit) costs seconds, not hours.
const MaxMinimizeBytes = 16 << 20

// bigBody is the size above which characters are removed only from the
// values of records, not from comments and other lines.
const bigBody = 64 << 10

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
// candidates and MaxMinimizeBytes of bodies, or until ctx is done. The parsers are called from the
// calling goroutine only.
func Minimize(ctx context.Context, in result.Input, parsers []cases.Parser, keep func(result.Finding) bool) result.Input {
	p, err := newPanel(parsers, 0)
	if err != nil {
		return in
	}
	return minimize(ctx, p, in, keep, DefaultMaxTests)
}

// shrinker holds the state of one minimisation.
type shrinker struct {
	ctx context.Context
	p   *panel
	// keep decides a candidate from all the parsers' verdicts; goal, when
	// set, is used instead and asks only as many parsers as it takes.
	keep  func(result.Finding) bool
	goal  *goal
	left  int             // tests left
	bytes int64           // body bytes left
	seen  map[string]bool // keep's answer on each candidate tried
	memo  map[string]bool // small candidates tried by any minimisation of the file
	// kept holds the lengths of the large candidates keep held on: once
	// the budget is spent, a large candidate of another length cannot
	// hold, and is neither built nor hashed.
	kept map[int]bool
	cur  result.Input
}

// goal is what the engine keeps while minimising: the verdicts found (in
// the panel's order) and the reference's cause (causeKey: the reason, the
// kind of group, the shape of the deciding rule), so that the example
// is of the class of the disagreement it was minimised from, and two
// classes never share one.
type goal struct {
	want     []result.Verdict
	reason   reference.Reason // the cause's reason, read first: it is cheap
	reasonOK bool
	cause    string
	odds     *odds
	// all asks every parser every time, without short cuts.
	all bool
}

func newGoal(in result.Input, want []result.Verdict, all bool) *goal {
	g := &goal{want: want, all: all, odds: newOdds(want)}
	g.reason, g.reasonOK = reasonOf(in)
	g.cause = causeOf(in)
	return g
}

// causeOf returns the question's shape and the causeKey of the
// reference's decision on in ("" for an error).
func causeOf(in result.Input) string {
	opts, _ := reference.OptionsFor(in.Profile)
	d, err := reference.ParseString(string(in.Robots), opts).Decide(in.Agent, in.URL)
	if err != nil {
		return ""
	}
	return questionShape(in.URL) + causeKey(d)
}

// holds reports whether the goal holds on in: the reference's reason
// first (it is cheap), then the parsers' verdicts, then the rest of the
// cause (a parse). b is in's body when the caller has its digest
// already, else nil.
func (g *goal) holds(ctx context.Context, p *panel, in result.Input, b *body) bool {
	if r, ok := reasonOf(in); ok != g.reasonOK || r != g.reason {
		return false
	}
	if g.all {
		if !slices.Equal(p.verdicts(ctx, in, nil), g.want) {
			return false
		}
	} else if !p.agrees(ctx, in, b, g.want, g.odds) {
		return false
	}
	return causeOf(in) == g.cause
}

func minimize(ctx context.Context, p *panel, in result.Input, keep func(result.Finding) bool, maxTests int) result.Input {
	s := newShrinker(ctx, p, in, maxTests, make(map[string]bool))
	s.keep = keep
	return s.run(in)
}

// memoBytes is the largest body remembered by its text; larger ones are
// remembered by a digest, and not across minimisations.
const memoBytes = 4 << 10

// maxMemo bounds the candidates remembered for one file.
const maxMemo = 20000

func newShrinker(ctx context.Context, p *panel, in result.Input, maxTests int, memo map[string]bool) *shrinker {
	if maxTests <= 0 {
		maxTests = DefaultMaxTests
	}
	return &shrinker{ctx: ctx, p: p, left: maxTests, bytes: MaxMinimizeBytes, seen: make(map[string]bool), kept: make(map[int]bool), cur: in, memo: memo}
}

// minimizeGoal minimises in while g holds. memo holds the small
// candidates that earlier minimisations of the same file tried: they do
// not count against this one's budget, whether or not their verdicts are
// still cached, so that the result does not depend on the cache.
func minimizeGoal(ctx context.Context, p *panel, in result.Input, g *goal, maxTests int, memo map[string]bool) result.Input {
	s := newShrinker(ctx, p, in, maxTests, memo)
	s.goal = g
	return s.run(in)
}

func (s *shrinker) run(in result.Input) result.Input {
	if !s.test(in) {
		return in
	}
	for round := 0; round < 4; round++ {
		before := s.cur
		s.lines()
		s.canonicalLines()
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
func (s *shrinker) test(in result.Input) bool {
	if s.spent(len(in.Robots)) {
		return false
	}
	var b *body // only a large candidate is hashed, and only here
	if len(in.Robots) > memoBytes {
		nb := newBody(in)
		b = &nb
	}
	key := candidateKey(in, b)
	if ok, done := s.seen[key]; done {
		return ok
	}
	if !s.memo[key] {
		if s.exhausted() {
			return false
		}
		s.left--
		s.bytes -= int64(len(in.Robots))
		if b == nil && len(s.memo) < maxMemo {
			s.memo[key] = true
		}
	}
	var ok bool
	if s.goal != nil {
		ok = s.goal.holds(s.ctx, s.p, in, b)
	} else {
		f := s.p.finding(s.ctx, in)
		ok = s.keep(f)
	}
	s.seen[key] = ok
	if ok {
		s.cur = in
		if b != nil {
			s.kept[len(in.Robots)] = true
		}
	}
	return ok
}

// exhausted reports whether the minimisation may test no new candidate.
func (s *shrinker) exhausted() bool {
	return s.left <= 0 || s.bytes < 0 || s.ctx.Err() != nil
}

// spent reports whether a candidate body of n bytes cannot hold without
// being tested: the budget is spent, the body is too large to be one
// that an earlier minimisation of the file tried (memo), and keep held on
// no candidate of its length. test would answer false for it, after
// building and hashing it.
func (s *shrinker) spent(n int) bool {
	return n > memoBytes && !s.kept[n] && s.exhausted()
}

// candidateKey returns the key a candidate is remembered by: its agent,
// URL and body text when the body is small (b is nil), else its agent,
// URL and b's digest, so that a large body is hashed once for both this
// key and the verdict cache's.
func candidateKey(in result.Input, b *body) string {
	k := make([]byte, 0, 24+len(in.Agent)+len(in.URL)+min(len(in.Robots), memoBytes))
	k = binary.AppendUvarint(k, uint64(len(in.Agent)))
	k = append(k, in.Agent...)
	k = binary.AppendUvarint(k, uint64(len(in.URL)))
	k = append(k, in.URL...)
	if b == nil {
		return string(append(append(k, 't'), in.Robots...))
	}
	return string(append(append(k, 'h'), b.sum[:]...))
}

// testLines reports whether keep holds on the current input with the
// body made of lines, building the body only when it can hold.
func (s *shrinker) testLines(lines []string) bool {
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	return !s.spent(n) && s.test(s.withBody(lines))
}

func (s *shrinker) withBody(lines []string) result.Input {
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
		if s.testLines(cand) {
			lines = cand
		}
	}
	ddmin(lines, true, func(c []string) bool { return s.testLines(c) })
}

// traceLines returns the line numbers the reference's decision names,
// under the options of the input's profile.
func (s *shrinker) traceLines(n int) map[int]bool {
	d, err := parseFor(s.cur).Decide(s.cur.Agent, s.cur.URL)
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

// chars removes characters of each line, line ends excepted: of the value
// of a record, or of the whole text of any other line. A candidate line
// must keep its shape (see shapeOf), under the RFC options and under
// Google's, so that shrinking never turns "User-agent" into the
// misspelling "Useragent", a rule into a line without a colon, nor a
// wildcard rule into a plain one: the minimised example shows the
// disagreement that was found, not another one nearby. In a body larger
// than 64 KiB only the values of records are shortened.
func (s *shrinker) chars() {
	lines := splitLines(string(s.cur.Robots))
	info := lineInfo(s.cur.Robots, s.cur.Profile)
	for i := range lines {
		text, eol := cutEOL(lines[i])
		before, part, after := "", text, ""
		l, ok := info[i+1]
		if !ok && len(s.cur.Robots) > bigBody {
			continue
		}
		if ok && l.Key == "" && len(s.cur.Robots) > bigBody {
			continue
		}
		if ok && l.Key != "" {
			k := strings.Index(text, l.Key)
			v := -1
			if k >= 0 {
				v = strings.Index(text[k+len(l.Key):], l.Value)
			}
			if k < 0 || v < 0 {
				continue
			}
			v += k + len(l.Key)
			before, part, after = text[:v], l.Value, text[v+len(l.Value):]
		}
		shape := shapeOf(text)
		ddmin(splitUnits(part), true, func(c []string) bool {
			t := before + strings.Join(c, "") + after
			if shapeOf(t) != shape {
				return false
			}
			cand := slices.Clone(lines)
			cand[i] = t + eol
			if s.testLines(cand) {
				lines = cand
				return true
			}
			return false
		})
	}
}

// lineInfo returns the lines of body, read under the profile's options,
// by number.
func lineInfo(body []byte, profile string) map[int]reference.Line {
	m := make(map[int]reference.Line)
	opts, _ := reference.OptionsFor(profile)
	for _, l := range reference.Parse(body, opts).Lines() {
		m[l.Number] = l
	}
	return m
}

// lineShape is how one line reads under the RFC options and under
// Google's: its kind, and for a rule or user-agent line the features of
// its value that decide how parsers treat it.
type lineShape [2]struct {
	kind  reference.LineKind
	value string
}

// shapeOf returns the shape of one line of text. For rules it records the
// first octet's class ("/", "*" or other), whether the value holds "*",
// ends in "$", holds "$" elsewhere, holds a percent escape, non-ASCII
// octets or a query; for user-agent lines whether the value is "*", a
// product token, or starts with one.
func shapeOf(text string) lineShape {
	var sh lineShape
	for i, o := range [2]reference.Options{reference.RFC(), reference.Google()} {
		o.SkipBOM = false
		ls := reference.ParseString(text, o).Lines()
		if len(ls) == 0 {
			continue
		}
		l := ls[0]
		sh[i].kind = l.Kind
		v := l.Value
		switch l.Kind {
		case reference.Allow, reference.Disallow:
			first := "-"
			if v != "" {
				switch v[0] {
				case '/', '*':
					first = v[:1]
				default:
					first = "a"
				}
			}
			body, anchored := strings.CutSuffix(v, "$")
			nonASCII := strings.IndexFunc(v, func(r rune) bool { return r >= 0x80 }) >= 0
			sh[i].value = fmt.Sprint(first, strings.Contains(v, "*"), anchored, strings.Contains(body, "$"),
				hasEscape(v), nonASCII, strings.Contains(v, "?"))
		case reference.UserAgent:
			token, _ := reference.Google().AgentToken(v)
			sh[i].value = fmt.Sprint(v == "*", reference.IsProductToken(v), token != "")
		}
	}
	return sh
}

// hasEscape reports whether s holds a %XX escape.
func hasEscape(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '%' && isHexByte(s[i+1]) && isHexByte(s[i+2]) {
			return true
		}
	}
	return false
}

// lineEnds tries LF for every line end, and the body without a leading
// (partial) byte order mark.
func (s *shrinker) lineEnds() {
	if b := s.cur.Robots; len(b) > 0 && b[0] == 0xEF {
		n := 1
		for n < 3 && n < len(b) && b[n] == "\xEF\xBB\xBF"[n] {
			n++
		}
		in := s.cur
		in.Robots = b[n:]
		s.test(in)
	}
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
		s.testLines(norm)
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

// canonicalLines tries writing records as "Name: value", with the
// names "User-agent", "Allow" and "Disallow" spelt so, one space after the
// colon and no comment: all lines at once, then one by one. An example
// thus shows unusual spelling or spacing only when it matters.
func (s *shrinker) canonicalLines() {
	lines := splitLines(string(s.cur.Robots))
	var at []int
	canon := slices.Clone(lines)
	for _, l := range parseFor(s.cur).Lines() {
		n := l.Number - 1
		if l.Key == "" || n >= len(lines) {
			continue
		}
		key := l.Key
		switch l.Kind {
		case reference.UserAgent:
			key = "User-agent"
		case reference.Allow:
			key = "Allow"
		case reference.Disallow:
			key = "Disallow"
		}
		text, eol := cutEOL(lines[n])
		c := key + ": " + l.Value
		if l.Value == "" {
			c = key + ":"
		}
		if n == 0 && strings.HasPrefix(text, "\xEF") {
			continue // keep a byte order mark and its line as they are
		}
		if c != text && shapeOf(c) == shapeOf(text) {
			canon[n] = c + eol
			at = append(at, n)
		}
	}
	if len(at) == 0 || s.testLines(canon) || len(at) == 1 {
		return
	}
	for _, n := range at {
		cand := slices.Clone(lines)
		cand[n] = canon[n]
		if s.testLines(cand) {
			lines = cand
		}
	}
}

// agent tries the agent as the file spells it; or, when no user-agent
// line names it, the short token "FooBot". Characters are not removed:
// an example reads better with a word for the agent.
func (s *shrinker) agent() {
	opts, _ := reference.OptionsFor(s.cur.Profile)
	named := false
	var spelt []string
	for _, l := range reference.Parse(s.cur.Robots, opts).Lines() {
		if l.Kind != reference.UserAgent {
			continue
		}
		token, _ := reference.Google().AgentToken(l.Value)
		for _, name := range []string{l.Value, token} {
			if strings.EqualFold(name, s.cur.Agent) {
				named = true
				if name != s.cur.Agent && reference.IsProductToken(name) {
					spelt = append(spelt, name)
				}
			}
			if strings.EqualFold(name, placeholderAgent) {
				named = true // FooBot would be named
			}
		}
	}
	try := func(a string) bool {
		in := s.cur
		in.Agent = a
		return s.test(in)
	}
	for _, a := range spelt {
		if try(a) {
			return
		}
	}
	if !named && s.cur.Agent != placeholderAgent {
		try(placeholderAgent)
	}
}

// placeholderAgent is the agent an example gets when the file does not
// name its agent.
const placeholderAgent = "FooBot"

// maxParts bounds how finely ddmin cuts: a sequence longer than this is
// not reduced item by item, which would take a number of tests quadratic
// in its length (a 20 KiB line).
const maxParts = 256

// ddmin removes items while test holds (Zeller's delta debugging, with the
// complement steps only): chunks of halving size, down to single items or
// to maxParts chunks. It returns the reduced slice. With empty false it
// never tries the empty slice.
func ddmin[T any](items []T, empty bool, test func([]T) bool) []T {
	if len(items) == 0 {
		return items
	}
	if empty && test(nil) {
		return nil
	}
	n := 2
	for len(items) >= 2 {
		n = min(n, len(items))
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
		case n >= min(len(items), maxParts):
			return items
		default:
			n = min(2*n, len(items), maxParts)
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
