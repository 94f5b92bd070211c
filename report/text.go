package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/reptest/reptest/result"

	"github.com/reptest/reptest/reference"
)

// TextOptions controls the terminal summary.
type TextOptions struct {
	// Verbose lists every failing check with its robots.txt, agent, URL,
	// expected and actual verdicts and the reference's trace.
	Verbose bool
	// Color uses ANSI colours; set it only when writing to a terminal
	// (see IsTerminal).
	Color bool
	// Top is how many groups of a differential run's findings are shown
	// with an example (0: all); the others are listed by name.
	Top int
}

// DefaultTop is the Top of reptest diff and reptest report.
const DefaultTop = 15

// IsTerminal reports whether w is a character device such as a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// palette holds the escape sequences of the terminal form; all empty
// without colour.
type palette struct{ bold, dim, red, yellow, magenta, cyan, green, reset string }

func newPalette(color bool) palette {
	if !color {
		return palette{}
	}
	return palette{bold: "\x1b[1m", dim: "\x1b[2m", red: "\x1b[31m", yellow: "\x1b[33m",
		magenta: "\x1b[35m", cyan: "\x1b[36m", green: "\x1b[32m", reset: "\x1b[0m"}
}

func (p palette) outcome(o result.Outcome) string {
	switch o {
	case result.Pass:
		return p.green
	case result.Note:
		return p.cyan
	case result.Deviation:
		return p.yellow
	case result.Violation:
		return p.red
	case result.Error:
		return p.magenta
	}
	return p.dim
}

// Text writes the terminal summary of a document: per parser the counts
// of each outcome and whether it conforms; with Verbose, every failing
// check. Text from cases and parsers is shown with control and
// bidirectional characters escaped, so it cannot drive the terminal.
//
// An audit's document is written as reptest audit prints it (AuditText).
func Text(w io.Writer, d *result.Document, o TextOptions) error {
	if d.Audit != nil {
		return AuditText(w, d.Audit)
	}
	if d.Summary != nil && !d.Summary.FindingsOnly && len(d.Results) == 0 {
		return diffText(w, d, o.Top)
	}
	bw := bufio.NewWriter(w)
	p := newPalette(o.Color)
	t := &textWriter{w: bw, p: p, d: d}
	t.header()
	if len(d.Diagnosis) > 0 {
		writeDiagnosis(bw, d.Diagnosis)
		bw.WriteString("\n")
	}
	t.summaries()
	failures := t.failures()
	if o.Verbose {
		t.details(failures)
	} else if len(failures) > 0 {
		t.printf("\n%s (deviations, violations, errors); run with -v to list each.\n", plural(len(failures), "failing check"))
	}
	t.unexpected()
	t.findings(o.Verbose)
	if t.d.Interrupted {
		t.printf("\n")
		t.interrupted()
	}
	return bw.Flush()
}

type textWriter struct {
	w *bufio.Writer
	p palette
	d *result.Document
}

func (t *textWriter) printf(format string, args ...any) { fmt.Fprintf(t.w, format, args...) }

func (t *textWriter) header() {
	d := t.d
	strict := ""
	if d.Strict {
		strict = ", strict"
	}
	drafts := ""
	if d.Drafts != "" {
		drafts = " (" + visible(d.Drafts, 300) + ")"
	}
	shard := ""
	if sel := d.Selection; sel != nil && sel.Shard != "1/1" {
		shard = fmt.Sprintf(", shard %s: %d of %d cases", visible(sel.Shard, 40), sel.ShardCases, sel.Cases)
	}
	t.printf("%sreptest %s%s  profile %s%s%s%s, %d results\n\n", t.p.bold, visible(d.Version, 40), t.p.reset, visible(d.Profile, 40), drafts, strict, shard, len(d.Results))
	if d.CrawlLayout != "" {
		note := ""
		if d.CrawlLayoutNote != "" {
			note = ": " + visible(d.CrawlLayoutNote, 500)
		}
		t.printf("crawl layout: %s%s\n\n", visible(d.CrawlLayout, 40), note)
	}
	t.interrupted()
}

// interrupted says, when the run was interrupted, that its results are
// incomplete; Text says it first and last, where it cannot be missed.
func (t *textWriter) interrupted() {
	if !t.d.Interrupted {
		return
	}
	t.printf("%s%sINTERRUPTED%s: %s; these results are incomplete.\n\n", t.p.bold, t.p.red, t.p.reset, visible(didNotFinish(t.d), 550))
}

// didNotFinish is what the reports say of an interrupted run d: that it
// did not finish, and why when it is known.
func didNotFinish(d *result.Document) string {
	if d.InterruptReason == "" {
		return "the run did not finish"
	}
	return "the run did not finish (" + d.InterruptReason + ")"
}

