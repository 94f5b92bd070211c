package reference

import (
	"bytes"
	"strings"
)

// This file implements §2.2.2 and §2.2.3: percent-encoding normalisation of
// rule paths and URIs, and matching with "*" and "$".

const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// isUnreserved reports whether c is in RFC 3986's unreserved set:
// ALPHA / DIGIT / "-" / "." / "_" / "~".
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// mustEncode reports whether an octet may not stand unencoded in a URI:
// non-ASCII (PCT-1), controls, space, and the ASCII characters RFC 3986
// allows neither as reserved nor as unreserved.
func mustEncode(c byte) bool {
	if c <= 0x20 || c >= 0x7F {
		return true
	}
	switch c {
	case '"', '<', '>', '\\', '^', '`', '{', '|', '}':
		return true
	}
	return false
}

func appendEscape(dst []byte, c byte) []byte {
	return append(dst, '%', upperHex[c>>4], upperHex[c&15])
}

// The byte classes of the normalisation alphabet: how a path octet must be
// written in the canonical form.
const (
	keep   = iota // as it is
	escape        // percent-encoded
	pct           // "%": start of an escape, or a stray one
	qmark         // "?": the query starts after the first one
	dollar        // "$" in a rule path: a literal unless it ends the path (SPC-3)
)

// canonicalClass says how normalisation treats octet c of a URI (uri true)
// or of a rule path.
func canonicalClass(c byte, uri bool) int {
	switch {
	case c == '%':
		return pct
	case mustEncode(c):
		return escape
	case uri && (c == '*' || c == '$'):
		// A literal "*" or "$" in the URI can only be matched by "%2A" or
		// "%24" in a rule (§2.2.3, SPC-4), since in rules they are special.
		return escape
	case c == '?':
		return qmark
	case !uri && c == '$':
		return dollar
	}
	return keep
}

// isQueryData reports whether c is one of the delimiters of RFC 3986 that
// can only be data in a query, where §2.2.2 takes an octet and its escape
// as one: the second row of its Table 1 matches
// "/foo/bar?baz=https://foo.bar" with "/foo/bar?baz=https%3A%2F%2Ffoo.bar".
// Normalisation writes them plain in the query, so that a rule written
// plainly, "Disallow: /*url=http://", still reaches into the query across
// its "*". In the path they delimit, and "/a%2Fb" is not "/a/b".
func isQueryData(c byte) bool {
	switch c {
	case ':', '/', '?', '@', '[', ']':
		return true
	}
	return false
}

// classes holds canonicalClass for every octet, for URIs ([1]) and rule
// paths ([0]); it is computed once and never changed.
var classes = func() (t [2][256]uint8) {
	for c := 0; c < 256; c++ {
		t[0][c] = uint8(canonicalClass(byte(c), false))
		t[1][c] = uint8(canonicalClass(byte(c), true))
	}
	return t
}()

// classTable returns the class table for a URI or a rule path.
func classTable(uri bool) *[256]uint8 {
	if uri {
		return &classes[1]
	}
	return &classes[0]
}

