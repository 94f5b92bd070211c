// Package matrix builds the verdict table of a robots.txt file for site
// owners: agents × paths, each cell decided by the reference, with
// warnings about what the file probably does not mean to do. It records;
// package report renders (report.WriteMatrix), and reptest matrix prints.
package matrix

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/reptest/reptest/reference"
)

// Options says what Build shows.
type Options struct {
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

// Build decides every agent × path of a robots.txt body with the
// reference and collects warnings: a named group that lacks rules of the
// "*" group it replaces (where that changes a verdict), rules before any
// user-agent line, unparseable lines, patterns that do not start with "/",
// Crawl-delay records, user-agent values that are not product tokens and
// a file over 500 KiB. It returns an error for an agent that is not a
// product token.
func Build(body []byte, o Options) (*Matrix, error) {
	opts := o.Options
	if opts.Name == "" {
		opts = reference.RFC()
	}
	rb := reference.Parse(body, opts)
	m := &Matrix{Profile: opts.Name, Size: len(body), Sitemaps: rb.Sitemaps()}
	groups, lines := rb.Groups(), rb.Lines()
	m.Groups = len(groups)

	named := m.fileAgents(groups, opts)
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
		paths, m.RulePaths = derivedPaths(lines)
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
				return nil, fmt.Errorf("matrix: agent %q: %w", a, err)
			}
			row[j] = verdictOf(d)
			if row[j].Usage, err = usageOf(rb, a, p, m.Usage); err != nil {
				return nil, fmt.Errorf("matrix: %w", err)
			}
		}
		m.Cells = append(m.Cells, row)
	}

	m.warnSyntax(lines, rb.OrphanRules(), opts, len(body))
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

// fileAgents returns the product tokens the file's user-agent lines name
// under opts, first spelling kept, and warns about values that are not
// tokens.
func (m *Matrix) fileAgents(groups []reference.Group, opts reference.Options) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range groups {
		for _, a := range g.Agents {
			if a.Star || strings.HasPrefix(a.Value, "*") {
				continue
			}
			if !reference.IsProductToken(a.Value) {
				msg := fmt.Sprintf("user-agent %q is not a product token: under RFC 9309 it names no crawler", a.Value)
				if lead, _ := reference.Google().AgentToken(a.Value); lead != "" {
					msg += fmt.Sprintf("; Google's parser reads it as %q", lead)
				}
				m.Warnings = append(m.Warnings, Warning{Kind: WarnNotToken, Line: a.Line, Message: msg})
			}
			if k := strings.ToLower(a.Token); a.Token != "" && !seen[k] {
				seen[k] = true
				out = append(out, a.Token)
			}
		}
	}
	return out
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
	return slices.Sorted(maps.Keys(set)), len(every)
}

// warnSyntax warns about lines: rules before any user-agent line,
// unparseable lines, patterns without a leading "/", Crawl-delay records,
// and a file over 500 KiB.
func (m *Matrix) warnSyntax(lines []reference.Line, orphans []reference.RuleRef, opts reference.Options, size int) {
	for _, r := range orphans {
		m.Warnings = append(m.Warnings, Warning{Kind: WarnOrphanRule, Line: r.Line,
			Message: fmt.Sprintf("%s: %s comes before any user-agent line: crawlers ignore it (RFC 9309 §2.1)", ruleKind(r), r.Pattern)})
	}
	for _, l := range lines {
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
		for _, l := range lines {
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
func (m *Matrix) warnStar(rb *reference.Robots, groups []reference.Group, agent, unnamed string, fixes map[int]*Fix) {
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
	has := func(r reference.RuleRef) bool {
		for _, g := range own {
			for _, x := range g.Rules {
				if x.Allow == r.Allow && x.Pattern == r.Pattern {
					return true
				}
			}
		}
		return false
	}
	var lost []string
	for _, g := range star {
		for _, r := range g.Rules {
			if has(r) {
				continue
			}
			p := examplePath(r.Pattern)
			if p == "" {
				continue
			}
			vs, err1 := rb.Decide(unnamed, p)
			va, err2 := rb.Decide(agent, p)
			if err1 != nil || err2 != nil || vs.Allowed == va.Allowed {
				continue
			}
			if vs.Reason != reference.RuleMatched || vs.Rule.Line != r.Line {
				continue
			}
			state := "disallowed"
			if va.Allowed {
				state = "allowed"
			}
			lost = append(lost, fmt.Sprintf("%s: %s (line %d; %s is %s %s)", ruleKind(r), r.Pattern, r.Line, agent, state, p))
			f := fixes[r.Line]
			if f == nil {
				f = &Fix{Rules: []string{ruleText(r)}, RuleLines: []int{r.Line}}
				fixes[r.Line] = f
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
func blocksAll(groups []reference.Group) bool {
	all := false
	for _, g := range groups {
		for _, r := range g.Rules {
			switch {
			case r.Allow && r.Pattern != "":
				return false
			case !r.Allow && (r.Pattern == "/" || r.Pattern == "/*" || r.Pattern == "*"):
				all = true
			}
		}
	}
	return all
}

// ruleText writes a rule line as a person adds it to a file.
func ruleText(r reference.RuleRef) string {
	if r.Allow {
		return "Allow: " + r.Pattern
	}
	return "Disallow: " + r.Pattern
}

// ruleKind is the kind of a rule's line.
func ruleKind(r reference.RuleRef) reference.LineKind {
	if r.Allow {
		return reference.Allow
	}
	return reference.Disallow
}

// groupsByLines returns the groups holding any of the user-agent lines.
func groupsByLines(groups []reference.Group, uaLines []int) []reference.Group {
	var out []reference.Group
	for _, g := range groups {
		for _, a := range g.Agents {
			if slices.Contains(uaLines, a.Line) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}
