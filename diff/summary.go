package diff

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/visible"
)

// Summary describes a differential run as plain data, for the text
// summary here and for report's HTML page.
type Summary struct {
	// Parsers are the compared parsers, in the order given.
	Parsers []string `json:"parsers"`
	// Files and Probes count what was compared; Disagreements counts the
	// probes on which not all parsers agree, FilesWithDisagreements the
	// files that had one.
	Files  int `json:"files"`
	Probes int `json:"probes"`
	// Responses counts the inputs read (files and WARC responses),
	// Duplicates those among them whose body (and profile) an input
	// compared before had: they are not compared again, but listed in
	// the first one's findings (Finding.Duplicates). Files counts the
	// distinct bodies compared.
	Responses              int `json:"responses"`
	Duplicates             int `json:"duplicates"`
	Disagreements          int `json:"disagreements"`
	FilesWithDisagreements int `json:"files_with_disagreements"`
	// Findings counts the distinct minimised findings.
	Findings int `json:"findings"`
	// Pairs holds one entry per pair of parsers.
	Pairs []PairStat `json:"pairs"`
	// Groups holds the findings grouped by signature and requirement IDs,
	// the most widespread first.
	Groups []Group `json:"groups"`
	// Areas holds one entry per requirement area that has probes, in the
	// order of corpus/requirements.yaml.
	Areas []AreaStat `json:"areas,omitempty"`
}

// PairStat says how often two parsers disagree.
type PairStat struct {
	A                  string  `json:"a"`
	B                  string  `json:"b"`
	Probes             int     `json:"probes"`
	ProbeDisagreements int     `json:"probe_disagreements"`
	ProbeShare         float64 `json:"probe_share"` // ProbeDisagreements / Probes
	Files              int     `json:"files"`
	FileDisagreements  int     `json:"file_disagreements"`
	FileShare          float64 `json:"file_share"` // FileDisagreements / Files
}

func (p *PairStat) share() {
	if p.Probes > 0 {
		p.ProbeShare = float64(p.ProbeDisagreements) / float64(p.Probes)
	}
	if p.Files > 0 {
		p.FileShare = float64(p.FileDisagreements) / float64(p.Files)
	}
}

// AreaStat says how often the parsers agree on the probes of one
// requirement area (the area of the requirement a probe exercises).
type AreaStat struct {
	// Area is the area's name in corpus/requirements.yaml.
	Area string `json:"area"`
	// Probes counts the probes of the area, Agreed those on which every
	// parser gave the same verdict.
	Probes int `json:"probes"`
	Agreed int `json:"agreed"`
	// Apart counts, per parser, the probes of the area on which its
	// verdict is not the majority's (a tie goes to the reference's side).
	Apart map[string]int `json:"apart,omitempty"`
}

// areaCounts counts one file's probes per area, parsers by their place in
// the run's panel.
type areaCounts struct {
	by map[string]*areaCount
}

type areaCount struct {
	probes, agreed int
	apart          []int
}

// add counts a probe, with the parsers' verdicts vs, in the area of its
// requirement (Probe.Req); robots returns the file as the reference
// reads it, for a tie. A probe whose requirement has no area is counted
// nowhere.
func (c *areaCounts) add(pr Probe, vs []cases.Verdict, robots func() *reference.Robots) {
	area := cases.AreaOf(pr.Req)
	if area == "" {
		return
	}
	if c.by == nil {
		c.by = make(map[string]*areaCount)
	}
	a := c.by[area]
	if a == nil {
		a = &areaCount{apart: make([]int, len(vs))}
		c.by[area] = a
	}
	a.probes++
	if !slices.ContainsFunc(vs, func(v cases.Verdict) bool { return v != vs[0] }) {
		a.agreed++
		return
	}
	side, ok := majority(vs, func() cases.Verdict { return referenceVerdict(robots(), pr) })
	for i, v := range vs {
		if !ok || v != side {
			a.apart[i]++
		}
	}
}

