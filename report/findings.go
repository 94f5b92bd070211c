package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/reptest/reptest/result"
)

// The differential findings a report shows are the document's, grouped
// and counted once by their producer (result.DiffSummary, whose groups
// are result.GroupFindings'): report lays them out as recorded, so that
// a run reads alike on the terminal, in the JSON summary and on the page.

// dashView is the dashboard of a differential run.
type dashView struct {
	Run       result.RunInfo
	Exact     bool // the counts come from the run's summary
	Reference string
	Files     int
	Probes    int
	Disagree  int
	FilesWith int
	Findings  int
	Parsers   []dashParser
	Matrix    [][]pairCell
	Areas     []areaRow
	Classes   []findingView
	// Eager counts the classes built with the page; the script builds
	// the others from their templates when they come into view.
	Eager int
}

// eagerClasses is how many classes the page builds at once: enough to
// fill a few screens, few enough that a run of thousands of findings
// opens at once.
const eagerClasses = 25

// dashParser is one parser's line beside the matrix.
type dashParser struct {
	Key, Name, Version, Runtime string
	IsRef                       bool
	Departs                     string // share of probes departing from the reference
	DepartN                     int
}

// pairCell is one cell of the pairwise heat map.
type pairCell struct {
	Self                bool
	A, B                string // parser names
	Link                string // the fragment that filters the classes to the pair
	Probes, Files       int    // disagreeing probes and files
	ProbeShare, FileSh  string // "12.3%", "" without totals
	Heat                int    // 0..5
	ProbeTotal, FileTot int
}

// areaRow is the agreement of the parsers on one requirement area's
// probes, as the run's summary recorded it.
type areaRow struct {
	Area, Title    string
	Section, URL   string // the RFC 9309 section
	Link           string // the fragment that filters the classes to the area
	Probes, Agreed int
	Share          string  // agreed share of the area's probes, "97.3%"
	Bar            float64 // the agreed share, 0..100, for the bar
	Apart          []apartView
}

// apartView is a parser that stands apart on an area's probes.
type apartView struct {
	Name  string
	Share string // of the area's probes
	N     int
}

// maxApart bounds the parsers named as standing apart per area.
const maxApart = 3

// findingView is one class of findings on the page.
type findingView struct {
	Anchor                  string
	Signature, Primary      string
	PrimaryURL              string
	Findings, Probes, Files int
	Agent, URL, Profile     string
	Minimized               bool
	Sides                   []result.Side
	Verdicts                [][2]string // parser, verdict in parser order
	Req                     []reqLink
	Trace                   string
	Body                    bodyView
	Sources                 []sourceView
	MoreSources             int
	// Entry is the class as the script filters and sorts it.
	Entry classEntry
}

// classEntry is one class as the page's script filters and sorts it:
// every answer decided here, so that the script only looks up. Values
// are filter keys.
type classEntry struct {
	ID       string            `json:"id"`
	Verdicts map[string]string `json:"v"` // parser → verdict, for the pair filter
	Reqs     []string          `json:"r"`
	Areas    []string          `json:"a"`
	// Departs, With and Alone hold the parsers that depart from the
	// reference's verdict, side with it, or are alone on their side.
	// Without a reference, and for the reference itself, every parser
	// departs and none sides with it.
	Departs  []string `json:"d"`
	With     []string `json:"w"`
	Alone    []string `json:"s"`
	Files    int      `json:"files"`
	Probes   int      `json:"probes"`
	Findings int      `json:"findings"`
	// SigRank is the class's place in signature order.
	SigRank int `json:"sig"`
}

type sourceView struct {
	Name  string
	Lines string
}

// maxSources bounds the source files listed per class.
const maxSources = 12

// buildDash lays out the dashboard of a differential run's findings: the
// groups, pairs and counts of the document's summary, in its order, and
// the reference its producer recorded.
func buildDash(d *result.Document, fk *filterKeys) *dashView {
	s := d.Summary
	v := &dashView{Findings: len(d.Findings), Eager: eagerClasses, Exact: !s.FindingsOnly}
	if d.Run != nil {
		v.Run = *d.Run
	}
	if v.Run.Profile == "" && len(d.Findings) > 0 {
		v.Run.Profile = d.Findings[0].Profile
	}
	v.Files, v.Probes, v.Disagree, v.FilesWith = s.Files, s.Probes, s.Disagreements, s.FilesWithDisagreements
	names := s.Parsers
	fk.parsers.each(names) // the filter lists the parsers in the run's order
	v.Reference = d.Reference
	for _, g := range s.Groups {
		v.Classes = append(v.Classes, findingOf(g, d.Findings, names, v.Reference, fk))
	}
	rankSignatures(v.Classes)
	v.Matrix = heatMap(names, s.Pairs, fk)
	v.Parsers = parserLines(&v.Run, names, s.Pairs, v.Reference, fk)
	if v.Exact {
		v.Areas = areaRows(s.Areas, fk)
	}
	return v
}

