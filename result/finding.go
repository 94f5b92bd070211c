package result

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Input is one question put to every parser: a robots.txt body, a
// crawler's product token and a URL. Its JSON form holds the keys of a
// finding (docs/FORMAT.md §4). Profile is the profile the input was asked
// under; Run sets it on every finding.
type Input struct {
	Robots  []byte `json:"robots_b64"`
	Agent   string `json:"agent"`
	URL     string `json:"url"`
	Profile string `json:"profile,omitempty"`
}

// Finding is one input on which parsers disagree (docs/FORMAT.md §4). Its JSON
// form is one line of a findings file.
type Finding struct {
	Input
	// Verdicts holds each parser's verdict, by parser name.
	Verdicts map[string]Verdict `json:"verdicts"`
	// Signature says which parsers side with which; see Signature.
	Signature string `json:"signature"`
	// Minimized is set once Minimize has shrunk the input. A finding in
	// which a parser answered with an error is not minimised.
	Minimized bool `json:"minimized"`
	// Req holds the requirement IDs the reference's trace points to; see
	// Tags.
	Req []string `json:"req"`

	// Sources names the files the disagreement was found in, in input
	// order; Probes counts the disagreeing probes this finding stands for.
	Sources []string `json:"sources,omitempty"`
	Probes  int      `json:"probes,omitempty"`
	// Duplicates counts the inputs that were not compared because their
	// body is that of one of Sources; the first MaxDuplicateSources of
	// each are listed in Sources too.
	Duplicates int `json:"duplicates,omitempty"`
	// Trace is the reference's explanation of its verdict on the input,
	// in the input's profile; Line is its deciding line (0 when no rule
	// decided).
	Trace string `json:"trace,omitempty"`
	Line  int    `json:"line,omitempty"`
	// SourceLines holds, per source file, the lines of the rules whose
	// probes disagreed there (sorted, at most MaxSourceLines a file).
	SourceLines map[string][]int `json:"source_lines,omitempty"`
	// Class identifies the class of disagreements (profile, verdicts,
	// the question's shape, the reference's cause; docs/FORMAT.md 4.4) a
	// minimised finding is the example of, every file of the class being a source; ExampleFrom is the
	// digest of the profile and body the example was minimised from,
	// the smallest of the class's. Merging keeps one finding per class,
	// with the example of the smallest digest. Both are empty in
	// findings not minimised and in those of older runs.
	Class       string `json:"class,omitempty"`
	ExampleFrom string `json:"example_from,omitempty"`
}

// Disagrees reports whether the verdicts are not all the same.
func (f *Finding) Disagrees() bool { return Signature(f.Verdicts) != "" }

// Key returns the key findings are grouped by: the signature and the
// primary requirement ID (see Primary).
func (f *Finding) Key() string { return f.Signature + " " + Primary(f.Req) }

// Signature is a canonical description of how parsers split on an input:
// the parsers are partitioned by verdict, each block is written as its
// sorted names and their verdict ("grobotstxt,reference=disallow"), and
// the blocks, sorted, are joined by "≠":
//
//	grobotstxt,reference=disallow≠temoto=allow
//
// The same verdicts always give the same signature, whatever the order of
// the parsers. It returns "" when all verdicts are the same.
func Signature(verdicts map[string]Verdict) string {
	sides := Sides(verdicts)
	if len(sides) < 2 {
		return ""
	}
	blocks := make([]string, len(sides))
	for i, sd := range sides {
		blocks[i] = sd.String()
	}
	return strings.Join(blocks, "≠")
}

