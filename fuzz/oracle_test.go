package fuzz

import "strings"

// This file is the independent matcher oracle of FuzzMatch. It shares no
// code with the reference: normalisation is written from RFC 9309 §2.2.2
// and RFC 3986 §2.2–2.3, and matching is a simulation of the set of
// pattern positions reachable after each octet (a Thompson NFA), where the
// reference scans greedily and backtracks to the last "*".
//
// What the oracle takes over from the reference's reading, because the RFC
// leaves it open (corpus/requirements.yaml): a "$" that is not the last octet of a
// pattern is a literal "$" (SPC-3), which a URI writes as "$" or "%24";
// a literal "*" or "$" in a URI equals "%2A" / "%24" in a rule (SPC-4);
// hex digits compare without regard to case (PCT-3); a "%" that does not
// start an escape stands for "%25"; in the query, ":/?@[]" equal their
// escapes (§2.2.2's Table 1 matches "?baz=https://foo.bar" with
// "?baz=https%3A%2F%2Ffoo.bar"); the implicit allowance of
// "/robots.txt" (MATCH-7) looks at the normalised path without its query. For the
// Google options the oracle follows Google's published parser instead:
// rules have non-ASCII octets encoded and escape hex digits upper-cased,
// the URI is compared as given.

const hexDigits = "0123456789ABCDEF"

// unreserved3986 reports whether c is unreserved in RFC 3986 §2.3:
// ALPHA / DIGIT / "-" / "." / "_" / "~".
func unreserved3986(c byte) bool {
	switch {
	case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		return true
	}
	return c == '-' || c == '.' || c == '_' || c == '~'
}

// reserved3986 reports whether c is reserved in RFC 3986 §2.2: a gen-delim
// or a sub-delim.
func reserved3986(c byte) bool {
	for i := 0; i < len(":/?#[]@!$&'()*+,;="); i++ {
		if ":/?#[]@!$&'()*+,;="[i] == c {
			return true
		}
	}
	return false
}

// hexValue returns the value of a hex digit.
func hexValue(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// escapeAt returns the octet of the escape "%XX" at s[i], if one is there.
func escapeAt(s string, i int) (byte, bool) {
	if s[i] != '%' || len(s)-i < 3 {
		return 0, false
	}
	hi, ok1 := hexValue(s[i+1])
	lo, ok2 := hexValue(s[i+2])
	return hi<<4 | lo, ok1 && ok2
}

// octetForm is how one octet of a path appears after normalisation.
type octetForm uint8

const (
	plainOctet   octetForm = iota // the octet itself
	encodedOctet                  // "%" and two upper-case hex digits
	wildcard                      // "*" in a rule
)

// normalUnit is one unit of a normalised path: an octet in a form, or a
// wildcard.
type normalUnit struct {
	form  octetForm
	octet byte
}

// rfcUnits reads s as RFC 9309 §2.2.2 asks: every escape is read (an
// escape of an unreserved character is that character, any other keeps its
// encoding), every octet that RFC 3986 allows in a URI stays itself, every
// other octet is encoded; after the first "?", an escape of a gen-delim
// but "#" is that delimiter (Table 1 of §2.2.2 equates "://" and
// "%3A%2F%2F" in a query). In a rule (rule true), "*" is the wildcard; s
// has no final "$" (the caller removes the anchor).
func rfcUnits(s string, rule bool) []normalUnit {
	units := make([]normalUnit, 0, len(s))
	query := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if v, ok := escapeAt(s, i); ok {
			if unreserved3986(v) || query && strings.IndexByte(":/?@[]", v) >= 0 {
				units = append(units, normalUnit{plainOctet, v})
			} else {
				units = append(units, normalUnit{encodedOctet, v})
			}
			i += 2
			continue
		}
		switch {
		case c == '%':
			units = append(units, normalUnit{encodedOctet, '%'})
		case rule && c == '*':
			units = append(units, normalUnit{form: wildcard})
		case c == '*' || c == '$':
			// In a URI these are literal octets; in a rule, "$" here is
			// not the anchor. Both compare equal to their escapes.
			units = append(units, normalUnit{encodedOctet, c})
		case unreserved3986(c) || reserved3986(c):
			query = query || c == '?'
			units = append(units, normalUnit{plainOctet, c})
		default:
			units = append(units, normalUnit{encodedOctet, c})
		}
	}
	return units
}

