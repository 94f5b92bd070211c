package reference

import (
	"strings"
)

// LineKind classifies one line of a robots.txt file (RFC 9309 §2.2).
type LineKind uint8

const (
	// Blank is an empty line or one of white space only.
	Blank LineKind = iota
	// Comment is a line holding only a comment.
	Comment
	// UserAgent is a user-agent line (§2.2.1).
	UserAgent
	// Allow is an allow rule (§2.2.2).
	Allow
	// Disallow is a disallow rule (§2.2.2).
	Disallow
	// Other is a record the protocol does not define, such as Sitemap or
	// Crawl-delay (§2.2.4). Its Key says which.
	Other
	// Invalid is a line that cannot be parsed; it is skipped (§2.3.1.5 via
	// SYN-9). Its Reason says why.
	Invalid
)

var lineKindNames = [...]string{"blank", "comment", "user-agent", "allow", "disallow", "other", "invalid"}

// String returns the kind's name in lower case, as written in traces.
func (k LineKind) String() string {
	if int(k) < len(lineKindNames) {
		return lineKindNames[k]
	}
	return "unknown"
}

// Line is one line of a robots.txt file as the parser read it.
type Line struct {
	// Number is the 1-based line number. CR, LF and CRLF each end a line
	// (SYN-3).
	Number int
	Kind   LineKind
	// Key is the record name as written, for every kind but Blank,
	// Comment and Invalid.
	Key string
	// Value is the record's value with white space and comment removed.
	Value string
	// Reason says why an Invalid line could not be parsed.
	Reason string
}

// Record is a record that the protocol does not define (§2.2.4), such as
// Sitemap, Crawl-delay or Host.
type Record struct {
	Line  int
	Key   string
	Value string
}

// SplitLines returns the lines of body as Robots.Lines numbers them:
// element i is line i+1. CR, LF and CRLF each end a line (§2.2, SYN-3),
// and a final line end adds no line. Nothing is skipped or cut: a byte
// order mark stays at the start of line 1.
func SplitLines(body string) []string {
	var lines []string
	scanLines(body, &Options{}, func(_, _ int, text string) { lines = append(lines, text) })
	return lines
}

// scanLines calls fn for each line of body, as a lineScanner reads them.
func scanLines(body string, o *Options, fn func(n, start int, text string)) {
	sc := newLineScanner(body, o)
	for {
		n, start, text, ok := sc.next()
		if !ok {
			return
		}
		fn(n, start, text)
	}
}

// lineScanner reads a body line by line (after any byte order mark). A
// line ends at CR, LF or CRLF (§2.2, SYN-3); a final line end adds no
// line.
//
// The scanner remembers where the next CR and the next LF are, so that it
// looks for each line end with one vectorised search (strings.IndexByte)
// and every byte of the body is searched once for each, however the line
// ends are mixed: a file of CR line ends costs one search for LF, not one
// per line.
type lineScanner struct {
	body string
	// maxLine and nulEnds are Options.MaxLineBytes and NULEndsLine.
	maxLine int
	nulEnds bool
	lfOnly  bool // Options.LFOnly: only LF ends a line
	pos     int  // the offset of the next line; past len(body) at the end
	n       int  // the number of the line last returned
	// cr, lf and nul are the next CR, LF and NUL at or after pos, or
	// len(body); -1: not searched yet.
	cr, lf, nul int
}

func newLineScanner(body string, o *Options) lineScanner {
	return lineScanner{body: body, maxLine: o.MaxLineBytes, nulEnds: o.NULEndsLine, lfOnly: o.LFOnly, pos: bomLength(body, o), cr: -1, lf: -1, nul: -1}
}

