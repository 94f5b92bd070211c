package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/reptest/reptest/matrix"
	"github.com/reptest/reptest/reference"
)

// WriteMatrix prints the matrix reptest matrix built (matrix.Build) as
// tables of at most six paths each, then the warnings. Values from the
// file are shown with control and bidirectional characters escaped.
func WriteMatrix(w io.Writer, m *matrix.Matrix, color bool) error {
	p := newPalette(color)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "robots.txt: %d bytes, %d groups, profile %s\n", m.Size, m.Groups, m.Profile)
	aw := len("agent")
	for _, a := range m.Agents {
		aw = max(aw, len(visible(a, 60))+len(" (unnamed)"))
	}
	const per = 6
	for start := 0; start < len(m.Paths); start += per {
		end := min(start+per, len(m.Paths))
		cols := m.Paths[start:end]
		widths := make([]int, len(cols))
		for j, c := range cols {
			widths[j] = max(len(visible(c, 40)), len("disallow 9999"))
			for i := range m.Agents {
				if u := usageText(m, m.Cells[i][start+j]); u != "" {
					widths[j] = max(widths[j], len("disallow 9999 ")+len(u))
				}
			}
		}
		fmt.Fprintf(bw, "\n%s%-*s", p.dim, aw, "agent \\ path")
		for j, c := range cols {
			fmt.Fprintf(bw, "  %-*s", widths[j], visible(c, 40))
		}
		fmt.Fprintf(bw, "%s\n", p.reset)
		for i, a := range m.Agents {
			name := visible(a, 60)
			if a == m.Unnamed {
				name += " (unnamed)"
			}
			fmt.Fprintf(bw, "%-*s", aw, name)
			for j := range cols {
				v := m.Cells[i][start+j]
				word, col := "allow", p.green
				if !v.Allowed {
					word, col = "DISALLOW", p.red
				}
				cell := word
				if v.Line > 0 {
					cell += fmt.Sprintf(" %d", v.Line)
				}
				if u := usageText(m, v); u != "" {
					cell = fmt.Sprintf("%-*s %s", len("disallow 9999"), cell, u)
				}
				fmt.Fprintf(bw, "  %s%-*s%s", col, widths[j], cell, p.reset)
			}
			fmt.Fprintln(bw)
		}
	}
	fmt.Fprintf(bw, "\n%sA number is the line of the deciding rule; none means no rule matched.%s\n", p.dim, p.reset)
	if len(m.Usage) > 0 {
		fmt.Fprintf(bw, "%sUsage preferences (%s): y allowed, n disallowed, ? unknown, use: immediate, reference or full; a path that may not be crawled has none.%s\n", p.dim, m.Drafts, p.reset)
	}
	if m.RulePaths > len(m.Paths) {
		fmt.Fprintf(bw, "%s%d of the %d paths the file's rules give are shown; choose others with --path.%s\n", p.dim, len(m.Paths), m.RulePaths, p.reset)
	}
	writeMatrixWarnings(bw, m, p)
	return bw.Flush()
}

// warningTitles says in a few words what each kind of warning is about.
var warningTitles = map[string]string{
	matrix.WarnStarNotInherited: "named groups replace the * group and lose some of its rules",
	matrix.WarnOrphanRule:       "rules before any user-agent line, which crawlers ignore",
	matrix.WarnUnparseable:      "lines that cannot be parsed",
	matrix.WarnNoLeadingSlash:   "patterns that do not start with \"/\"",
	matrix.WarnCrawlDelay:       "Crawl-delay lines, which RFC 9309 and Google ignore",
	matrix.WarnTooLarge:         "a file over 500 KiB",
	matrix.WarnNotToken:         "user-agent values that are not product tokens",
}

