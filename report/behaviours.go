package report

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// The behaviours table leads every page that has a diagnosis (the run
// report, the crawl report and the diff dashboard): the misreadings the
// fitter found in any parser or crawler as rows, the parsers as columns,
// like the compatibility tables people read. It renders the document's
// Diagnosis as recorded: which misreadings a parser shows, what it
// explains and which are untested are the fitter's answers, and nothing
// here counts or fits again.

//go:embed html/behaviours.html.tmpl
var behavioursTemplate string

// Cell states of the behaviours table.
const (
	stateFound    = "found"    // the fitter names the misreading for the parser
	stateAlt      = "alt"      // the evidence cannot tell it from one found
	stateAbsent   = "absent"   // tested: the parser does not misread so
	stateUntested = "untested" // the parser's evidence cannot show it
)

// behaviourTable is the table of misreadings × parsers.
type behaviourTable struct {
	// Unit names what a departure is on this page: probes of a diff,
	// checks of a run or a crawl.
	Unit    string
	Span    int // the columns of the table
	Parsers []behaviourCol
	Rows    []behaviourRow
	// Examples are the evidence the found cells link to, grouped by row.
	Examples []exampleGroup
}

// behaviourCol is one parser's or crawler's column.
type behaviourCol struct {
	Key, Name string
	// NameParts are the name cut after each "+", where a variant's name
	// may wrap.
	NameParts               []string
	Departures, Unexplained int
	Explained               int
	NoEvidence              bool   // not diagnosed: no verdict to compare
	Unfitted                int    // files left out of the fit (a sample)
	Share                   string // the explained share of its departures, "97.3%"
	Found                   int    // the behaviours found
	// Found, Absent and Untested name the rows by state, for the narrow
	// layout, which lists them per parser.
	FoundCells          []behaviourCell
	Alt, Absent, Untest []string
}

// behaviourRow is one misreading.
type behaviourRow struct {
	ID, Title   string
	RFC, RFCURL string
	Req         []reqLink
	Anchor      string
	Cells       []behaviourCell
}

// behaviourCell is one parser's answer on one misreading.
type behaviourCell struct {
	Key   string // the parser's filter key
	State string
	Unit  string // the table's
	// ID and Title repeat the row's, for the narrow layout.
	ID, Title   string
	Explains    int
	Contradicts int
	Files       int
	// Alternatives are misreadings the evidence cannot tell from this
	// one; for a cell in state alt, the found ones it stands for.
	Alternatives []string
	Example      string // the anchor of its example, "" without one
}

// exampleGroup holds a misreading's examples; parsers with the same
// example share one.
type exampleGroup struct {
	ID, Title, Anchor string
	Examples          []exampleView
}

// exampleView is one example as the page shows it.
type exampleView struct {
	Anchor    string
	Parsers   []string
	Body      bodyView // the robots.txt; no lines for crawl evidence told in words
	Status    int
	Agent     string
	URL       string
	Verdict   string
	Reference string
	Source    string
	Note      string
	robots    string // the body as recorded, to find the same example
}

// buildBehaviours lays out the diagnosis; nil without one.
func buildBehaviours(ds []result.Diagnosis, unit string, fk *filterKeys) *behaviourTable {
	if len(ds) == 0 {
		return nil
	}
	t := &behaviourTable{Unit: unit}
	ids := behaviourIDs(ds)
	for i, id := range ids {
		t.Rows = append(t.Rows, newBehaviourRow(id, ds, i, fk.table))
	}
	examples := map[string]*exampleGroup{}
	for _, d := range ds {
		col := behaviourCol{Key: fk.parsers.key(d.Parser), Name: d.Parser, NameParts: strings.SplitAfter(d.Parser, "+"), Departures: d.Departures,
			Unexplained: d.Unexplained, Explained: d.Explained(), Share: percent(d.Explained(), d.Departures),
			Found: len(d.Behaviours), NoEvidence: d.NoEvidence, Unfitted: d.Unfitted}
		for r := range t.Rows {
			row := &t.Rows[r]
			c := cellOf(&d, row.ID)
			c.Key, c.ID, c.Title, c.Unit = col.Key, row.ID, row.Title, unit
			if c.State == stateFound {
				c.Example = addExample(examples, row, &d)
				col.FoundCells = append(col.FoundCells, c)
			}
			switch c.State {
			case stateAbsent:
				col.Absent = append(col.Absent, row.ID)
			case stateUntested:
				col.Untest = append(col.Untest, row.ID)
			case stateAlt:
				col.Alt = append(col.Alt, row.ID)
			}
			row.Cells = append(row.Cells, c)
		}
		t.Parsers = append(t.Parsers, col)
	}
	t.Span = len(t.Parsers) + 1
	for _, row := range t.Rows {
		if g := examples[row.ID]; g != nil {
			t.Examples = append(t.Examples, *g)
		}
	}
	return t
}