// next returns the next line: its number, the offset of its first byte in
// the body and its text, which holds no line-end characters and is cut to
// o.MaxLineBytes and, with o.NULEndsLine, at a NUL. ok is false at the
// end of the body.
func (s *lineScanner) next() (n, start int, text string, ok bool) {
	i := s.pos
	if i > len(s.body) {
		return 0, 0, "", false
	}
	if s.lf < i {
		s.lf = indexFrom(s.body, i, '\n')
	}
	end := s.lf
	if !s.lfOnly {
		if s.cr < i {
			s.cr = indexFrom(s.body, i, '\r')
		}
		end = min(s.lf, s.cr)
	}
	s.pos = end + 1
	if end == len(s.body) && end == i {
		return 0, 0, "", false // nothing after the last line end
	}
	if end < len(s.body) && s.body[end] == '\r' && s.pos < len(s.body) && s.body[s.pos] == '\n' {
		s.pos++
	}
	text = s.body[i:end]
	if s.lfOnly {
		text = strings.TrimSuffix(text, "\r")
	}
	if s.maxLine > 0 && len(text) > s.maxLine {
		text = text[:s.maxLine]
	}
	if s.nulEnds {
		if s.nul < i {
			s.nul = indexFrom(s.body, i, 0)
		}
		if s.nul < i+len(text) {
			text = text[:s.nul-i]
		}
	}
	s.n++
	return s.n, i, text, true
}

// indexFrom returns the offset of the first c in s at or after i, or
// len(s).
func indexFrom(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

// bomLength is the length of the byte order mark that starts body, as the
// options skip it (SYN-10).
func bomLength(body string, o *Options) int {
	const bom = "\xEF\xBB\xBF"
	if !o.SkipBOM {
		return 0
	}
	if strings.HasPrefix(body, bom) {
		return 3
	}
	i := 0
	for o.SkipPartialBOM && i < 3 && i < len(body) && body[i] == bom[i] {
		i++
	}
	return i
}

// cutNUL returns s up to its first NUL byte.
func cutNUL(s string) string {
	if k := strings.IndexByte(s, 0); k >= 0 {
		return s[:k]
	}
	return s
}

// limitBody returns the part of body that is parsed under a limit of max
// bytes (0: no limit), and whether anything was cut. A line that the limit
// cuts in two is dropped whole, so that the cut never makes a rule that is
// not in the file ("Allow: /foo-bar" cut to "Allow: /f").
func limitBody(body string, max int) (string, bool) {
	if max <= 0 || len(body) <= max {
		return body, false
	}
	if c := body[max]; c == '\n' || c == '\r' {
		return body[:max], true
	}
	cut := body[:max]
	if k := strings.LastIndexAny(cut, "\r\n"); k >= 0 {
		return cut[:k+1], true
	}
	return "", true
}

// classify reads one line per §2.2's ABNF:
//
//	line = *WS key *WS ":" *WS value *WS [comment] EOL
//
// The returned key and value are substrings of text.
func classify(text string, o *Options) (kind LineKind, key, value, reason string) {
	kind, ks, ke, vs, ve, reason := classifySpan(text, o)
	return kind, text[ks:ke], text[vs:ve], reason
}

// classifySpan is classify giving the key and value as offsets in text, so
// that parsing can keep offsets rather than strings.
func classifySpan(text string, o *Options) (kind LineKind, ks, ke, vs, ve int, reason string) {
	// The comment starts at the first "#"; the name ends at the first
	// colon before it.
	end, hadComment := len(text), false
	if k := strings.IndexByte(text, '#'); k >= 0 {
		end, hadComment = k, true
	}
	sep := strings.IndexByte(text[:end], ':')
	start, end := o.trimSpan(text, 0, end)
	if start == end {
		if hadComment {
			return Comment, 0, 0, 0, 0, ""
		}
		return Blank, 0, 0, 0, 0, ""
	}
	if sep < 0 {
		if !o.MissingColon {
			return Invalid, 0, 0, 0, 0, "no colon after the record name"
		}
		// Google accepts white space as the separator when the line has
		// exactly two words.
		sep = strings.IndexAny(text[start:end], " \t")
		if sep < 0 {
			return Invalid, 0, 0, 0, 0, "no colon after the record name"
		}
		sep += start
		if a, b := o.trimSpan(text, sep, end); strings.ContainsAny(text[a:b], " \t") {
			return Invalid, 0, 0, 0, 0, "no colon after the record name"
		}
	}
	ks, ke = o.trimSpan(text, start, sep)
	vs, ve = o.trimSpan(text, sep+1, end)
	if o.UnicodeSpace {
		ks, ke = trimUnicodeSpace(text, ks, ke)
		vs, ve = trimUnicodeSpace(text, vs, ve)
	}
	if ks == ke {
		return Invalid, 0, 0, 0, 0, "empty record name"
	}
	kind = o.keyKind(text[ks:ke])
	if kind == Allow && o.IgnoreAllow {
		kind = Other
	}
	return kind, ks, ke, vs, ve, ""
}

// trimSpan narrows s[i:j] by the white space the options allow around
// names and values: SP and HTAB (the RFC's WS), or all ASCII white space
// (Google's parser).
func (o *Options) trimSpan(s string, i, j int) (int, int) {
	ws := &spaceTables[0]
	if o.GoogleSpace {
		ws = &spaceTables[1]
	}
	for i < j && ws[s[i]] {
		i++
	}
	for j > i && ws[s[j-1]] {
		j--
	}
	return i, j
}

// spaceTables says which octets are white space around names and values:
// SP and HTAB for the RFC ([0]), all ASCII white space for Google's parser
// ([1]). It is computed once and never changed.
var spaceTables = func() (t [2][256]bool) {
	for c := 0; c < 256; c++ {
		t[0][c] = c == ' ' || c == '\t'
		t[1][c] = isSpaceByte(byte(c))
	}
	return t
}()

// keyKind maps a record name to its kind. Record names are
// case-insensitive (SYN-1).
func (o *Options) keyKind(key string) LineKind {
	if key == "" {
		return Other
	}
	if !o.GoogleKeys {
		switch lowerASCII(key[0]) {
		case 'u':
			if len(key) == len("user-agent") && isKeyword(key, "user-agent") ||
				o.UserAgentTypo && len(key) == len("useragent") && isKeyword(key, "useragent") {
				return UserAgent
			}
		case 'a':
			if len(key) == len("allow") && isKeyword(key, "allow") {
				return Allow
			}
		case 'd':
			if len(key) == len("disallow") && isKeyword(key, "disallow") {
				return Disallow
			}
		}
		return Other
	}
	// Google's parser compares prefixes and accepts frequent misspellings.
	switch lowerASCII(key[0]) {
	case 'u':
		for _, p := range [...]string{"user-agent", "useragent", "user agent"} {
			if hasPrefixFold(key, p) {
				return UserAgent
			}
		}
	case 'a':
		if hasPrefixFold(key, "allow") {
			return Allow
		}
	case 'd':
		for _, p := range [...]string{"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"} {
			if hasPrefixFold(key, p) {
				return Disallow
			}
		}
	}
	return Other
}

// isKeyword reports whether s, of the same length as the lower-case
// keyword kw, spells it in any letter case: equalFold with one side known
// to be lower case.
func isKeyword(s, kw string) bool {
	for i := 0; i < len(kw); i++ {
		if c := s[i]; c != kw[i] && ('A' > c || c > 'Z' || c+'a'-'A' != kw[i]) {
			return false
		}
	}
	return true
}

// hasPrefixFold reports whether s starts with the lower-case prefix in any
// letter case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && isKeyword(s[:len(prefix)], prefix)
}

