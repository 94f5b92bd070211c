package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/reptest/reptest/reference"
)

// MatrixOptions says what BuildMatrix shows.
type MatrixOptions struct {
	// Agents are the product tokens to show; empty means every agent the
	// file names plus one it does not.
	Agents []string
	// Paths are the URL paths to show; empty means "/" and one example
	// path per rule of the file.
	Paths []string
	// Options is the reference's option set; the zero value means RFC().
	Options reference.Options
	// Usage are the usage categories whose preference each cell shows
	// (the aipref profile; see reference.Robots.Usage). Empty means none,
	// except under the aipref options, where it means the categories the
	// file's statements name.
	Usage []string
}

// Matrix is the verdict table of a robots.txt file for site owners:
// agents × paths, with warnings about what the file probably does not
// mean to do.
type Matrix struct {
	Profile  string      `json:"profile"`
	Size     int         `json:"size"`
	Agents   []string    `json:"agents"`
	Unnamed  string      `json:"unnamed,omitempty"` // the agent the file does not name, when added
	Paths    []string    `json:"paths"`
	Cells    [][]Verdict `json:"cells"` // [agent][path]
	Warnings []Warning   `json:"warnings"`
	Groups   int         `json:"groups"`
	Sitemaps []string    `json:"sitemaps,omitempty"`
	// Usage are the categories whose preferences the cells show, and
	// Drafts the drafts that define them.
	Usage  []string `json:"usage,omitempty"`
	Drafts string   `json:"drafts,omitempty"`
	// RulePaths is how many distinct example paths the file's rules give;
	// when it is more than the paths derived (at most maxDerivedPaths),
	// the table shows only some of them.
	RulePaths int `json:"rule_paths,omitempty"`
	// Fixes are the changes that would give the named groups the "*"
	// rules they lose (the star-rules-not-inherited warnings), one per
	// lost rule, most groups first.
	Fixes []Fix `json:"fixes,omitempty"`
	lines []reference.Line
}

// Fix is one change that silences star-rules-not-inherited warnings: add
// the "*" group's rules to each group listed.
type Fix struct {
	// Rules are the lines to add, as written in the "*" group
	// ("Disallow: /go/"), and RuleLines where that group has them.
	Rules     []string `json:"rules"`
	RuleLines []int    `json:"rule_lines"`
	// Agents are the agents whose groups lack the rule, and Lines the
	// first user-agent line of each of those groups.
	Agents []string `json:"agents"`
	Lines  []int    `json:"lines"`
}

// Verdict is one cell of a Matrix.
type Verdict struct {
	Allowed bool `json:"allowed"`
	// Line is the deciding rule's line; 0 when no rule matched.
	Line int `json:"line,omitempty"`
	// Group is the group that applied: the agent's name, "*" or "".
	Group string `json:"group,omitempty"`
	Why   string `json:"why"`
	// Usage maps each of Matrix.Usage to its preference: y, n or unknown.
	Usage map[string]string `json:"usage,omitempty"`
}

// Warning kinds.
const (
	WarnStarNotInherited = "star-rules-not-inherited"
	WarnOrphanRule       = "rule-before-user-agent"
	WarnUnparseable      = "unparseable-line"
	WarnNoLeadingSlash   = "pattern-without-slash"
	WarnCrawlDelay       = "crawl-delay"
	WarnTooLarge         = "file-too-large"
	WarnNotToken         = "agent-not-a-token"
)