// behaviourIDs returns the misreadings found in any parser: in the
// catalogue's order, which keeps those of one part of the RFC together,
// and after them, in order of first mention, any the catalogue does not
// know (a document written by another version).
func behaviourIDs(ds []result.Diagnosis) []string {
	found := map[string]bool{}
	var order []string
	for _, d := range ds {
		for _, b := range d.Behaviours {
			if !found[b.ID] {
				found[b.ID] = true
				order = append(order, b.ID)
			}
		}
	}
	var ids []string
	for _, id := range reference.MisreadingIDs() {
		if found[id] {
			ids = append(ids, id)
			delete(found, id)
		}
	}
	for _, id := range order {
		if found[id] {
			ids = append(ids, id)
		}
	}
	return ids
}

// newBehaviourRow describes misreading id as the diagnosis records it
// (its first mention).
func newBehaviourRow(id string, ds []result.Diagnosis, i int, table *reqTable) behaviourRow {
	row := behaviourRow{ID: id, Anchor: "mis-" + strconv.Itoa(i)}
	for _, d := range ds {
		for _, b := range d.Behaviours {
			if b.ID != id {
				continue
			}
			row.Title, row.RFC, row.RFCURL = b.Title, b.RFC, SectionURL(b.RFC)
			for _, r := range b.Req {
				row.Req = append(row.Req, reqLink{ID: r, URL: table.requirementURL(r)})
			}
			return row
		}
	}
	return row
}

// cellOf returns the state of misreading id in d, as d records it.
func cellOf(d *result.Diagnosis, id string) behaviourCell {
	var alt []string
	for _, b := range d.Behaviours {
		if b.ID == id {
			return behaviourCell{State: stateFound, Explains: b.Explains, Contradicts: b.Contradicts,
				Files: b.Files, Alternatives: b.Alternatives}
		}
		if slices.Contains(b.Alternatives, id) {
			alt = append(alt, b.ID)
		}
	}
	switch {
	case len(alt) > 0:
		return behaviourCell{State: stateAlt, Alternatives: alt}
	case slices.Contains(d.Untested, id):
		return behaviourCell{State: stateUntested}
	}
	return behaviourCell{State: stateAbsent}
}

// addExample files the example of row's misreading in d under the row's
// group, sharing one with a parser that has the same, and returns its
// anchor ("" when the diagnosis records none).
func addExample(groups map[string]*exampleGroup, row *behaviourRow, d *result.Diagnosis) string {
	var x *result.Example
	for _, b := range d.Behaviours {
		if b.ID == row.ID {
			x = b.Example
		}
	}
	if x == nil {
		return ""
	}
	g := groups[row.ID]
	if g == nil {
		g = &exampleGroup{ID: row.ID, Title: row.Title, Anchor: row.Anchor}
		groups[row.ID] = g
	}
	for i := range g.Examples {
		if e := &g.Examples[i]; sameExample(e, x) {
			e.Parsers = append(e.Parsers, d.Parser)
			return e.Anchor
		}
	}
	e := exampleView{Anchor: fmt.Sprintf("%s-x%d", row.Anchor, len(g.Examples)), Parsers: []string{d.Parser},
		Status: x.Status, Agent: x.Agent, URL: x.URL, Verdict: verdictWord(x.Verdict), Reference: verdictWord(x.Reference),
		Source: x.Source, Note: x.Note, robots: x.Robots}
	if x.Robots != "" || x.Note == "" {
		e.Body = bodyView{HasBody: true, Size: len(x.Robots), Lines: layoutLines([]byte(x.Robots), nil, nil)}
	}
	g.Examples = append(g.Examples, e)
	return e.Anchor
}

// sameExample reports whether the page would show e and x alike.
func sameExample(e *exampleView, x *result.Example) bool {
	return e.robots == x.Robots && e.Status == x.Status && e.Agent == x.Agent && e.URL == x.URL &&
		e.Note == x.Note && e.Source == x.Source &&
		e.Verdict == verdictWord(x.Verdict) && e.Reference == verdictWord(x.Reference)
}

// verdictWord is a verdict as the page writes it; none is a dash.
func verdictWord(v result.Verdict) string {
	if v == "" {
		return "—"
	}
	return string(v)
}