// IsProductToken reports whether s is a product token as §2.2.1 defines
// it: one or more of a-z, A-Z, "_" and "-" (UA-1). Decisions refuse any
// other agent with ErrInvalidToken.
func IsProductToken(s string) bool { return isToken(s) }

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return true
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}

// validAgent reports whether a decision may be asked for agent: a product
// token (UA-1), or any string with AnyAgent.
func (o *Options) validAgent(agent string) bool { return o.AnyAgent || isToken(agent) }

// names reports whether a user-agent line whose agentName is token names a
// crawler at all. An empty token names none, except under AnyAgent: there,
// as in Google's parser, the empty agent string equals it.
func (o *Options) names(token string) bool { return token != "" || o.AnyAgent }

// agentName returns the token a user-agent value names, as written, and
// whether the value is the "*" of §2.2.1.
func (o *Options) agentName(value string) (token string, star bool) {
	if value == "*" || o.StarPrefix && strings.HasPrefix(value, "*") && (len(value) == 1 || isSpaceByte(value[1])) {
		return "", true
	}
	if o.AgentMatch == AgentLeadingToken {
		i := 0
		for i < len(value) && isTokenByte(value[i]) {
			i++
		}
		value = value[:i]
	}
	return value, false
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// equalFold compares ASCII letters without regard to case and every other
// byte exactly. The ABNF's case-insensitive literals (RFC 5234 §2.3) cover
// ASCII letters only: the Kelvin sign is not "K" (UA-2, SYN-1).
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

// lowerASCIIString lowers ASCII letters only.
func lowerASCIIString(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}