// appendCanonical appends the normalised form of s per §2.2.2 (RFC mode):
// octets that may not stand in a URI are percent-encoded, escapes of
// unreserved characters are decoded (PCT-2), and so are escapes of the
// delimiters ":/?@[]" in the query (see isQueryData), other escapes keep
// their encoding with upper-case hex digits (PCT-3), and a "%" that starts
// no escape becomes "%25". In a rule
// path (uri false), "*" is left for the matcher; the caller removes a final
// "$" before calling. With all (Options.DecodeAllEscapes), escapes of
// reserved characters are decoded too, except those of "%", "*", "$"
// and "?", which would change what the path means to the matcher.
func appendCanonical(dst []byte, s string, uri, all bool) []byte {
	class := classTable(uri)
	query := false
	for i := 0; i < len(s); i++ {
		// Copy the run of octets that stay as they are in one go.
		j := i
		for j < len(s) && class[s[j]] == keep {
			j++
		}
		dst = append(dst, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		switch class[c] {
		case escape, dollar:
			// "$" anywhere but at the end of a rule is a literal (SPC-3).
			dst = appendEscape(dst, c)
		case qmark:
			dst = append(dst, c)
			query = true
		case pct:
			if i+2 < len(s) {
				hi, ok1 := unhex(s[i+1])
				lo, ok2 := unhex(s[i+2])
				if ok1 && ok2 {
					v := hi<<4 | lo
					if isUnreserved(v) || query && isQueryData(v) || all && classes[1][v] == keep {
						dst = append(dst, v)
					} else {
						dst = appendEscape(dst, v)
					}
					i += 2
					continue
				}
			}
			dst = append(dst, "%25"...)
		}
	}
	return dst
}

// isCanonical reports whether appendCanonical would return s unchanged, so
// that the common case needs no copy.
func isCanonical(s string, uri, all bool) bool {
	class := classTable(uri)
	query := false
	for i := 0; i < len(s); i++ {
		// Skip octets that stay as they are, four at a time (keep is 0):
		// most paths are made of them only.
		for i+4 <= len(s) && class[s[i]]|class[s[i+1]]|class[s[i+2]]|class[s[i+3]] == keep {
			i += 4
		}
		for i < len(s) && class[s[i]] == keep {
			i++
		}
		if i == len(s) {
			break
		}
		switch class[s[i]] {
		case qmark:
			query = true
		case escape, dollar:
			return false
		case pct:
			if i+2 >= len(s) {
				return false
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 || isUnreserved(hi<<4|lo) || query && isQueryData(hi<<4|lo) || all && classes[1][hi<<4|lo] == keep ||
				!('0' <= s[i+1] && s[i+1] <= '9' || 'A' <= s[i+1] && s[i+1] <= 'F') ||
				!('0' <= s[i+2] && s[i+2] <= '9' || 'A' <= s[i+2] && s[i+2] <= 'F') {
				return false
			}
			i += 2
		}
	}
	return true
}

// appendGoogleEscape appends a rule path as Google's parser stores it:
// non-ASCII octets percent-encoded and the hex digits of existing escapes
// upper-cased; nothing else changes.
func appendGoogleEscape(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			dst = append(dst, '%', upper(s[i+1]), upper(s[i+2]))
			i += 2
		case c >= 0x80:
			dst = appendEscape(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func isHex(c byte) bool { _, ok := unhex(c); return ok }

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// pattern is a compiled rule path; its text is held apart (see compileTo).
type pattern struct {
	// end is the length of the text: the normalised path with "*" as the
	// only special octet. A run of "*" matches what one "*" does.
	end int32
	// lit is the length of the literal prefix before the first "*".
	lit int32
	// length is the rule's length in octets for longest-match: the
	// normalised path with every "*" and "$" counted (MATCH-4, MATCH-10).
	length int32
	// anchored is set when the rule ended in "$" (SPC-2): the pattern must
	// match the whole path, not only a prefix of it.
	anchored bool
}

// compileTo turns a rule's value into a pattern and its text.
// Compilation is a pure function of the value and the options. When no
// octet had to change, changed is false and the text is value[:p.end], a
// prefix of the value; otherwise the text is written over dst (so that a
// caller with a buffer of its own allocates nothing) and returned.
func compileTo(dst []byte, value string, o *Options) (p pattern, text []byte, changed bool) {
	dst = dst[:0]
	// PAT-1's optional reading: "private" is "/private".
	slash := o.SlashlessPatterns && value != "" && value[0] != '/' && value[0] != '*'
	body, anchored := strings.CutSuffix(value, "$")
	if o.LiteralDollar {
		body, anchored = value, false
	}
	p.anchored = anchored
	midDollars := 0
	switch {
	case o.RawPaths:
		if slash {
			text, changed = append(append(dst, '/'), body...), true
		}
	case o.NormalizeURI && (slash || !isCanonical(body, false, o.DecodeAllEscapes)):
		midDollars = strings.Count(body, "$")
		if slash {
			dst = append(dst, '/')
		}
		text, changed = appendCanonical(dst, body, false, o.DecodeAllEscapes), true
	case !o.NormalizeURI && (slash || needsGoogleEscape(body)):
		if slash {
			dst = append(dst, '/')
		}
		text, changed = appendGoogleEscape(dst, body), true
	}
	// The rule's length counts the octets before "*" runs are collapsed;
	// a literal "$" inside the pattern is stored as "%24" but is one octet
	// of the rule as written.
	n := len(body)
	if changed {
		n = len(text)
	}
	p.length = int32(n - 2*midDollars)
	if p.anchored {
		p.length++
	}
	if !changed && o.CaseInsensitivePaths && hasUpper(body) {
		text, changed = append(dst, body...), true
	}
	if !changed {
		p.lit, p.end = int32(indexOrLen(body, '*')), int32(n)
		if o.patternMisread() {
			return o.misreadPattern(value, p, nil, false)
		}
		return p, nil, false
	}
	if o.CaseInsensitivePaths {
		for i, c := range text {
			text[i] = lowerASCII(c)
		}
	}
	p.lit, p.end = int32(len(text)), int32(len(text))
	if i := bytes.IndexByte(text, '*'); i >= 0 {
		p.lit = int32(i)
	}
	if o.patternMisread() {
		return o.misreadPattern(value, p, text, true)
	}
	return p, text, true
}

// needsGoogleEscape reports whether appendGoogleEscape would change s.
func needsGoogleEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return true
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			if upper(s[i+1]) != s[i+1] || upper(s[i+2]) != s[i+2] {
				return true
			}
			i += 2
		}
	}
	return false
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// collapseStars collapses each run of "*" in b to one, in place: "a**b"
// matches what "a*b" matches.
func collapseStars(b []byte) []byte {
	out := b[:0]
	for i, c := range b {
		if c == '*' && i > 0 && b[i-1] == '*' {
			continue
		}
		out = append(out, c)
	}
	return out
}

// indexOrLen returns the offset of the first c in s, or len(s).
func indexOrLen(s string, c byte) int {
	if i := strings.IndexByte(s, c); i >= 0 {
		return i
	}
	return len(s)
}

// matchText reports whether the pattern, whose text is t, a string (the
// path as written) or a buffer (a path normalisation changed), matches
// path (§2.2.2): a prefix of path when the pattern is not anchored, all of
// it when it is. "*" matches any run of octets (SPC-1). As "*" is the only
// wildcard, the literal segments between stars can be placed one after
// the other, each at its first place after the one before: a later place
// leaves less of the path for the rest, so never helps. Only an anchored
// pattern's last segment has one place, the path's end. Places are found
// by their first octet (bytes.IndexByte). The time is
// O(len(path)·len(pattern)) in the worst case and nothing is allocated.
func matchText[T string | []byte](p *pattern, t T, path []byte) bool {
	lit := int(p.lit)
	if len(path) < lit || string(path[:lit]) != string(t[:lit]) {
		return false
	}
	if lit == len(t) {
		return !p.anchored || len(path) == lit
	}
	pi, si := lit, lit // t[pi] is a "*"
segments:
	for {
		for pi < len(t) && t[pi] == '*' {
			pi++
		}
		if pi == len(t) {
			return true // a last "*" matches the rest of the path
		}
		for {
			j := bytes.IndexByte(path[si:], t[pi])
			if j < 0 {
				return false
			}
			x := si + j
			q, y := pi, x
			for q < len(t) && t[q] != '*' && y < len(path) && t[q] == path[y] {
				q++
				y++
			}
			switch {
			case q < len(t) && t[q] == '*':
				pi, si = q, y
				continue segments
			case q == len(t) && (!p.anchored || y == len(path)):
				return true
			case q == len(t):
				// The anchored last segment, not at the end: its one
				// place is the end of the path.
				n := q - pi
				return len(path)-si >= n && string(path[len(path)-n:]) == string(t[pi:q])
			}
			si = x + 1
		}
	}
}

// appendPath appends the path that rules are matched against: the URI's
// path and query (MATCH-11, see PathQuery), normalised when o.NormalizeURI
// is set.
func (o *Options) appendPath(dst []byte, uri string) []byte {
	pq, slash := pathQuery(uri, o.SemicolonEndsHost)
	if o.NULEndsLine {
		pq = cutNUL(pq)
	}
	if slash {
		dst = append(dst, '/')
	}
	if o.IgnoreQuery {
		pq, _, _ = strings.Cut(pq, "?")
	}
	if o.NormalizeURI {
		dst = appendCanonical(dst, pq, true, o.DecodeAllEscapes)
	} else {
		dst = append(dst, pq...)
	}
	if o.CaseInsensitivePaths {
		for i, c := range dst {
			if 'A' <= c && c <= 'Z' {
				dst[i] = c + 'a' - 'A'
			}
		}
	}
	return dst
}
