package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/reptest/reptest/result"
	vis "github.com/reptest/reptest/visible"
)

// diffText writes the terminal summary of a differential run: the
// diagnosis, then the summary (writeDiffText).
func diffText(w io.Writer, d *result.Document, top int) error {
	if d.Interrupted {
		if _, err := fmt.Fprintf(w, "INTERRUPTED: %s; these results cover the files compared by then, without a diagnosis.\n\n", visible(didNotFinish(d), 550)); err != nil {
			return err
		}
	}
	if err := writeDiagnosis(w, d.Diagnosis); err != nil {
		return err
	}
	return writeDiffText(w, d.Summary, top)
}

// MaxExampleLines is the most lines of a robots.txt the differential
// summary shows per group.
const MaxExampleLines = 5

// writeDiffText writes a differential run's summary for a terminal: totals, the pair table and
// the top groups (all when top ≤ 0) with one example each. Bodies, agents
// and URLs are shown with control, format and bidirectional characters
// escaped.
func writeDiffText(w io.Writer, s *result.DiffSummary, top int) error {
	ew := &errWriter{w: w}
	ew.printf("reptest diff: %d parsers (%s), %d files, %d probes\n", len(s.Parsers), strings.Join(s.Parsers, ", "), s.Files, s.Probes)
	if s.Duplicates > 0 {
		ew.printf("%d inputs read, %d of them duplicates of a body compared once\n", s.Responses, s.Duplicates)
	}
	ew.printf("%d probes disagree (%s) in %d files; %d distinct findings in %d groups\n\n",
		s.Disagreements, pct(s.Disagreements, s.Probes), s.FilesWithDisagreements, s.Findings, len(s.Groups))
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "pair\t\tprobes\tdisagree\tshare\tfiles\tdisagree\tshare\t\n")
	for _, p := range s.Pairs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%d\t%s\t\n", p.A, p.B, p.Probes, p.ProbeDisagreements, pct(p.ProbeDisagreements, p.Probes),
			p.Files, p.FileDisagreements, pct(p.FileDisagreements, p.Files))
	}
	tw.Flush()
	groups := s.Groups
	shown := groups
	if top > 0 && len(shown) > top {
		shown = shown[:top]
	}
	if len(shown) > 0 {
		ew.printf("\ntop groups (%d of %d; the largest group of each primary requirement first):\n", len(shown), len(groups))
	}
	for i, g := range shown {
		ew.printf("\n%d. %s  %s  (%d files, %d probes, %d findings; req %s)\n", i+1, g.Signature, g.Primary, g.Files, g.Probes, g.Findings, strings.Join(g.Example.Req, " "))
		writeExample(ew, &g.Example)
	}
	if rest := groups[len(shown):]; len(rest) > 0 {
		ew.printf("\nother groups:\n")
		for i, g := range rest {
			ew.printf("%d. %s  %s  (%d files, %d probes, %d findings)\n", len(shown)+i+1, g.Signature, g.Primary, g.Files, g.Probes, g.Findings)
		}
	}
	return ew.err
}

func writeExample(ew *errWriter, f *result.Finding) {
	ew.printf("   agent %s  url %s\n", vis.String(f.Agent), vis.String(f.URL))
	lines := linesWithEnds(string(f.Robots))
	if len(lines) == 0 {
		ew.printf("   | (empty file)\n")
	}
	for i, l := range lines {
		if i == MaxExampleLines {
			ew.printf("   | … %d more lines\n", len(lines)-i)
			break
		}
		text, eol := cutEOL(l)
		mark := ""
		switch eol {
		case "\r":
			mark = `\r`
		case "\r\n":
			mark = `\r\n`
		}
		ew.printf("   | %s%s\n", vis.String(text), mark)
	}
	if f.Trace != "" {
		ew.printf("   reference: %s\n", vis.String(f.Trace))
	}
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, args ...any) { fmt.Fprintf(e, format, args...) }

// linesWithEnds splits body into lines, each with its line end (CR, LF
// or CRLF), so that the summary can show which end a line has.
func linesWithEnds(body string) []string {
	var lines []string
	for len(body) > 0 {
		i := strings.IndexAny(body, "\r\n")
		if i < 0 {
			return append(lines, body)
		}
		end := i + 1
		if body[i] == '\r' && end < len(body) && body[end] == '\n' {
			end++
		}
		lines, body = append(lines, body[:end]), body[end:]
	}
	return lines
}

// cutEOL splits a line from its line end.
func cutEOL(line string) (text, eol string) {
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		return line[:i], line[i:]
	}
	return line, ""
}