// DiffSummary describes a differential run as plain data: what reptest
// diff prints, writes with --summary and its page shows.
type DiffSummary struct {
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
	// FindingsOnly marks a summary made from findings alone
	// (SummarizeFindings): Files, Probes, the pairs' totals and Areas are
	// not known.
	FindingsOnly bool `json:"findings_only,omitempty"`
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

// Share sets the pair's shares from its counts.
func (p *PairStat) Share() {
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

// AddAreas adds the counts of more to those of areas, area by area, and
// returns them in the order of rank (the requirement table's, Table.AreaRank).
func AddAreas(areas, more []AreaStat, rank func(string) int) []AreaStat {
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
		return cmp.Or(rank(a.Area)-rank(b.Area), strings.Compare(a.Area, b.Area))
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

// Key is the key its findings share (Finding.Key).
func (g *Group) Key() string { return g.Signature + " " + g.Primary }

// Sources returns the source files of the group's findings among fs, in
// the order first named, with, for each, the sorted distinct lines its
// probes came from (none for a file that names no line).
func (g *Group) Sources(fs []Finding) (files []string, lines map[string][]int) {
	key := g.Key()
	lines = map[string][]int{}
	for i := range fs {
		f := &fs[i]
		if f.Key() != key {
			continue
		}
		for _, s := range f.Sources {
			if _, ok := lines[s]; !ok {
				files = append(files, s)
				lines[s] = nil
			}
			for _, n := range f.SourceLines[s] {
				if !slices.Contains(lines[s], n) {
					lines[s] = append(lines[s], n)
				}
			}
		}
	}
	for _, s := range files {
		slices.Sort(lines[s])
	}
	return files, lines
}

// GroupFindings groups findings by Finding.Key, in reading order: the
// largest group of each primary requirement first, then the others; each
// part most files first, then most probes, then by key. This is the one
// grouping and the one order: the terminal summary, the JSON summary and
// report's HTML page all list Summary.Groups as they are.
func GroupFindings(findings []Finding) []Group {
	var g Grouping
	for _, f := range findings {
		g.Add(f)
	}
	return g.Groups()
}

// Grouping groups findings one at a time, as GroupFindings does, for a
// run whose findings are not held in memory together. The zero value is
// empty and ready to use.
type Grouping struct {
	at     map[string]int
	groups []Group
	files  []map[string]bool
}

// Add adds a finding to its group.
func (gr *Grouping) Add(f Finding) {
	if gr.at == nil {
		gr.at = make(map[string]int)
	}
	k := f.Key()
	i, ok := gr.at[k]
	if !ok {
		i = len(gr.groups)
		gr.at[k] = i
		gr.groups = append(gr.groups, Group{Signature: f.Signature, Primary: Primary(f.Req), Example: f})
		gr.files = append(gr.files, make(map[string]bool))
	}
	g := &gr.groups[i]
	g.Findings++
	g.Probes += max(f.Probes, 1)
	for _, s := range f.Sources {
		gr.files[i][s] = true
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

// Groups returns the groups of the findings added so far, in
// GroupFindings' order.
func (gr *Grouping) Groups() []Group {
	groups := slices.Clone(gr.groups)
	for i := range groups {
		groups[i].Files = len(gr.files[i])
		groups[i].Req = slices.Sorted(slices.Values(groups[i].Req))
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
	la, lb := lineCount(a.Robots), lineCount(b.Robots)
	if la != lb {
		return la < lb
	}
	return len(a.Robots)+len(a.URL) < len(b.Robots)+len(b.URL)
}

// lineCount counts the lines of a body, a last line without its end
// included.
func lineCount(b []byte) int {
	n := 0
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			return n + 1
		}
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b, n = b[i+1:], n+1
	}
	return n
}

// AddSource adds an input the finding was found in, with the lines its
// probes came from, unless it is the last one listed.
func (f *Finding) AddSource(name string, lines []int) {
	if len(f.Sources) == 0 || f.Sources[len(f.Sources)-1] != name {
		f.Sources = append(f.Sources, name)
	}
	f.MergeLines(name, lines)
}

// MaxSourceLines bounds the lines a finding records per source file.
const MaxSourceLines = 20

// AddLine adds a rule's line (0: none) to a sorted set of at most
// MaxSourceLines lines.
func AddLine(lines []int, n int) []int {
	if n <= 0 {
		return lines
	}
	i, found := slices.BinarySearch(lines, n)
	if found || len(lines) >= MaxSourceLines {
		return lines
	}
	return slices.Insert(lines, i, n)
}

// MergeLines adds lines found in source name to the finding.
func (f *Finding) MergeLines(name string, lines []int) {
	for _, n := range lines {
		if f.SourceLines == nil {
			f.SourceLines = make(map[string][]int)
		}
		f.SourceLines[name] = AddLine(f.SourceLines[name], n)
	}
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
	Verdict Verdict  `json:"verdict"`
	Parsers []string `json:"parsers"`
}

// Sides partitions parsers by verdict, in the order of the blocks of
// Signature: each block's parsers sorted, the blocks sorted by their
// written form.
func Sides(verdicts map[string]Verdict) []Side {
	by := make(map[Verdict][]string)
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

// primaryOrder ranks requirement IDs from the most telling about a
// disagreement to the least: the context a finding is set in (which group
// applied, how many groups there are) comes last.
const primaryOrder = " SYN-9 MATCH-7 MATCH-5 PCT-3 PCT-2 PCT-1 SPC-4 SPC-3 SPC-2 SPC-1 MATCH-4 MATCH-11 MATCH-2 MATCH-3" +
	" PAT-1 G-INDEX OTH-2 G-TYPO UA-7 G-UA UA-3 UA-2 UA-1 SYN-10 SYN-3 SYN-8 SYN-2 SYN-1 SYN-4 SYN-5 PAT-2 LIM-1" +
	" OTH-3 SYN-7 SYN-6 UA-6 UA-5 UA-4 MATCH-6 MATCH-9 MATCH-1 "

// Primary returns the most telling of a finding's requirement IDs, by a
// fixed ranking that puts what decided over where it happened: SYN-9
// (a rejected file), MATCH-7, a tie (MATCH-5), the percent-encoding and special-character
// requirements, longest match, then syntax, then group selection. IDs the
// ranking does not know come last, in sorted order.
func Primary(req []string) string {
	best, rank := "", len(primaryOrder)+1
	for _, id := range req {
		r := strings.Index(primaryOrder, " "+id+" ")
		if r < 0 {
			r = len(primaryOrder)
		}
		if r < rank || r == rank && id < best {
			best, rank = id, r
		}
	}
	return best
}

// RunInfo describes a differential run: what was compared, how, and by which
// command. A differential document records it and the page of
// the run shows it in its header. Empty fields were not recorded.
type RunInfo struct {
	// Command is the command line that made the run; for a merged run,
	// the command that merged it.
	Command string `json:"command,omitempty"`
	// Date is when the run ended, as text (RFC 3339).
	Date string `json:"date,omitempty"`
	// Profile is the profile of the inputs.
	Profile string `json:"profile,omitempty"`
	// Inputs describes each input set in a few words ("DIR: 412 files").
	Inputs []string `json:"inputs,omitempty"`
	// Parsers are the compared parsers, in order, with their versions and
	// runtimes.
	Parsers []Info `json:"parsers,omitempty"`
	// Shards holds, for a merged run, the command of each merged report
	// that recorded one, in the order merged.
	Shards []string `json:"shards,omitempty"`
	// Merged is how many reports a merged run was made from, and
	// Unrecorded how many of them recorded no run (reports written before
	// reptest recorded it).
	Merged     int `json:"merged,omitempty"`
	Unrecorded int `json:"unrecorded,omitempty"`
}

// mergeFindings combines the findings, summaries and runs of the
// documents of one differential run (the same parsers, in the same
// order): the counts are added, findings on the same input are one
// finding (their probes added, their sources joined), and the groups are
// made again. The result is in a canonical order, findings and their
// sources sorted, so that merging the shards of a run gives what merging
// the unsharded document alone gives. Documents without a summary hold
// no differential run and are left out.
func mergeFindings(t Table, parts []*Document) (*DiffSummary, []Finding, *RunInfo, error) {
	var diffs []*Document
	for _, p := range parts {
		if isDiff(p) {
			diffs = append(diffs, p)
		}
	}
	if len(diffs) == 0 {
		return nil, nil, nil, nil
	}
	s := &DiffSummary{Parsers: diffs[0].Summary.Parsers}
	for _, p := range diffs[0].Summary.Pairs {
		s.Pairs = append(s.Pairs, PairStat{A: p.A, B: p.B})
	}
	var all []Finding
	for n, part := range diffs {
		ps := part.Summary
		if !slices.Equal(ps.Parsers, s.Parsers) {
			return nil, nil, nil, fmt.Errorf("result: document %d compares %v, the first %v", n+1, ps.Parsers, s.Parsers)
		}
		s.add(ps, t)
		all = append(all, part.Findings...)
	}
	findings := joinFindings(all)
	for k := range s.Pairs {
		s.Pairs[k].Share()
	}
	for k := range findings {
		f := &findings[k]
		f.Sources = slices.Compact(slices.Sorted(slices.Values(f.Sources)))
	}
	slices.SortFunc(findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(first(a.Sources), first(b.Sources)), strings.Compare(a.Input.ID(), b.Input.ID()), strings.Compare(a.Class, b.Class))
	})
	s.Groups = GroupFindings(findings)
	s.Findings = len(findings)
	return s, findings, mergeRuns(diffs), nil
}

// joinFindings merges the findings of several runs (shards) as one run
// would have found them: one finding per class (Finding.Class), with the
// example of the smallest ExampleFrom, and one per input of those not
// minimised once per class; each with the sources, probes and
// duplicates of those merged into it. The order is that of the findings
// kept; the arguments are not changed.
func joinFindings(fs []Finding) []Finding {
	var out []Finding
	at := make(map[string]int) // by class, or by input
	for _, f := range fs {
		key := "input\x00" + f.Input.ID()
		if f.Class != "" {
			key = "class\x00" + f.Class
		}
		k, ok := at[key]
		if !ok {
			at[key] = len(out)
			out = append(out, f)
			continue
		}
		if f.Class != "" && f.ExampleFrom < out[k].ExampleFrom {
			f, out[k] = out[k], f
		}
		out[k] = mergedInto(out[k], f)
	}
	return out
}

// mergedInto returns g with the sources, probes and duplicates of f
// added (g's own slices and maps are not changed).
func mergedInto(g, f Finding) Finding {
	g.Probes += f.Probes
	g.Duplicates += f.Duplicates
	g.Sources = slices.Concat(g.Sources, f.Sources)
	g.SourceLines = maps.Clone(g.SourceLines)
	for _, name := range f.Sources {
		g.MergeLines(name, f.SourceLines[name])
	}
	return g
}

// add adds the counts of ps.
func (s *DiffSummary) add(ps *DiffSummary, t Table) {
	s.Files += ps.Files
	s.Responses += ps.Responses
	s.Duplicates += ps.Duplicates
	s.Probes += ps.Probes
	s.Disagreements += ps.Disagreements
	s.FilesWithDisagreements += ps.FilesWithDisagreements
	for k, p := range ps.Pairs {
		q := &s.Pairs[k]
		q.Probes += p.Probes
		q.ProbeDisagreements += p.ProbeDisagreements
		q.Files += p.Files
		q.FileDisagreements += p.FileDisagreements
	}
	s.Areas = AddAreas(s.Areas, ps.Areas, t.AreaRank)
}

// mergeRuns describes the run of merged reports: each report's command
// kept, the inputs each once, every version of a parser the reports
// recorded listed, the latest date. The caller sets Command.
func mergeRuns(parts []*Document) *RunInfo {
	out := &RunInfo{}
	for _, part := range parts {
		r := part.Run
		if r == nil {
			out.Merged++
			out.Unrecorded++
			continue
		}
		out.Merged += max(r.Merged, 1)
		out.Unrecorded += r.Unrecorded
		if len(r.Shards) > 0 {
			out.Shards = append(out.Shards, r.Shards...)
		} else if r.Command != "" {
			out.Shards = append(out.Shards, r.Command)
		}
		out.Date = max(out.Date, r.Date) // RFC 3339 in UTC sorts by time
		out.Profile = joinDistinct(out.Profile, r.Profile)
		for _, in := range r.Inputs {
			if !slices.Contains(out.Inputs, in) {
				out.Inputs = append(out.Inputs, in)
			}
		}
		out.Parsers = mergeInfos(out.Parsers, r.Parsers)
	}
	return out
}

// mergeInfos adds the parsers of one report to those of others: a parser
// recorded with another version or runtime lists each ("1.2, 1.3").
func mergeInfos(have, add []Info) []Info {
	for _, p := range add {
		at := slices.IndexFunc(have, func(q Info) bool { return q.Name == p.Name })
		if at < 0 {
			have = append(have, p)
			continue
		}
		q := &have[at]
		q.Version = joinDistinct(q.Version, p.Version)
		q.Runtime = joinDistinct(q.Runtime, p.Runtime)
	}
	return have
}

// joinDistinct adds b to the comma-separated list a unless it holds it.
func joinDistinct(a, b string) string {
	switch {
	case b == "" || slices.Contains(strings.Split(a, ", "), b):
		return a
	case a == "":
		return b
	}
	return a + ", " + b
}

// ID identifies a finding's input: two findings with the same one are
// the same finding.
func (in *Input) ID() string {
	return in.Profile + "\x00" + in.Agent + "\x00" + in.URL + "\x00" + string(in.Robots)
}

func first(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}

// SummarizeFindings makes the summary of findings read on their own (a
// findings file), without the run that found them: the parsers in the
// order of run when given, else in order of first appearance; the groups;
// and the disagreements counted from the findings. Totals, shares and
// areas are not known (FindingsOnly).
func SummarizeFindings(fs []Finding, run *RunInfo) *DiffSummary {
	s := &DiffSummary{FindingsOnly: true, Findings: len(fs), Groups: GroupFindings(fs)}
	if run != nil {
		for _, p := range run.Parsers {
			s.Parsers = append(s.Parsers, p.Name)
		}
	}
	if len(s.Parsers) == 0 {
		for _, f := range fs {
			for _, p := range slices.Sorted(maps.Keys(f.Verdicts)) {
				if !slices.Contains(s.Parsers, p) {
					s.Parsers = append(s.Parsers, p)
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, f := range fs {
		s.Disagreements += max(f.Probes, 1)
		for _, src := range f.Sources {
			seen[src] = true
		}
	}
	s.FilesWithDisagreements = len(seen)
	for i, a := range s.Parsers {
		for _, b := range s.Parsers[i+1:] {
			p := PairStat{A: a, B: b}
			files := map[string]bool{}
			for _, f := range fs {
				if f.Verdicts[a] != f.Verdicts[b] {
					p.ProbeDisagreements += max(f.Probes, 1)
					for _, src := range f.Sources {
						files[src] = true
					}
				}
			}
			p.FileDisagreements = len(files)
			s.Pairs = append(s.Pairs, p)
		}
	}
	return s
}

// MostApart returns the parsers with the most probes of the area off the
// majority's verdict, most first (ties by name), at most n of them and
// none with no such probe.
func (a AreaStat) MostApart(n int) []string {
	ps := make([]string, 0, len(a.Apart))
	for p, k := range a.Apart {
		if k > 0 {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	slices.SortStableFunc(ps, func(x, y string) int { return a.Apart[y] - a.Apart[x] })
	return ps[:min(n, len(ps))]
}

// PairOf returns the pair statistics of parsers a and b, in either
// order, and whether pairs holds them.
func PairOf(pairs []PairStat, a, b string) (PairStat, bool) {
	for _, p := range pairs {
		if p.A == a && p.B == b || p.A == b && p.B == a {
			return p, true
		}
	}
	return PairStat{}, false
}

// Stance is where one parser stands in a group's example: its verdict,
// whether it departs from the reference (any verdict of the reference
// itself, and every verdict when the reference gave none), and whether
// no other parser gave its verdict.
type Stance struct {
	Parser  string
	Verdict Verdict
	Departs bool
	Alone   bool
}

// Stances returns the stance of each parser of sides, in their order,
// against the reference's verdict in the group's example.
func (g Group) Stances(sides []Side, ref string) []Stance {
	refV, hasRef := g.Example.Verdicts[ref]
	var out []Stance
	for _, s := range sides {
		for _, p := range s.Parsers {
			out = append(out, Stance{Parser: p, Verdict: s.Verdict,
				Departs: !hasRef || p == ref || s.Verdict != refV, Alone: len(s.Parsers) == 1})
		}
	}
	return out
}
