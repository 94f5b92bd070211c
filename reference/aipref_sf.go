package reference

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// sfValue is what a usage statement needs of a dictionary member's value:
// whether it is a Token, and which.
type sfValue struct {
	isToken bool
	token   string
}

// parseSFDictionary parses s as a Dictionary of RFC 9651 §4.2.2,
// byte by byte: members are keys with an Item or an Inner List, each with
// parameters, separated by commas and optional white space. A key that
// appears again replaces the earlier value. ok is false when s is not a
// dictionary; an empty s is an empty dictionary.
func parseSFDictionary(s string) (dict map[string]sfValue, ok bool) {
	p := sfParser{s: strings.TrimLeft(s, " ")}
	p.s = strings.TrimRight(p.s, " ")
	dict = map[string]sfValue{}
	for p.i < len(p.s) {
		key, ok := p.key()
		if !ok {
			return nil, false
		}
		var v sfValue
		if p.peek() == '=' {
			p.i++
			if v, ok = p.member(); !ok {
				return nil, false
			}
		} else if !p.params() { // a bare key is Boolean true
			return nil, false
		}
		dict[key] = v
		p.ows()
		if p.i == len(p.s) {
			return dict, true
		}
		if p.peek() != ',' {
			return nil, false
		}
		p.i++
		p.ows()
		if p.i == len(p.s) {
			return nil, false // a trailing comma
		}
	}
	return dict, true
}

type sfParser struct {
	s string
	i int
}

func (p *sfParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// ows skips optional white space (SP and HTAB).
func (p *sfParser) ows() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func isLCAlpha(c byte) bool { return 'a' <= c && c <= 'z' }
func isAlpha(c byte) bool   { return isLCAlpha(c) || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool   { return '0' <= c && c <= '9' }

// key parses a key (§4.2.3.3): lcalpha or "*", then lcalpha, DIGIT, "_",
// "-", "." or "*".
func (p *sfParser) key() (string, bool) {
	start := p.i
	if c := p.peek(); !isLCAlpha(c) && c != '*' {
		return "", false
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !isLCAlpha(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '*' {
			break
		}
		p.i++
	}
	return p.s[start:p.i], true
}

// member parses an Item or an Inner List with its parameters.
func (p *sfParser) member() (sfValue, bool) {
	if p.peek() == '(' {
		return sfValue{}, p.innerList()
	}
	v, ok := p.bareItem()
	return v, ok && p.params()
}

// innerList parses "(" items separated by SP ")" and its parameters
// (§4.2.1.2).
func (p *sfParser) innerList() bool {
	p.i++ // "("
	for {
		for p.peek() == ' ' {
			p.i++
		}
		if p.peek() == ')' {
			p.i++
			return p.params()
		}
		if _, ok := p.bareItem(); !ok || !p.params() {
			return false
		}
		if c := p.peek(); c != ' ' && c != ')' {
			return false
		}
	}
}

// params parses parameters (§4.2.3.2): ";" SP* key ["=" bare item].
func (p *sfParser) params() bool {
	for p.peek() == ';' {
		p.i++
		for p.peek() == ' ' {
			p.i++
		}
		if _, ok := p.key(); !ok {
			return false
		}
		if p.peek() == '=' {
			p.i++
			if _, ok := p.bareItem(); !ok {
				return false
			}
		}
	}
	return true
}

// bareItem parses a Bare Item (§4.2.3.1).
func (p *sfParser) bareItem() (sfValue, bool) {
	switch c := p.peek(); {
	case c == '-' || isDigit(c):
		return sfValue{}, p.number()
	case c == '"':
		return sfValue{}, p.str()
	case isAlpha(c) || c == '*':
		return sfValue{isToken: true, token: p.token()}, true
	case c == ':':
		return sfValue{}, p.bytes()
	case c == '?':
		p.i++
		if c := p.peek(); c != '0' && c != '1' {
			return sfValue{}, false
		}
		p.i++
		return sfValue{}, true
	case c == '@':
		p.i++
		return sfValue{}, p.integer()
	case c == '%':
		return sfValue{}, p.displayString()
	}
	return sfValue{}, false
}

// number parses an Integer or Decimal (§4.2.4): at most 15 digits, or a
// decimal with at most 12 integer and 3 fraction digits.
func (p *sfParser) number() bool {
	if p.peek() == '-' {
		p.i++
	}
	if !isDigit(p.peek()) {
		return false
	}
	intDigits, fracDigits, dot := 0, 0, false
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case isDigit(c) && dot:
			fracDigits++
		case isDigit(c):
			intDigits++
		case c == '.' && !dot:
			if intDigits > 12 {
				return false
			}
			dot = true
		default:
			goto end
		}
		p.i++
		if !dot && intDigits > 15 || dot && fracDigits > 3 {
			return false
		}
	}
end:
	return !dot || fracDigits > 0
}

// integer parses an Integer, as a Date's value (§4.2.9).
func (p *sfParser) integer() bool {
	start := p.i
	if !p.number() {
		return false
	}
	return !strings.Contains(p.s[start:p.i], ".")
}

// str parses a String (§4.2.5): printable ASCII, with backslash escaping
// only DQUOTE and backslash.
func (p *sfParser) str() bool {
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\':
			if n := p.peek(); n != '"' && n != '\\' {
				return false
			}
			p.i++
		case c == '"':
			return true
		case c < 0x20 || c > 0x7E:
			return false
		}
	}
	return false
}

// token parses a Token (§4.2.6): ALPHA or "*", then tchar, ":" or "/".
func (p *sfParser) token() string {
	start := p.i
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !isTokenChar(c) && c != ':' && c != '/' {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

// isTokenChar reports whether c is a tchar of RFC 9110 §5.6.2.
func isTokenChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// bytes parses a Byte Sequence (§4.2.7): base64 between colons.
func (p *sfParser) bytes() bool {
	p.i++
	end := strings.IndexByte(p.s[p.i:], ':')
	if end < 0 {
		return false
	}
	b64 := p.s[p.i : p.i+end]
	p.i += end + 1
	for i := 0; i < len(b64); i++ {
		if c := b64[i]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=' {
			return false
		}
	}
	// Padding may be left out (§4.2.7 lets parsers accept that).
	_, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(b64, "="))
	return err == nil
}

// displayString parses a Display String (§4.2.10): %"…" with lower-case
// %xx escapes, decoding to UTF-8.
func (p *sfParser) displayString() bool {
	p.i++
	if p.peek() != '"' {
		return false
	}
	p.i++
	var out []byte
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '%':
			if p.i+2 > len(p.s) {
				return false
			}
			hi, ok1 := lowerHex(p.s[p.i])
			lo, ok2 := lowerHex(p.s[p.i+1])
			if !ok1 || !ok2 {
				return false
			}
			out = append(out, hi<<4|lo)
			p.i += 2
		case c == '"':
			return utf8.Valid(out)
		case c < 0x20 || c > 0x7E:
			return false
		default:
			out = append(out, c)
		}
	}
	return false
}

func lowerHex(c byte) (byte, bool) {
	switch {
	case isDigit(c):
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