// writeWarnings prints one line per kind of warning, with its count, then
// three examples of it, or for star-rules-not-inherited the rules to add
// (Matrix.Fixes). The JSON form keeps every warning.
func writeMatrixWarnings(w io.Writer, m *matrix.Matrix, p palette) {
	if len(m.Warnings) == 0 {
		fmt.Fprintln(w, "\nNo warnings.")
		return
	}
	const examples = 3
	byKind := map[string][]matrix.Warning{}
	var kinds []string
	for _, wn := range m.Warnings {
		if byKind[wn.Kind] == nil {
			kinds = append(kinds, wn.Kind)
		}
		byKind[wn.Kind] = append(byKind[wn.Kind], wn)
	}
	fmt.Fprintf(w, "\n%s%s%s (--json lists each):\n", p.yellow, plural(len(m.Warnings), "warning"), p.reset)
	for _, k := range kinds {
		ws := byKind[k]
		title := warningTitles[k]
		if title == "" {
			title = k
		}
		fmt.Fprintf(w, "\n  %d × %s [%s]\n", len(ws), title, k)
		if k == matrix.WarnStarNotInherited && len(m.Fixes) > 0 {
			writeFixes(w, m.Fixes, examples)
			continue
		}
		for _, wn := range ws[:min(examples, len(ws))] {
			where := "file"
			if wn.Line > 0 {
				where = fmt.Sprintf("line %d", wn.Line)
			}
			fmt.Fprintf(w, "    %s: %s\n", where, visible(wn.Message, 300))
		}
		if len(ws) > examples {
			fmt.Fprintf(w, "    … and %d more\n", len(ws)-examples)
		}
	}
}

// writeFixes prints the first n fixes: the rules to add and the groups to
// add them to.
func writeFixes(w io.Writer, fixes []matrix.Fix, n int) {
	for _, f := range fixes[:min(n, len(fixes))] {
		rules := make([]string, 0, n)
		for _, r := range f.Rules[:min(n, len(f.Rules))] {
			rules = append(rules, "\""+visible(r, 200)+"\"")
		}
		what := strings.Join(rules, ", ")
		if len(f.Rules) > n {
			what += fmt.Sprintf(" and %d more lines", len(f.Rules)-n)
		}
		them, lines := "it", "line"
		if len(f.Rules) > 1 {
			them, lines = "them", "lines"
		}
		what += fmt.Sprintf(" (the * group's %s %s)", lines, joinInts(f.RuleLines, n))
		groups := make([]string, 0, n)
		for i := range f.Agents[:min(n, len(f.Agents))] {
			groups = append(groups, fmt.Sprintf("%s (line %d)", visible(f.Agents[i], 60), f.Lines[i]))
		}
		to := strings.Join(groups, ", ")
		if len(f.Agents) > n {
			to += fmt.Sprintf(" and %d more", len(f.Agents)-n)
		}
		target := plural(len(f.Agents), "group") + " that lack"
		if len(f.Agents) == 1 {
			target = "group that lacks"
		}
		fmt.Fprintf(w, "    add %s to the %s %s: %s\n", what, target, them, to)
	}
	if len(fixes) > n {
		fmt.Fprintf(w, "    … and %d more sets of groups\n", len(fixes)-n)
	}
}

// joinInts writes the first n numbers joined by commas, "…" after.
func joinInts(ns []int, n int) string {
	s := make([]string, 0, n+1)
	for _, x := range ns[:min(n, len(ns))] {
		s = append(s, fmt.Sprint(x))
	}
	if len(ns) > n {
		s = append(s, "…")
	}
	return strings.Join(s, ", ")
}

// usageText is a cell's preferences for the text form: "train-ai=n
// search=?", "?" standing for unknown.
func usageText(m *matrix.Matrix, v matrix.Verdict) string {
	parts := make([]string, 0, len(m.Usage))
	for _, c := range m.Usage {
		u := v.Usage[c]
		if u == string(reference.UsageUnknown) {
			u = "?"
		}
		parts = append(parts, c+"="+u)
	}
	return strings.Join(parts, " ")
}