// googleRuleUnits reads a rule path as Google's parser stores it: an
// escape keeps its place with its hex digits upper-cased, a non-ASCII
// octet is encoded, everything else (even a control octet or a space)
// stays as written; "*" is the wildcard.
func googleRuleUnits(s string) []normalUnit {
	units := make([]normalUnit, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if v, ok := escapeAt(s, i); ok {
			units = append(units, normalUnit{encodedOctet, v})
			i += 2
			continue
		}
		switch {
		case c == '*':
			units = append(units, normalUnit{form: wildcard})
		case c >= 0x80:
			units = append(units, normalUnit{encodedOctet, c})
		default:
			units = append(units, normalUnit{plainOctet, c})
		}
	}
	return units
}

// render writes units as the octets that are compared; wildcards become
// "*", which no other unit renders as (a literal "*" is encoded in RFC
// mode, and in Google mode the rule has no literal "*").
func render(units []normalUnit) []byte {
	out := make([]byte, 0, len(units)+8)
	for _, u := range units {
		switch u.form {
		case plainOctet:
			out = append(out, u.octet)
		case encodedOctet:
			out = append(out, '%', hexDigits[u.octet>>4], hexDigits[u.octet&15])
		case wildcard:
			out = append(out, '*')
		}
	}
	return out
}

// oraclePattern is a rule compiled by the oracle: the octets to compare,
// in which '*' is the wildcard, and whether the rule was anchored by a
// final "$".
type oraclePattern struct {
	octets   []byte
	anchored bool
	empty    bool // the rule's path is empty: it matches nothing (PAT-2)
}

func compileOracle(rulePath string, google bool) oraclePattern {
	p := oraclePattern{empty: rulePath == ""}
	if n := len(rulePath); n > 0 && rulePath[n-1] == '$' {
		p.anchored = true
		rulePath = rulePath[:n-1]
	}
	if google {
		p.octets = render(googleRuleUnits(rulePath))
	} else {
		p.octets = render(rfcUnits(rulePath, true))
	}
	return p
}

// oraclePath returns the octets of a URI path (with query, without
// fragment) that rules are compared with.
func oraclePath(path string, google bool) []byte {
	for i := 0; i < len(path); i++ {
		if path[i] == '#' {
			path = path[:i]
			break
		}
	}
	if google {
		// Google's parser reads the URI as a C string: a NUL ends it.
		path, _, _ = strings.Cut(path, "\x00")
		return []byte(path)
	}
	return render(rfcUnits(path, false))
}

// matches reports whether the pattern matches path: a prefix of path, or
// all of it when anchored. It keeps the set of pattern positions that the
// octets read so far can reach (a position before a '*' also reaches the
// one after it without reading; a '*' position stays put on any octet),
// as a list with a generation stamp per position to keep it duplicate-free.
func (p oraclePattern) matches(path []byte) bool {
	if p.empty {
		return false
	}
	pat := p.octets
	end := len(pat)
	stamp := make([]int, end+1)
	gen := 1
	add := func(set []int, i int) []int {
		for stamp[i] != gen {
			stamp[i] = gen
			set = append(set, i)
			if i == end || pat[i] != '*' {
				break
			}
			i++
		}
		return set
	}
	cur := add(nil, 0)
	var next []int
	for _, c := range path {
		if stamp[end] == gen && !p.anchored {
			return true
		}
		gen++
		next = next[:0]
		for _, i := range cur {
			switch {
			case i == end:
			case pat[i] == '*':
				next = add(next, i)
			case pat[i] == c:
				next = add(next, i+1)
			}
		}
		if len(next) == 0 {
			return false
		}
		cur, next = next, cur
	}
	return stamp[end] == gen
}

// isRobotsTxtPath reports whether the normalised path, without its query,
// is "/robots.txt" (MATCH-7).
func isRobotsTxtPath(path []byte) bool {
	for i, c := range path {
		if c == '?' {
			path = path[:i]
			break
		}
	}
	return string(path) == "/robots.txt"
}
