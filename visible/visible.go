// Package visible writes text so that every character of it can be seen
// and told apart: a robots.txt line, a trace or a parser's answer shown
// on a terminal, in JUnit XML or in the HTML report.
//
// Characters a reader would not see faithfully are written as Go escape
// sequences: control characters (tab and line feed included), format
// characters (bidirectional controls, zero-width characters, the byte
// order mark), white space other than the ASCII space (a no-break space
// looks like a space but is not one to a parser), the line and paragraph
// separators, unassigned code points and the replacement character. Bytes
// that are not UTF-8 are written as \xNN and a backslash as \\, so the
// written form is unambiguous: strconv.UnquoteChar reads the original
// bytes back from it.
package visible

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every character that must be shown escaped
// written as its escape.
func String(s string) string {
	var b strings.Builder
	for _, r := range Runs(s, false) {
		b.WriteString(r.Text)
	}
	return b.String()
}

// Run is a stretch of text to show: plain text, or the escape of one
// character or byte (Escaped). Renderers may mark escaped runs (the HTML
// report draws them in a box); the text never carries markup.
type Run struct {
	Text    string
	Escaped bool
}

// Runs splits s into plain and escaped runs, in order: concatenated,
// their texts are String(s). With keepNewlines a line feed stays a line
// feed, for multi-line text such as a parser's stderr.
func Runs(s string, keepNewlines bool) []Run {
	var runs []Run
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		esc := ""
		switch {
		case r == utf8.RuneError && size == 1:
			esc = `\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:]
		case r == '\\':
			esc = `\\`
		case keepNewlines && r == '\n':
		case mustEscape(r):
			q := strconv.QuoteRuneToASCII(r)
			esc = q[1 : len(q)-1]
		}
		if esc != "" {
			if start < i {
				runs = append(runs, Run{Text: s[start:i]})
			}
			runs = append(runs, Run{Text: esc, Escaped: true})
			start = i + size
		}
		i += size
	}
	if start < len(s) {
		runs = append(runs, Run{Text: s[start:]})
	}
	return runs
}

// mustEscape reports whether a rune is written as an escape: see the
// package documentation.
func mustEscape(r rune) bool {
	if r < utf8.RuneSelf {
		return r != ' ' && !unicode.IsPrint(r)
	}
	return r == utf8.RuneError || !unicode.IsGraphic(r) ||
		unicode.In(r, unicode.Cf, unicode.Zs, unicode.Bidi_Control)
}