// heatMap lays out the pairs as a symmetric matrix.
func heatMap(names []string, pairs []result.PairStat, fk *filterKeys) [][]pairCell {
	at := map[[2]string]result.PairStat{}
	most := 1
	for _, p := range pairs {
		at[[2]string{p.A, p.B}], at[[2]string{p.B, p.A}] = p, p
		most = max(most, p.ProbeDisagreements)
	}
	rows := make([][]pairCell, len(names))
	for i, a := range names {
		for j, b := range names {
			c := pairCell{A: a, B: b, Self: i == j}
			if p, ok := at[[2]string{a, b}]; ok && !c.Self {
				c.Probes, c.Files, c.ProbeTotal, c.FileTot = p.ProbeDisagreements, p.FileDisagreements, p.Probes, p.Files
				c.Link = "#pair=" + fk.parsers.key(a) + "." + fk.parsers.key(b)
				share := float64(p.ProbeDisagreements) / float64(most)
				if p.Probes > 0 {
					c.ProbeShare = percent(p.ProbeDisagreements, p.Probes)
					share = p.ProbeShare
				}
				if p.Files > 0 {
					c.FileSh = percent(p.FileDisagreements, p.Files)
				}
				c.Heat = heat(share, c.Probes)
			}
			rows[i] = append(rows[i], c)
		}
	}
	return rows
}

// heat buckets a share into 0 (none) .. 6 on a log-like scale, so that
// small shares still show and large ones still differ.
func heat(share float64, n int) int {
	if n == 0 {
		return 0
	}
	for i, limit := range []float64{0.02, 0.05, 0.1, 0.25, 0.5} {
		if share < limit {
			return i + 1
		}
	}
	return 6
}