// referenceVerdict returns the reference's verdict on a probe of the file
// robots, or "" when it gives none (an agent that is not a token).
func referenceVerdict(robots *reference.Robots, pr Probe) cases.Verdict {
	d, err := robots.Decide(pr.Agent, pr.URL)
	switch {
	case err != nil:
		return ""
	case d.Allowed:
		return cases.Allow
	}
	return cases.Disallow
}

// majority returns the verdict most parsers gave. When several verdicts
// are given equally often, it is the reference's verdict (ref) if that is
// one of them; otherwise there is no majority and ok is false.
func majority(vs []cases.Verdict, ref func() cases.Verdict) (side cases.Verdict, ok bool) {
	count := make(map[cases.Verdict]int)
	most := 0
	for _, v := range vs {
		count[v]++
		most = max(most, count[v])
	}
	var tied []cases.Verdict
	for v, n := range count {
		if n == most {
			tied = append(tied, v)
		}
	}
	if len(tied) == 1 {
		return tied[0], true
	}
	r := ref()
	return r, r != "" && slices.Contains(tied, r)
}

// areaStats adds up the files' area counts, for the parsers names.
func areaStats(names []string, results []*fileResult) []AreaStat {
	var out []AreaStat
	for _, r := range results {
		if r == nil {
			continue
		}
		for area, c := range r.areas.by {
			apart := make(map[string]int)
			for i, n := range c.apart {
				if n > 0 {
					apart[names[i]] = n
				}
			}
			out = addAreas(out, []AreaStat{{Area: area, Probes: c.probes, Agreed: c.agreed, Apart: apart}})
		}
	}
	return out
}

// addAreas adds the counts of more to those of areas, area by area, and
// returns them in the order of the requirement table.
func addAreas(areas, more []AreaStat) []AreaStat {
	for _, m := range more {
		i := slices.IndexFunc(areas, func(a AreaStat) bool { return a.Area == m.Area })
		if i < 0 {
			areas = append(areas, AreaStat{Area: m.Area})
			i = len(areas) - 1
		}
		a := &areas[i]
		a.Probes += m.Probes
		a.Agreed += m.Agreed
		for name, n := range m.Apart {
			if n == 0 {
				continue
			}
			if a.Apart == nil {
				a.Apart = make(map[string]int)
			}
			a.Apart[name] += n
		}
	}
	slices.SortStableFunc(areas, func(a, b AreaStat) int {
		return cmp.Or(cases.AreaRank(a.Area)-cases.AreaRank(b.Area), strings.Compare(a.Area, b.Area))
	})
	return areas
}

// Group is the findings that share a signature and a primary requirement
// ID (Finding.Key).
type Group struct {
	Signature string `json:"signature"`
	Primary   string `json:"primary"`
	// Req holds every requirement ID of the group's findings, sorted.
	Req []string `json:"req"`
	// Findings counts distinct findings, Probes the disagreeing probes
	// they stand for, Files the distinct files they came from.
	Findings int `json:"findings"`
	Probes   int `json:"probes"`
	Files    int `json:"files"`
	// Example is the group's smallest finding: fewest lines, then fewest
	// bytes, then first found.
	Example Finding `json:"example"`
}

// GroupFindings groups findings by Finding.Key, in reading order: the
// largest group of each primary requirement first, then the others; each
// part most files first, then most probes, then by key. This is the one
// grouping and the one order: the terminal summary, the JSON summary and
// report's HTML page all list Summary.Groups as they are.
func GroupFindings(findings []Finding) []Group {
	at := make(map[string]int)
	var groups []Group
	var files []map[string]bool
	for _, f := range findings {
		k := f.Key()
		i, ok := at[k]
		if !ok {
			i = len(groups)
			at[k] = i
			groups = append(groups, Group{Signature: f.Signature, Primary: Primary(f.Req), Example: f})
			files = append(files, make(map[string]bool))
		}
		g := &groups[i]
		g.Findings++
		g.Probes += max(f.Probes, 1)
		for _, s := range f.Sources {
			files[i][s] = true
		}
		for _, r := range f.Req {
			if !slices.Contains(g.Req, r) {
				g.Req = append(g.Req, r)
			}
		}
		if smaller(f, g.Example) {
			g.Example = f
		}
	}
	for i := range groups {
		groups[i].Files = len(files[i])
		slices.Sort(groups[i].Req)
	}
	slices.SortStableFunc(groups, func(a, b Group) int {
		if a.Files != b.Files {
			return b.Files - a.Files
		}
		if a.Probes != b.Probes {
			return b.Probes - a.Probes
		}
		return strings.Compare(a.Signature+" "+a.Primary, b.Signature+" "+b.Primary)
	})
	return diverse(groups)
}

