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

// scanLines calls fn for each line of body (after any byte order mark) with
// its number, the offset of its first byte and its text. A line ends at
// CR, LF or CRLF (§2.2, SYN-3); the text passed to fn holds no line-end
// characters and is cut to o.MaxLineBytes and, with o.NULEndsLine, at a NUL.
func scanLines(body string, o *Options, fn func(n, start int, text string)) {
	i := 0
	if o.SkipBOM {
		const bom = "\xEF\xBB\xBF"
		if strings.HasPrefix(body, bom) {
			i = 3
		} else if o.SkipPartialBOM {
			for i < 3 && i < len(body) && body[i] == bom[i] {
				i++
			}
		}
	}
	n := 0
	for i <= len(body) {
		// Find the line end: the first CR or LF. Lines are short, so a
		// plain loop beats the vectorised search's call overhead; a long
		// line switches to it.
		end := i
		for end < len(body) && end-i < 64 && body[end] != '\n' && body[end] != '\r' {
			end++
		}
		if end-i == 64 {
			// One search for whichever line end comes first: searching
			// for LF alone would cross a whole CR-only file per line.
			end = len(body)
			if j := strings.IndexAny(body[i:], "\r\n"); j >= 0 {
				end = i + j
			}
		}
		text := body[i:end]
		if o.MaxLineBytes > 0 && len(text) > o.MaxLineBytes {
			text = text[:o.MaxLineBytes]
		}
		if o.NULEndsLine {
			text = cutNUL(text)
		}
		n++
		if end == len(body) {
			// The last line: skip it when empty, so that a final line end
			// does not count as one more (blank) line.
			if len(text) > 0 {
				fn(n, i, text)
			}
			return
		}
		fn(n, i, text)
		i = end + 1
		if body[end] == '\r' && i < len(body) && body[i] == '\n' {
			i++
		}
	}
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
	// One pass finds the comment and the first colon before it.
	hadComment := false
	end, sep := len(text), -1
	for k := 0; k < len(text); k++ {
		if c := text[k]; c == '#' {
			end, hadComment = k, true
			break
		} else if c == ':' && sep < 0 {
			sep = k
		}
	}
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
	if ks == ke {
		return Invalid, 0, 0, 0, 0, "empty record name"
	}
	return o.keyKind(text[ks:ke]), ks, ke, vs, ve, ""
}

// trimSpan narrows s[i:j] by the white space the options allow around
// names and values: SP and HTAB (the RFC's WS), or all ASCII white space
// (Google's parser).
func (o *Options) trimSpan(s string, i, j int) (int, int) {
	for i < j && o.isWS(s[i]) {
		i++
	}
	for j > i && o.isWS(s[j-1]) {
		j--
	}
	return i, j
}

func (o *Options) isWS(c byte) bool {
	if o.GoogleSpace {
		return isSpaceByte(c)
	}
	return c == ' ' || c == '\t'
}

// keyKind maps a record name to its kind. Record names are
// case-insensitive (SYN-1).
func (o *Options) keyKind(key string) LineKind {
	if !o.GoogleKeys {
		switch len(key) {
		case len("user-agent"):
			if equalFold(key, "user-agent") {
				return UserAgent
			}
		case len("allow"):
			if equalFold(key, "allow") {
				return Allow
			}
		case len("disallow"):
			if equalFold(key, "disallow") {
				return Disallow
			}
		}
		return Other
	}
	// Google's parser compares prefixes and accepts frequent misspellings.
	for _, p := range [...]string{"user-agent", "useragent", "user agent"} {
		if hasPrefixFold(key, p) {
			return UserAgent
		}
	}
	if hasPrefixFold(key, "allow") {
		return Allow
	}
	for _, p := range [...]string{"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"} {
		if hasPrefixFold(key, p) {
			return Disallow
		}
	}
	return Other
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFold(s[:len(prefix)], prefix)
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
