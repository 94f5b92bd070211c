package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// seg is a run of text to show: plain text, or the visible escape of a
// character that would otherwise be invisible or reorder the text around
// it (E). Renderers escape T for their own format; a seg never carries
// markup.
type seg struct {
	T string
	E bool
}

// mustShow reports whether a rune is shown as an escape: control
// characters (tab included), format characters (bidirectional controls,
// zero-width characters, the byte order mark) and the line and paragraph
// separators.
func mustShow(r rune) bool {
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// escapeRune writes the visible form of a rune: \x09, \u202E, \U000E0001.
func escapeRune(r rune) string {
	switch {
	case r < 0x80:
		return fmt.Sprintf(`\x%02X`, r)
	case r <= 0xFFFF:
		return fmt.Sprintf(`\u%04X`, r)
	}
	return fmt.Sprintf(`\U%08X`, r)
}

// segments splits s into plain and escaped runs. Invalid UTF-8 bytes are
// shown as \xNN. When limit > 0, at most limit bytes of s are shown and
// the number of bytes left out is returned.
func segments(s string, limit int) (segs []seg, omitted int) {
	return segmentsKeep(s, limit, false)
}

// segmentsKeep is segments that, with lines set, keeps line feeds as
// they are (for multi-line text such as a parser's stderr).
func segmentsKeep(s string, limit int, lines bool) (segs []seg, omitted int) {
	if limit > 0 && len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if cut == 0 {
			cut = limit
		}
		omitted = len(s) - cut
		s = s[:cut]
	}
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = fmt.Sprintf(`\x%02X`, s[i])
		case lines && r == '\n':
		case mustShow(r):
			esc = escapeRune(r)
		}
		if esc != "" {
			if start < i {
				segs = append(segs, seg{T: s[start:i]})
			}
			segs = append(segs, seg{T: esc, E: true})
			start = i + size
		}
		i += size
	}
	if start < len(s) {
		segs = append(segs, seg{T: s[start:]})
	}
	return segs, omitted
}

// visible returns s with invisible and reordering characters written as
// escapes and cut to limit bytes (0: no cut), for terminals, XML and
// other plain-text forms.
func visible(s string, limit int) string {
	segs, omitted := segments(s, limit)
	var b strings.Builder
	for _, g := range segs {
		b.WriteString(g.T)
	}
	if omitted > 0 {
		fmt.Fprintf(&b, "… (%d more bytes)", omitted)
	}
	return b.String()
}