func (t *textWriter) summaries() {
	d, p := t.d, t.p
	fails := d.FailureCounts()
	width, vwidth := len("parser"), 12
	for _, s := range d.Parsers {
		width = max(width, len(visible(s.Name, 40)))
		// A crawler's version is a program's whole --version line.
		vwidth = max(vwidth, len([]rune(visible(s.Version, 40))))
	}
	t.printf("%s%-*s  %-*s %6s %6s %5s %5s %5s %5s %5s  %s%s\n", p.dim, width, "parser", vwidth, "version", "checks", "pass", "note", "dev", "viol", "err", "skip", "conforms", p.reset)
	for _, s := range d.Parsers {
		conf := p.green + "yes" + p.reset
		switch {
		case s.NotRun != "":
			conf = p.red + "NOT RUN" + p.reset
		case !s.Conforms:
			conf = p.red + "NO" + p.reset
			if len(d.Expected) > 0 {
				conf += fmt.Sprintf(" (%d new, %d expected)", fails[s.Name].New, fails[s.Name].Known)
			}
		}
		t.printf("%-*s  %-*s %6d %6d %5s %5s %5s %5s %5d  %s\n", width, visible(s.Name, 40), vwidth, visible(s.Version, 40),
			s.Checks, s.Pass, colorCount(p.cyan, p.reset, s.Note, 5), colorCount(p.yellow, p.reset, s.Deviations, 5),
			colorCount(p.red, p.reset, s.Violations, 5), colorCount(p.magenta, p.reset, s.Errors, 5), s.Skipped, conf)
	}
	for _, s := range d.Parsers {
		if s.NotRun != "" {
			t.printf("%s%s did not run%s: %s\n", p.red, visible(s.Name, 40), p.reset, visible(s.NotRun, 500))
		}
	}
}

// colorCount right-aligns n in width columns, coloured when not zero.
func colorCount(color, reset string, n, width int) string {
	s := fmt.Sprintf("%*d", width, n)
	if n == 0 || color == "" {
		return s
	}
	return color + s + reset
}

// failures returns the failing results in document order.
func (t *textWriter) failures() []result.Result {
	var out []result.Result
	for _, r := range t.d.Results {
		if r.Outcome.Fails(true) {
			out = append(out, r)
		}
	}
	return out
}

// details prints each failing check, grouped by (case, check).
func (t *textWriter) details(fs []result.Result) {
	p := t.p
	exp := t.d.ExpectedIndex()
	for i := 0; i < len(fs); {
		j := i
		for j < len(fs) && fs[j].Case == fs[i].Case && fs[j].Check == fs[i].Check {
			j++
		}
		r := fs[i]
		ci := t.d.Cases[r.Case]
		t.printf("\n%s── %s · check %d · %s %s", p.bold, visible(r.Case, 200), r.Check, visible(string(r.Level), 20), visible(strings.Join(r.Req, " "), 200))
		if r.Step != "" {
			t.printf(" · at %s", visible(r.Step, 20))
		}
		t.printf("%s\n", p.reset)
		if title := r.Title; title != "" {
			t.printf("   %s\n", visible(title, 300))
		} else if ci != nil && ci.Title != "" {
			t.printf("   %s\n", visible(ci.Title, 300))
		}
		if ci != nil && ci.Source != "" {
			t.printf("   %s%s%s\n", p.dim, visible(ci.Source, 300), p.reset)
		}
		t.printf("   agent %s  url %s\n", visible(r.Agent, 200), visible(r.URL, 500))
		want := string(r.Expect)
		for _, a := range r.Accept {
			want += " or " + string(a)
		}
		switch {
		case r.Rule == nil:
		case *r.Rule == 0:
			want += " (no rule should match)"
		default:
			want += fmt.Sprintf(" (deciding rule at line %d)", *r.Rule)
		}
		t.printf("   expected %s\n", visible(want, 100))
		for _, x := range fs[i:j] {
			got := string(x.Verdict)
			if got == "" {
				got = "-"
			}
			t.printf("   %-14s %-9s %s%s%s", visible(x.Parser, 40), visible(got, 20), p.outcome(x.Outcome), strings.ToUpper(string(x.Outcome)), p.reset)
			if m := exp[keyOf(x)]; m != nil {
				t.printf("  %s(expected failure: %s", p.dim, visible(m.Reason, 300))
				if m.Link != "" {
					t.printf(" %s", visible(m.Link, 300))
				}
				t.printf(")%s", p.reset)
			}
			t.printf("\n")
			if x.Detail != "" {
				for _, line := range strings.Split(clip(x.Detail, 2000), "\n") {
					t.printf("      %s%s%s\n", p.dim, visible(line, 300), p.reset)
				}
			}
			if x.ParserDetail != "" {
				t.printf("      %sthe parser says: %s%s\n", p.dim, visible(x.ParserDetail, 300), p.reset)
			}
		}
		trace := r.Trace
		if trace == "" && ci != nil && r.Check < len(ci.Checks) {
			trace = ci.Checks[r.Check].Trace
		}
		if trace != "" {
			t.printf("   reference: %s\n", visible(trace, 1000))
		}
		if ci != nil {
			t.caseBody(ci, r.Check)
		}
		i = j
	}
}