func percent(a, b int) string {
	if b == 0 {
		return ""
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// parserLines gives each parser its share of probes departing from the
// reference (the pair with the reference); what it misreads is the
// behaviours table's (buildBehaviours).
func parserLines(run *result.RunInfo, names []string, pairs []result.PairStat, ref string, fk *filterKeys) []dashParser {
	infos := map[string]result.Info{}
	for _, p := range run.Parsers {
		infos[p.Name] = p
	}
	var out []dashParser
	for _, n := range names {
		dp := dashParser{Key: fk.parsers.key(n), Name: n, Version: infos[n].Version, Runtime: infos[n].Runtime, IsRef: n == ref}
		if p, ok := result.PairOf(pairs, n, ref); ok && ref != "" && n != ref {
			dp.DepartN = p.ProbeDisagreements
			dp.Departs = percent(p.ProbeDisagreements, p.Probes)
		}
		out = append(out, dp)
	}
	return out
}

// areaRows lays out the summary's per-area agreement in the order of
// the requirement table; who stands apart are the parsers with the most
// probes off the majority's verdict (at most maxApart, none without).
func areaRows(areas []result.AreaStat, fk *filterKeys) []areaRow {
	var out []areaRow
	for _, st := range areas {
		ar := fk.table.area(st.Area)
		r := areaRow{Area: st.Area, Title: ar.Title, Section: ar.Section, URL: SectionURL(ar.Section), Probes: st.Probes, Agreed: st.Agreed,
			Share: percent(st.Agreed, st.Probes), Link: "#area=" + fk.areas.key(st.Area)}
		if st.Probes > 0 {
			r.Bar = 100 * float64(st.Agreed) / float64(st.Probes)
		}
		for _, p := range st.MostApart(maxApart) {
			r.Apart = append(r.Apart, apartView{Name: p, N: st.Apart[p], Share: percent(st.Apart[p], st.Probes)})
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(x, y areaRow) int { return fk.table.areaRank(x.Area) - fk.table.areaRank(y.Area) })
	return out
}

// findingOf lays out one class: its example, every parser's verdict,
// the reference's trace, and the source files of all its findings.
func findingOf(g result.Group, fs []result.Finding, names []string, ref string, fk *filterKeys) findingView {
	ex := &g.Example
	f := findingView{Anchor: groupAnchor(g), Signature: g.Signature, Primary: g.Primary, PrimaryURL: fk.table.requirementURL(g.Primary),
		Findings: g.Findings, Probes: g.Probes, Files: g.Files, Agent: ex.Agent, URL: ex.URL, Profile: ex.Profile,
		Minimized: ex.Minimized, Sides: result.Sides(ex.Verdicts), Trace: ex.Trace}
	for _, n := range names {
		if v, ok := ex.Verdicts[n]; ok {
			f.Verdicts = append(f.Verdicts, [2]string{n, string(v)})
		}
	}
	for _, id := range g.Req {
		f.Req = append(f.Req, reqLink{ID: id, URL: fk.table.requirementURL(id)})
	}
	f.Entry = entryOf(g, f.Anchor, f.Sides, ref, fk)
	b := result.NewBody(ex.Robots)
	f.Body = bodyOf("robots.txt", b)
	var marks map[int][]int
	if ex.Line > 0 {
		marks = map[int][]int{ex.Line: {0}}
	}
	f.Body.Lines = layoutLines(b.Bytes(), marks, nil)
	for i := range f.Body.Lines {
		if f.Body.Lines[i].Mark {
			f.Body.Lines[i].Why = "deciding line (reference)"
		}
	}
	f.Sources, f.MoreSources = classSources(g, fs)
	return f
}

// entryOf decides how a class answers each filter.
func entryOf(g result.Group, anchor string, sides []result.Side, ref string, fk *filterKeys) classEntry {
	e := classEntry{ID: anchor, Verdicts: map[string]string{}, Reqs: fk.reqs.each(g.Req), Areas: fk.areas.each(fk.table.areasOf(g.Req)),
		Departs: []string{}, With: []string{}, Alone: []string{}, Files: g.Files, Probes: g.Probes, Findings: g.Findings}
	for _, st := range g.Stances(sides, ref) {
		k := fk.parsers.key(st.Parser)
		e.Verdicts[k] = fk.verdicts.key(string(st.Verdict))
		if st.Departs {
			e.Departs = append(e.Departs, k)
		} else {
			e.With = append(e.With, k)
		}
		if st.Alone {
			e.Alone = append(e.Alone, k)
		}
	}
	return e
}

// rankSignatures numbers the classes in signature order, for the sort
// by signature.
func rankSignatures(cs []findingView) {
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cs[order[a]].Signature < cs[order[b]].Signature })
	for rank, i := range order {
		cs[i].Entry.SigRank = rank
	}
}

// classSources lists the source files of a group's findings with the
// lines their probes came from (Group.Sources), at most maxSources, and
// how many more there are.
func classSources(g result.Group, fs []result.Finding) ([]sourceView, int) {
	order, lines := g.Sources(fs)
	more := max(0, len(order)-maxSources)
	order = order[:min(len(order), maxSources)]
	var out []sourceView
	for _, s := range order {
		var txt []string
		for _, n := range lines[s] {
			txt = append(txt, fmt.Sprint(n))
		}
		sv := sourceView{Name: s}
		if len(txt) > 0 {
			sv.Lines = "line " + strings.Join(txt, ", ")
			if len(txt) > 1 {
				sv.Lines = "lines " + strings.Join(txt, ", ")
			}
		}
		out = append(out, sv)
	}
	return out, more
}

// groupAnchor names a group's element: a hash of its key, so that a
// permalink to a group stays valid across runs that find it again.
func groupAnchor(g result.Group) string {
	h := sha256.Sum256([]byte(g.Key()))
	return "c-" + hex.EncodeToString(h[:6])
}

// findingRow is one finding as the page offers it for download: the
// findings format (result.Finding's JSON) and the class it belongs to. A
// body longer than maxRowBody is left out, its size kept, so that the
// page stays small.
type findingRow struct {
	Class string `json:"class"`
	result.Finding
	RobotsOmitted int `json:"robots_omitted,omitempty"`
}

const maxRowBody = 16 << 10

// downloadRows pairs each finding with its class's anchor.
func downloadRows(fs []result.Finding, v *dashView) findingRows {
	anchor := map[string]string{}
	for _, c := range v.Classes {
		anchor[c.Signature+" "+c.Primary] = c.Anchor
	}
	out := make([]findingRow, 0, len(fs))
	for _, f := range fs {
		if f.Req == nil {
			f.Req = []string{}
		}
		row := findingRow{Class: anchor[f.Key()], Finding: f}
		if len(f.Robots) > maxRowBody {
			row.Robots, row.RobotsOmitted = nil, len(f.Robots)
		}
		out = append(out, row)
	}
	return out
}