func smaller(a, b Finding) bool {
	la, lb := len(splitLines(string(a.Robots))), len(splitLines(string(b.Robots)))
	if la != lb {
		return la < lb
	}
	return len(a.Robots)+len(a.URL) < len(b.Robots)+len(b.URL)
}

// addSource adds an input the finding was found in, with the lines its
// probes came from, unless it is the last one listed.
func (f *Finding) addSource(name string, lines []int) {
	if len(f.Sources) == 0 || f.Sources[len(f.Sources)-1] != name {
		f.Sources = append(f.Sources, name)
	}
	f.mergeLines(name, lines)
}

// MaxSourceLines bounds the lines a finding records per source file.
const MaxSourceLines = 20

// addLine adds a rule's line (0: none) to a sorted set of at most
// MaxSourceLines lines.
func addLine(lines []int, n int) []int {
	if n <= 0 {
		return lines
	}
	i, found := slices.BinarySearch(lines, n)
	if found || len(lines) >= MaxSourceLines {
		return lines
	}
	return slices.Insert(lines, i, n)
}

// mergeLines adds lines found in source name to the finding.
func (f *Finding) mergeLines(name string, lines []int) {
	for _, n := range lines {
		if f.SourceLines == nil {
			f.SourceLines = make(map[string][]int)
		}
		f.SourceLines[name] = addLine(f.SourceLines[name], n)
	}
}

// MaxExampleLines is the most lines of a robots.txt WriteText shows.
const MaxExampleLines = 5

// WriteText writes the summary for a terminal: totals, the pair table and
// the top groups (all when top ≤ 0) with one example each. Bodies, agents
// and URLs are shown with control, format and bidirectional characters
// escaped.
func WriteText(w io.Writer, s *Summary, top int) error {
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

// diverse orders groups for reading: the largest group of each primary
// requirement first, then the others, each part in the given order.
func diverse(groups []Group) []Group {
	out := make([]Group, 0, len(groups))
	var rest []Group
	seen := make(map[string]bool)
	for _, g := range groups {
		if seen[g.Primary] {
			rest = append(rest, g)
			continue
		}
		seen[g.Primary] = true
		out = append(out, g)
	}
	return append(out, rest...)
}

// Side is one verdict of a finding and the parsers that gave it.
type Side struct {
	Verdict cases.Verdict `json:"verdict"`
	Parsers []string      `json:"parsers"`
}

// Sides partitions parsers by verdict, in the order of the blocks of
// Signature: each block's parsers sorted, the blocks sorted by their
// written form.
func Sides(verdicts map[string]cases.Verdict) []Side {
	by := make(map[cases.Verdict][]string)
	for name, v := range verdicts {
		by[v] = append(by[v], name)
	}
	out := make([]Side, 0, len(by))
	for v, names := range by {
		slices.Sort(names)
		out = append(out, Side{Verdict: v, Parsers: names})
	}
	slices.SortFunc(out, func(a, b Side) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// String writes the side as a block of a signature: "a,b=disallow".
func (s Side) String() string { return strings.Join(s.Parsers, ",") + "=" + string(s.Verdict) }

func writeExample(ew *errWriter, f *Finding) {
	ew.printf("   agent %s  url %s\n", visible.String(f.Agent), visible.String(f.URL))
	lines := splitLines(string(f.Robots))
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
		ew.printf("   | %s%s\n", visible.String(text), mark)
	}
	if f.Trace != "" {
		ew.printf("   reference: %s\n", visible.String(f.Trace))
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
