package report

import (
	"fmt"
	"unicode/utf8"

	vis "github.com/reptest/reptest/visible"
)

// seg is a run of text to show: plain, or the escape of one character
// (package visible writes them; renderers escape the text for their own
// format).
type seg = vis.Run

// segments splits s into plain and escaped runs. When limit > 0, at most
// limit bytes of s are shown and the number of bytes left out is returned.
func segments(s string, limit int) (segs []seg, omitted int) {
	return segmentsKeep(s, limit, false)
}

// segmentsKeep is segments that, with lines set, keeps line feeds as
// they are (for multi-line text such as a parser's stderr).
func segmentsKeep(s string, limit int, lines bool) (segs []seg, omitted int) {
	s, omitted = cutAt(s, limit)
	return vis.Runs(s, lines), omitted
}

// cutAt cuts s to at most limit bytes (0: no cut) without splitting a
// character, and returns how many bytes it left out.
func cutAt(s string, limit int) (string, int) {
	if limit <= 0 || len(s) <= limit {
		return s, 0
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if cut == 0 {
		cut = limit
	}
	return s[:cut], len(s) - cut
}

// visible returns s with invisible and reordering characters written as
// escapes and cut to limit bytes (0: no cut), for terminals, XML and
// other plain-text forms.
func visible(s string, limit int) string {
	s, omitted := cutAt(s, limit)
	out := vis.String(s)
	if omitted > 0 {
		out += fmt.Sprintf("… (%d more bytes)", omitted)
	}
	return out
}