// caseBody prints the robots.txt of a check (or the served responses)
// with the deciding line marked.
func (t *textWriter) caseBody(ci *result.CaseInfo, check int) {
	var info result.CheckInfo
	if check >= 0 && check < len(ci.Checks) {
		info = ci.Checks[check]
	}
	switch {
	case ci.Robots != nil:
		t.printf("   robots.txt (%d bytes):\n", ci.Robots.Size)
		t.listing(ci.Robots, info.Line, info.LineText)
	case len(ci.Fetch) > 0:
		for i, s := range ci.Fetch {
			t.served(s)
			if s.Body != nil && (info.Response == i+1 || len(ci.Fetch) == 1) {
				line := 0
				if info.Response == i+1 {
					line = info.Line
				}
				t.listing(s.Body, line, info.LineText)
			}
		}
	case len(ci.Timeline) > 0:
		for i, s := range ci.Timeline {
			marker := "  "
			if info.Step == i+1 {
				marker = "> "
			}
			t.printf("   %sat %s:", marker, visible(s.At, 20))
			t.served(s.Response)
			show := info.Response == i+1 || info.Response == 0 && info.Step == i+1
			if show && s.Response.Body != nil {
				line := 0
				if info.Response == i+1 {
					line = info.Line
				}
				t.listing(s.Response.Body, line, info.LineText)
			}
		}
	}
}

func (t *textWriter) served(s result.Served) {
	if s.URL != "" {
		t.printf("   GET %s → ", visible(s.URL, 300))
	} else {
		t.printf(" ")
	}
	switch {
	case s.Fault != "":
		t.printf("fault %s\n", visible(s.Fault, 40))
		return
	default:
		t.printf("%d", s.Status)
	}
	for _, k := range sortedKeys(s.Headers) {
		t.printf("  %s: %s", visible(k, 100), visible(s.Headers[k], 300))
	}
	if s.Delay != "" {
		t.printf("  (delay %s)", visible(s.Delay, 40))
	}
	if s.Body != nil {
		t.printf("  (%d bytes)", s.Body.Size)
	}
	t.printf("\n")
}

// listing prints a body with line numbers: whole when short, otherwise
// its first lines and the lines around the deciding line.
func (t *textWriter) listing(b *result.Body, mark int, markText string) {
	if b.Generated != "" {
		t.printf("      %sgenerated: %s%s\n", t.p.dim, visible(b.Generated, 600), t.p.reset)
	}
	lines := reference.SplitLines(string(b.Bytes()))
	show := func(n int) bool {
		return len(lines) <= 40 || n <= 10 || mark > 0 && n >= mark-3 && n <= mark+3
	}
	nums, gap := excerpt(len(lines), show)
	for _, n := range nums {
		if n == 0 {
			t.printf("         %s…%s\n", t.p.dim, t.p.reset)
			continue
		}
		t.line(n, string(lines[n-1]), n == mark)
	}
	if b.Partial() {
		t.printf("         %s… %d more bytes not stored%s\n", t.p.dim, b.Size-len(b.Bytes()), t.p.reset)
		if mark > len(lines) && markText != "" {
			t.line(mark, markText, true)
		}
	} else if gap {
		t.printf("         %s…%s\n", t.p.dim, t.p.reset)
	}
}

func (t *textWriter) line(n int, text string, marked bool) {
	if marked {
		t.printf("    %s> %4d │ %s%s\n", t.p.bold, n, visible(text, 200), t.p.reset)
		return
	}
	t.printf("      %4d │ %s\n", n, visible(text, 200))
}

func (t *textWriter) unexpected() {
	if len(t.d.Unexpected) == 0 {
		return
	}
	t.printf("\nExpected failures that did not fail:\n")
	for _, u := range t.d.Unexpected {
		what := fmt.Sprintf("all %d matched checks passed: the bug may be fixed", u.Matched)
		if u.Matched == 0 {
			what = "no check of this run matches"
		}
		t.printf("  %s %s: %s (%s)", visible(u.Parser, 40), visible(strings.Join(u.Cases, ", "), 300), what, visible(u.Reason, 300))
		if u.Link != "" {
			t.printf(" %s", visible(u.Link, 300))
		}
		t.printf("\n")
	}
}

func (t *textWriter) findings(verbose bool) {
	if len(t.d.Findings) == 0 || t.d.Summary == nil {
		return
	}
	gs := t.d.Summary.Groups
	t.printf("\n%s in %s:\n", plural(len(t.d.Findings), "differential finding"), plural(len(gs), "group"))
	for i, g := range gs {
		if !verbose && i == 10 {
			t.printf("  … %d more groups\n", len(gs)-i)
			break
		}
		t.printf("  %4d× %s  %s  (%d files, %d probes)", g.Findings, visible(g.Signature, 200), visible(g.Primary, 40), g.Files, g.Probes)
		if len(g.Req) > 0 {
			t.printf("  [%s]", visible(strings.Join(g.Req, " "), 200))
		}
		t.printf("\n        agent %s url %s\n", visible(g.Example.Agent, 100), visible(g.Example.URL, 300))
		if verbose {
			for n, l := range reference.SplitLines(string(g.Example.Robots)) {
				if n == 20 {
					t.printf("         …\n")
					break
				}
				t.line(n+1, string(l), false)
			}
		}
	}
}

// plural writes a count with its noun, adding "s" unless the count is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