// Warning is something in the file that a crawler reads differently from
// what its author probably meant.
type Warning struct {
	Kind    string `json:"kind"`
	Line    int    `json:"line,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Message string `json:"message"`
}

// maxDerivedPaths bounds the paths derived from the file's rules.
const maxDerivedPaths = 24

// fileGroup is a group as the file lays it out.
type fileGroup struct {
	uaLines []int
	rules   []reference.Line
}

// BuildMatrix decides every agent × path of a robots.txt body with the
// reference and collects warnings: a named group that lacks rules of the
// "*" group it replaces (where that changes a verdict), rules before any
// user-agent line, unparseable lines, patterns that do not start with "/",
// Crawl-delay records, user-agent values that are not product tokens and
// a file over 500 KiB. It returns an error for an agent that is not a
// product token.
func BuildMatrix(body []byte, o MatrixOptions) (*Matrix, error) {
	opts := o.Options
	if opts.Name == "" {
		opts = reference.RFC()
	}
	rb := reference.Parse(body, opts)
	m := &Matrix{Profile: opts.Name, Size: len(body), lines: rb.Lines(), Sitemaps: rb.Sitemaps()}
	groups, orphans := layoutGroups(m.lines)
	m.Groups = len(groups)

	named := m.fileAgents(opts)
	agents := slices.Clone(o.Agents)
	if len(agents) == 0 {
		agents = named
	}
	unnamed := unnamedAgent(rb)
	if len(o.Agents) == 0 {
		agents = append(agents, unnamed)
		m.Unnamed = unnamed
	}
	m.Agents = agents
	paths := slices.Clone(o.Paths)
	if len(paths) == 0 {
		paths, m.RulePaths = derivedPaths(m.lines)
	}
	m.Paths = paths
	m.Usage = slices.Clone(o.Usage)
	if len(m.Usage) == 0 && opts.UsageRules {
		m.Usage = rb.UsageCategoriesStated()
	}
	if len(m.Usage) > 0 {
		m.Drafts = reference.AIPrefDrafts
	}

	for _, a := range agents {
		row := make([]Verdict, len(paths))
		for j, p := range paths {
			d, err := rb.Decide(a, p)
			if err != nil {
				return nil, fmt.Errorf("report: agent %q: %w", a, err)
			}
			row[j] = verdictOf(d)
			if row[j].Usage, err = usageOf(rb, a, p, m.Usage); err != nil {
				return nil, fmt.Errorf("report: %w", err)
			}
		}
		m.Cells = append(m.Cells, row)
	}

	m.warnSyntax(orphans, opts, len(body))
	fixes := map[int]*Fix{}
	for _, a := range agents {
		if a != unnamed {
			m.warnStar(rb, groups, a, unnamed, fixes)
		}
	}
	m.Fixes = mergeFixes(fixes)
	slices.SortStableFunc(m.Warnings, func(a, b Warning) int { return a.Line - b.Line })
	return m, nil
}

// usageOf returns the preference of each category for agent at path, or
// nil when no category is asked.
func usageOf(rb *reference.Robots, agent, path string, categories []string) (map[string]string, error) {
	if len(categories) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(categories))
	for _, c := range categories {
		d, err := rb.Usage(agent, path, c)
		if err != nil {
			return nil, err
		}
		out[c] = string(d.Usage)
	}
	return out, nil
}

// usageText is a cell's preferences for the text form: "train-ai=n
// search=?", "?" standing for unknown.
func (m *Matrix) usageText(v Verdict) string {
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

func verdictOf(d reference.Decision) Verdict {
	v := Verdict{Allowed: d.Allowed, Group: d.Group}
	switch d.Reason {
	case reference.RuleMatched:
		v.Line = d.Rule.Line
		kind := "disallow"
		if d.Rule.Allow {
			kind = "allow"
		}
		v.Why = fmt.Sprintf("%s: %s", kind, d.Rule.Pattern)
	default:
		v.Why = d.Reason.String()
	}
	return v
}

// layoutGroups rebuilds the file's groups from its lines, as the reference
// forms them: user-agent lines then rules; a user-agent line after a rule
// starts a new group. Rules before any user-agent line are returned apart.
func layoutGroups(lines []reference.Line) (groups []fileGroup, orphans []reference.Line) {
	open := false
	for _, l := range lines {
		switch l.Kind {
		case reference.UserAgent:
			if len(groups) == 0 || !open {
				groups = append(groups, fileGroup{})
				open = true
			}
			g := &groups[len(groups)-1]
			g.uaLines = append(g.uaLines, l.Number)
		case reference.Allow, reference.Disallow:
			if len(groups) == 0 {
				orphans = append(orphans, l)
				continue
			}
			open = false
			g := &groups[len(groups)-1]
			g.rules = append(g.rules, l)
		}
	}
	return groups, orphans
}

// fileAgents returns the product tokens the file's user-agent lines name,
// first spelling kept, and warns about values that are not tokens.
func (m *Matrix) fileAgents(opts reference.Options) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range m.lines {
		if l.Kind != reference.UserAgent || l.Value == "*" {
			continue
		}
		tok := l.Value
		if !reference.IsProductToken(tok) {
			lead := leadingToken(tok)
			if strings.HasPrefix(tok, "*") {
				continue
			}
			msg := fmt.Sprintf("user-agent %q is not a product token: under RFC 9309 it names no crawler", tok)
			if lead != "" {
				msg += fmt.Sprintf("; Google's parser reads it as %q", lead)
			}
			m.Warnings = append(m.Warnings, Warning{Kind: WarnNotToken, Line: l.Number, Message: msg})
			if opts.AgentMatch != reference.AgentLeadingToken || lead == "" {
				continue
			}
			tok = lead
		}
		if k := strings.ToLower(tok); !seen[k] {
			seen[k] = true
			out = append(out, tok)
		}
	}
	return out
}

// leadingToken returns the leading run of [a-zA-Z_-] of s.
func leadingToken(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return s[:i]
		}
	}
	return s
}

// unnamedAgent returns a product token that no group of the file names.
func unnamedAgent(rb *reference.Robots) string {
	name := "UnlistedBot"
	for slices.Contains(rb.Agents(), strings.ToLower(name)) {
		name += "X"
	}
	return name
}

// examplePath returns a path that a rule's pattern matches: "*" becomes
// "x", a final "$" is dropped, and a missing leading "/" is added. It
// returns "" for an empty pattern.
func examplePath(pattern string) string {
	p := strings.TrimSuffix(pattern, "$")
	p = strings.TrimRight(p, "*")
	p = strings.ReplaceAll(p, "*", "x")
	if p == "" {
		if pattern == "" {
			return ""
		}
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	return p
}

// derivedPaths returns "/" and an example path for each rule, without
// duplicates, sorted, at most maxDerivedPaths; and how many distinct
// paths there are in all, "/" included.
func derivedPaths(lines []reference.Line) (paths []string, all int) {
	set := map[string]bool{"/": true}
	every := map[string]bool{"/": true}
	for _, l := range lines {
		value := l.Value
		if l.Kind == reference.Other {
			// The path of a Content-Usage or Content-Signal line.
			value = reference.UsageRulePath(l.Key, l.Value)
		} else if l.Kind != reference.Allow && l.Kind != reference.Disallow {
			continue
		}
		if p := examplePath(value); p != "" {
			every[p] = true
			if len(set) < maxDerivedPaths {
				set[p] = true
			}
		}
	}
	return sortedKeys(set), len(every)
}

func (m *Matrix) warnSyntax(orphans []reference.Line, opts reference.Options, size int) {
	for _, l := range orphans {
		m.Warnings = append(m.Warnings, Warning{Kind: WarnOrphanRule, Line: l.Number,
			Message: fmt.Sprintf("%s: %s comes before any user-agent line: crawlers ignore it (RFC 9309 §2.1)", l.Kind, l.Value)})
	}
	for _, l := range m.lines {
		switch l.Kind {
		case reference.Invalid:
			m.Warnings = append(m.Warnings, Warning{Kind: WarnUnparseable, Line: l.Number,
				Message: fmt.Sprintf("the line cannot be parsed (%s) and is ignored", l.Reason)})
		case reference.Allow, reference.Disallow:
			if l.Value != "" && l.Value[0] != '/' && l.Value[0] != '*' {
				m.Warnings = append(m.Warnings, Warning{Kind: WarnNoLeadingSlash, Line: l.Number,
					Message: fmt.Sprintf("the pattern %q does not start with \"/\": it matches no URL (did you mean %q?)", l.Value, "/"+l.Value)})
			}
		case reference.Other:
			if strings.EqualFold(l.Key, "crawl-delay") {
				m.Warnings = append(m.Warnings, Warning{Kind: WarnCrawlDelay, Line: l.Number,
					Message: "Crawl-delay is not part of RFC 9309 and Google ignores it; some other crawlers honour it"})
			}
		}
	}
	if size > reference.KiB500 {
		last := 0
		for _, l := range m.lines {
			last = max(last, l.Number)
		}
		limit := opts.MaxBytes
		if limit == 0 {
			limit = reference.KiB500
		}
		m.Warnings = append(m.Warnings, Warning{Kind: WarnTooLarge,
			Message: fmt.Sprintf("the file is %d bytes, over 500 KiB: crawlers may ignore everything past byte %d (here, what follows line %d)", size, limit, last)})
	}
}

// warnStar warns when the groups naming agent replace the "*" group and,
// for a rule of the "*" group they lack, the agent gets another verdict
// than an agent the file does not name; each lost rule is added to
// fixes (by its line). Groups that block everything (Disallow: / and no
// allow rule) are left out: they mean to.
func (m *Matrix) warnStar(rb *reference.Robots, groups []fileGroup, agent, unnamed string, fixes map[int]*Fix) {
	da, err := rb.Decide(agent, "/")
	if err != nil || da.Group == "*" || da.Group == "" {
		return
	}
	ds, err := rb.Decide(unnamed, "/")
	if err != nil || ds.Group != "*" {
		return
	}
	own := groupsByLines(groups, da.GroupLines)
	if blocksAll(own) {
		return
	}
	star := groupsByLines(groups, ds.GroupLines)
	line := 0
	if len(da.GroupLines) > 0 {
		line = da.GroupLines[0]
	}
	has := func(r reference.Line) bool {
		for _, g := range own {
			for _, x := range g.rules {
				if x.Kind == r.Kind && x.Value == r.Value {
					return true
				}
			}
		}
		return false
	}
	var lost []string
	for _, g := range star {
		for _, r := range g.rules {
			if has(r) {
				continue
			}
			p := examplePath(r.Value)
			if p == "" {
				continue
			}
			vs, err1 := rb.Decide(unnamed, p)
			va, err2 := rb.Decide(agent, p)
			if err1 != nil || err2 != nil || vs.Allowed == va.Allowed {
				continue
			}
			if vs.Reason != reference.RuleMatched || vs.Rule.Line != r.Number {
				continue
			}
			state := "disallowed"
			if va.Allowed {
				state = "allowed"
			}
			lost = append(lost, fmt.Sprintf("%s: %s (line %d; %s is %s %s)", r.Kind, r.Value, r.Number, agent, state, p))
			f := fixes[r.Number]
			if f == nil {
				f = &Fix{Rules: []string{ruleText(r)}, RuleLines: []int{r.Number}}
				fixes[r.Number] = f
			}
			f.Agents = append(f.Agents, agent)
			f.Lines = append(f.Lines, line)
		}
	}
	if len(lost) == 0 {
		return
	}
	m.Warnings = append(m.Warnings, Warning{Kind: WarnStarNotInherited, Line: line, Agent: agent,
		Message: fmt.Sprintf("%s has its own group, which replaces the * group entirely: these * rules do not apply to it: %s",
			agent, strings.Join(lost, "; "))})
}

// mergeFixes turns the fixes of single rules into one fix per set of
// groups: the rules that the same groups lack are added together. Fixes
// come most groups first, then by the first rule's line.
func mergeFixes(byRule map[int]*Fix) []Fix {
	lines := make([]int, 0, len(byRule))
	for n := range byRule {
		lines = append(lines, n)
	}
	slices.Sort(lines)
	var out []Fix
	at := map[string]int{} // the groups' lines, as text -> index in out
	for _, n := range lines {
		f := byRule[n]
		key := fmt.Sprint(f.Lines)
		if i, ok := at[key]; ok {
			out[i].Rules = append(out[i].Rules, f.Rules...)
			out[i].RuleLines = append(out[i].RuleLines, f.RuleLines...)
			continue
		}
		at[key] = len(out)
		out = append(out, *f)
	}
	slices.SortStableFunc(out, func(a, b Fix) int { return len(b.Agents) - len(a.Agents) })
	return out
}

// blocksAll reports whether groups disallow every path on purpose: one
// has "Disallow: /" (or "/*", "*") and none has an allow rule.
func blocksAll(groups []fileGroup) bool {
	all := false
	for _, g := range groups {
		for _, r := range g.rules {
			switch {
			case r.Kind == reference.Allow && r.Value != "":
				return false
			case r.Kind == reference.Disallow && (r.Value == "/" || r.Value == "/*" || r.Value == "*"):
				all = true
			}
		}
	}
	return all
}

// ruleText writes a rule line as a person adds it to a file.
func ruleText(r reference.Line) string {
	if r.Kind == reference.Allow {
		return "Allow: " + r.Value
	}
	return "Disallow: " + r.Value
}

// groupsByLines returns the groups holding any of the user-agent lines.
func groupsByLines(groups []fileGroup, uaLines []int) []fileGroup {
	var out []fileGroup
	for _, g := range groups {
		for _, n := range g.uaLines {
			if slices.Contains(uaLines, n) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// WriteText prints the matrix as tables of at most six paths each, then
// the warnings. Values from the file are shown with control and
// bidirectional characters escaped.
func (m *Matrix) WriteText(w io.Writer, color bool) error {
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
				if u := m.usageText(m.Cells[i][start+j]); u != "" {
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
				if u := m.usageText(v); u != "" {
					cell = fmt.Sprintf("%-*s %s", len("disallow 9999"), cell, u)
				}
				fmt.Fprintf(bw, "  %s%-*s%s", col, widths[j], cell, p.reset)
			}
			fmt.Fprintln(bw)
		}
	}
	fmt.Fprintf(bw, "\n%sA number is the line of the deciding rule; none means no rule matched.%s\n", p.dim, p.reset)
	if len(m.Usage) > 0 {
		fmt.Fprintf(bw, "%sUsage preferences (%s): y allowed, n disallowed, ? unknown; a path that may not be crawled has none.%s\n", p.dim, m.Drafts, p.reset)
	}
	if m.RulePaths > len(m.Paths) {
		fmt.Fprintf(bw, "%s%d of the %d paths the file's rules give are shown; choose others with --path.%s\n", p.dim, len(m.Paths), m.RulePaths, p.reset)
	}
	m.writeWarnings(bw, p)
	return bw.Flush()
}

// warningTitles says in a few words what each kind of warning is about.
var warningTitles = map[string]string{
	WarnStarNotInherited: "named groups replace the * group and lose some of its rules",
	WarnOrphanRule:       "rules before any user-agent line, which crawlers ignore",
	WarnUnparseable:      "lines that cannot be parsed",
	WarnNoLeadingSlash:   "patterns that do not start with \"/\"",
	WarnCrawlDelay:       "Crawl-delay lines, which RFC 9309 and Google ignore",
	WarnTooLarge:         "a file over 500 KiB",
	WarnNotToken:         "user-agent values that are not product tokens",
}

// writeWarnings prints one line per kind of warning, with its count, then
// three examples of it, or for star-rules-not-inherited the rules to add
// (Matrix.Fixes). The JSON form keeps every warning.
func (m *Matrix) writeWarnings(w io.Writer, p palette) {
	if len(m.Warnings) == 0 {
		fmt.Fprintln(w, "\nNo warnings.")
		return
	}
	const examples = 3
	byKind := map[string][]Warning{}
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
		if k == WarnStarNotInherited && len(m.Fixes) > 0 {
			m.writeFixes(w, examples)
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
func (m *Matrix) writeFixes(w io.Writer, n int) {
	for _, f := range m.Fixes[:min(n, len(m.Fixes))] {
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
	if len(m.Fixes) > n {
		fmt.Fprintf(w, "    … and %d more sets of groups\n", len(m.Fixes)-n)
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
