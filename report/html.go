package report

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

//go:embed html/report.html.tmpl
var htmlTemplate string

//go:embed html/report.css
var htmlCSS string

//go:embed html/report.js
var htmlJS string

// HTMLOptions controls the HTML report.
type HTMLOptions struct {
	// Title is the page title; empty means "reptest report".
	Title string
	// Table is the requirement table that requirement IDs are looked up
	// in (levels, sections, summaries, area titles) for the rows and
	// areas the document does not carry: reptest's own table
	// (cases.RequirementTable) for the documents of reptest diff and
	// audit, which carry none, and of earlier versions. A document's own
	// table always comes first.
	Table result.Table
}

// WriteHTML writes the document as one self-contained HTML page: inline
// CSS, inline SVG charts and a little inline JavaScript, nothing loaded
// from elsewhere. A Content-Security-Policy admits only that script and
// style (by hash). Every value from the document goes through
// html/template's contextual escaping; characters that are invisible or
// reorder text are shown as visible escapes; data for the script is a
// JSON block, never code.
func WriteHTML(w io.Writer, d *result.Document, o HTMLOptions) error {
	t, err := template.New("report").Funcs(template.FuncMap{
		"vis":  func(s string) vtext { return newVtext(s, 2000) },
		"visn": newVtext,
		"visml": func(s string, limit int) vtext {
			segs, more := segmentsKeep(s, limit, true)
			return vtext{Segs: segs, More: more}
		},
		"join":    strings.Join,
		"symbol":  func(o any) string { return outcomeSymbol(result.Outcome(fmt.Sprint(o))) },
		"upper":   strings.ToUpper,
		"visible": func(s string) string { return visible(s, 300) },
	}).Parse(htmlTemplate)
	if err == nil {
		t, err = t.Parse(crawlTemplate)
	}
	if err == nil {
		t, err = t.Parse(auditTemplate)
	}
	if err == nil {
		t, err = t.Parse(behavioursTemplate)
	}
	if err != nil {
		return fmt.Errorf("report: HTML template: %w", err)
	}
	v := buildView(d, o)
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return fmt.Errorf("report: rendering HTML: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("report: writing HTML: %w", err)
	}
	return nil
}

// cspHash returns the CSP source expression of an inline element's text.
func cspHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

// contentSecurityPolicy admits the report's own inline script and style
// and nothing else.
func contentSecurityPolicy() string {
	return "default-src 'none'; script-src " + cspHash(htmlJS) + "; style-src " + cspHash(htmlCSS) +
		"; img-src data:; base-uri 'none'; form-action 'none'"
}

// vtext is a string prepared for display: plain and escaped runs, and how
// many bytes were left out.
type vtext struct {
	Segs []seg
	More int
}

func newVtext(s string, limit int) vtext {
	segs, more := segments(s, limit)
	return vtext{Segs: segs, More: more}
}

// allOutcomes in the order filters show them.
var allOutcomes = []result.Outcome{result.Pass, result.Note, result.Deviation, result.Violation, result.Error, result.Skipped}

// outcomeSymbol is the symbol shown beside an outcome's colour, so that
// colour is never the only sign.
func outcomeSymbol(o result.Outcome) string {
	switch o {
	case result.Pass:
		return "✓"
	case result.Note:
		return "•"
	case result.Deviation:
		return "▲"
	case result.Violation:
		return "✗"
	case result.Error:
		return "‼"
	case result.Skipped:
		return "–"
	}
	return "?"
}

// The Okabe-Ito palette, ordered so that neighbours differ most; yellow
// last because it is faint on white.
var parserColors = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"}

type htmlView struct {
	Title      string
	CSP        string
	Style      template.CSS
	Script     template.JS
	Data       htmlData
	Findings   findingRows
	Version    string
	Profile    string
	Drafts     string
	Layout     string // reptest crawl's layout, and why when it fell back
	Strict     bool
	Total      int
	Parsers    []parserView
	Chart      chartView
	ReqTable   reqTableView
	Cards      []caseCard
	Dash       *dashView
	HasRun     bool
	Unexpected []result.UnexpectedPass
	Expected   int
	Crawls     []crawlView
	Audits     []timelineView
	// AuditNote says that an audit verified nothing; AuditSplit, that the
	// overview has a column of verified and claimed requests.
	AuditNote  string
	AuditSplit bool
	Behaviours *behaviourTable
	// Interrupted says that the run did not finish, and why; "" when it
	// did.
	Interrupted string
}

// htmlData is the JSON block the script reads: the filter options and,
// for the self-test, the number of verdict rows per parser key. Filter
// values are small integer keys, so that no value from the document ends
// up in an attribute; labels are the visible forms of the names.
type htmlData struct {
	Parsers  []option `json:"parsers"`
	Outcomes []option `json:"outcomes"`
	Levels   []option `json:"levels"`
	Areas    []option `json:"areas"`
	Reqs     []option `json:"reqs,omitempty"`
	// Ref is the name of the parser findings are measured against.
	Ref  string         `json:"ref,omitempty"`
	Rows map[string]int `json:"rows"`
	// Classes are the dashboard's classes in the page's order, as the
	// filters see them.
	Classes []classEntry `json:"classes,omitempty"`
}

// findingRows are the findings behind the dashboard, for its downloads:
// a block of their own, which the script parses only to download.
type findingRows []findingRow

func (f findingRows) MarshalJSON() ([]byte, error) { return asciiJSON([]findingRow(f)) }

func (h htmlData) MarshalJSON() ([]byte, error) {
	type plain htmlData
	return asciiJSON(plain(h))
}

type option struct {
	Value string `json:"v"`
	Label string `json:"l"`
	Name  string `json:"n"` // the name as given, for the self-test
}

// asciiJSON writes v as JSON with DEL and every non-ASCII character
// escaped (\uXXXX), so that a data block holds no bidirectional or
// invisible characters; html/template then escapes "<", ">" and "&".
func asciiJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, r := range string(b) {
		switch {
		case r < 0x7F:
			out.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&out, "\\u%04x\\u%04x", r1, r2)
		default:
			fmt.Fprintf(&out, "\\u%04x", r)
		}
	}
	return out.Bytes(), nil
}

// keys gives each distinct name a small integer key, in order of first
// use.
type keys struct {
	idx  map[string]int
	list []string
}

func (k *keys) key(name string) string {
	if k.idx == nil {
		k.idx = map[string]int{}
	}
	i, ok := k.idx[name]
	if !ok {
		i = len(k.list)
		k.idx[name] = i
		k.list = append(k.list, name)
	}
	return strconv.Itoa(i)
}

// keyList returns the keys of several names, space-separated.
func (k *keys) keyList(names []string) string { return strings.Join(k.each(names), " ") }

// each returns the keys of names, in order.
func (k *keys) each(names []string) []string {
	s := make([]string, 0, len(names))
	for _, n := range names {
		s = append(s, k.key(n))
	}
	return s
}

func (k *keys) options(label func(string) string) []option {
	out := make([]option, 0, len(k.list))
	for i, n := range k.list {
		out = append(out, option{Value: strconv.Itoa(i), Label: label(n), Name: n})
	}
	return out
}

type parserView struct {
	Key                  string
	Name, Version, Color string
	Shape                string // SVG path of the parser's marker, centred on 0,0
	S                    result.Summary
	New, Known           int
	Bar                  []barSeg
	Split                *verification // an audited agent's verified and claimed requests
}

type barSeg struct {
	X, W    float64
	Outcome result.Outcome
	N       int
}

// chartView is the pass-rate chart in two layouts of the same marks: the
// wide one with the area names left of the plot, and the narrow one (N*,
// shown on small screens) with each name above its row, so that the plot
// takes the whole width and nothing is cut off.
type chartView struct {
	W, H   int
	Left   int
	Ticks  []tick
	Rows   []chartRow
	Legend []parserView
	NW, NH int
}

type tick struct {
	X, NX float64
	Label string
}

type chartRow struct {
	Y, NY   float64 // the row's line; NY in the narrow layout
	Area    string
	Title   string
	Section string
	Marks   []mark
}

type mark struct {
	Key         string
	X, Y        float64
	NX, NY      float64
	Color       string
	Shape       string
	Tip         string
	Pass, Total int
}

type reqTableView struct {
	HasReqs bool // the document has a requirement table
	Parsers []parserCol
	Rows    []reqRow
}

type reqRow struct {
	ID, URL, Level, Title, Area string
	AreaKey, LevelKey           string
	Cases                       int
	HasCases                    bool
	Cells                       []cell
}

// parserCol is a parser's column: its filter key and name.
type parserCol struct{ Key, Name string }

type cell struct {
	Key         string // the parser's filter key
	Outcome     result.Outcome
	Pass, Total int
	Skipped     int
	Empty       bool
}

type caseCard struct {
	ID, Title, Source, Profile string
	Anchor                     string // the element id, when the case id is a plain one
	Bodies                     []bodyView
	Checks                     []checkView
}

type bodyView struct {
	Label     string
	URL       string
	Status    int
	Fault     string
	Delay     string
	Headers   [][2]string
	At        string
	HasBody   bool
	Size      int
	Generated string
	Lines     []lineView
	Omitted   int // bytes not stored
	Empty     bool
}

type lineView struct {
	N      int
	Text   vtext
	Mark   bool
	Why    string
	Gap    bool // a row standing for lines left out
	Binary bool
}

type checkView struct {
	Index        int
	Agent, URL   string
	Expect       string
	Level        string
	Req          []reqLink
	AreaKeys     string
	LevelKey     string
	Step         string
	Line         int
	Trace        string
	Rows         []verdictRow
	ExpectedRule string
}

type reqLink struct{ ID, URL string }

type verdictRow struct {
	Key             string
	Parser, Verdict string
	Outcome         result.Outcome
	Detail          string
	Known           *result.ExpectedFailure
}

// filterKeys holds the keys of the values the filters select on.
type filterKeys struct {
	parsers, levels, areas, reqs, verdicts keys
	// table is the requirement table the page is rendered with.
	table *reqTable
}

func buildView(d *result.Document, o HTMLOptions) *htmlView {
	v := &htmlView{
		Title:   o.Title,
		CSP:     contentSecurityPolicy(),
		Style:   template.CSS(htmlCSS),
		Script:  template.JS(htmlJS),
		Version: d.Version,
		Profile: d.Profile,
		Drafts:  d.Drafts,
		Layout:  strings.TrimSuffix(d.CrawlLayout+": "+d.CrawlLayoutNote, ": "),
		Strict:  d.Strict,
		Total:   len(d.Results),
	}
	if v.Title == "" {
		v.Title = "reptest report"
	}
	if d.Interrupted {
		v.Interrupted = "The run did not finish"
		if d.InterruptReason != "" {
			v.Interrupted += " (" + d.InterruptReason + ")"
		}
		v.Interrupted += ": these results are incomplete."
	}
	fk := filterKeys{table: tableOf(d, o.Table)}
	for _, l := range []result.Level{result.MUST, result.SHOULD, result.MAY, result.Interpretation} {
		fk.levels.key(string(l))
	}
	for _, a := range fk.table.areas {
		fk.areas.key(a.Name)
	}
	exp := d.ExpectedIndex()
	v.Expected = len(d.Expected)
	v.Unexpected = d.Unexpected
	fails := d.FailureCounts()
	for i, s := range d.Parsers {
		pv := parserView{Key: fk.parsers.key(s.Name), Name: s.Name, Version: s.Version,
			Color: parserColor(i), Shape: markerPath(i), S: s, New: fails[s.Name].New, Known: fails[s.Name].Known}
		pv.Bar = outcomeBar(s)
		v.Parsers = append(v.Parsers, pv)
	}
	v.Chart = buildChart(d, v.Parsers, fk.table)
	v.ReqTable = buildReqTable(d, &fk)
	var rows map[string]int
	v.Cards, rows = buildCards(d, exp, &fk)
	v.HasRun = len(d.Results) > 0
	if d.Summary != nil {
		v.Dash = buildDash(d, &fk)
		v.Findings = downloadRows(d.Findings, v.Dash)
		for _, c := range v.Dash.Classes {
			v.Data.Classes = append(v.Data.Classes, c.Entry)
		}
		v.Data.Reqs = fk.reqs.options(func(s string) string { return visible(s, 60) })
		v.Data.Ref = v.Dash.Reference
	}

	v.Behaviours = buildBehaviours(d.Diagnosis, d.DepartureUnit(), &fk)
	v.Crawls = crawlViews(d)
	v.Audits = auditViews(d.Audit)
	v.AuditNote, v.AuditSplit = auditOverview(d.Audit, v.Parsers)
	v.Data.Rows = map[string]int{}
	for p, n := range rows {
		v.Data.Rows[fk.parsers.key(p)] = n
	}
	v.Data.Parsers = fk.parsers.options(func(s string) string { return visible(s, 100) })
	for _, oc := range allOutcomes {
		v.Data.Outcomes = append(v.Data.Outcomes, option{Value: string(oc), Label: outcomeSymbol(oc) + " " + string(oc), Name: string(oc)})
	}
	v.Data.Levels = fk.levels.options(func(s string) string { return visible(s, 40) })
	v.Data.Areas = fk.areas.options(func(s string) string { return visible(fk.table.area(s).Title, 100) })
	return v
}

// outcomeBar lays out a 200-unit stacked bar of a parser's outcomes.
func outcomeBar(s result.Summary) []barSeg {
	counts := []struct {
		o result.Outcome
		n int
	}{{result.Pass, s.Pass}, {result.Note, s.Note}, {result.Deviation, s.Deviations}, {result.Violation, s.Violations}, {result.Error, s.Errors}, {result.Skipped, s.Skipped}}
	if s.Checks == 0 {
		return nil
	}
	var out []barSeg
	x := 0.0
	for _, c := range counts {
		if c.n == 0 {
			continue
		}
		w := 200 * float64(c.n) / float64(s.Checks)
		out = append(out, barSeg{X: x, W: w, Outcome: c.o, N: c.n})
		x += w
	}
	return out
}

// parserColor and markerPath give parser i its colour and marker. The
// colour cycles through the eight of the palette and the shape through the
// eight markers, the shape moving one step further on each round of the
// colours, so that the first 64 parsers all have a pair of their own: the
// ninth is a blue square, not the first's blue circle.
func parserColor(i int) string { return parserColors[i%len(parserColors)] }

// markerPath returns the SVG path of parser i's marker, about 10 units
// wide, centred on 0,0: circle, square, triangle, diamond, down triangle,
// plus, cross, star (see parserColor).
func markerPath(i int) string {
	switch (i + i/len(parserColors)) % 8 {
	case 0:
		return "M-5,0a5,5 0 1,0 10,0a5,5 0 1,0 -10,0Z"
	case 1:
		return "M-4.5,-4.5H4.5V4.5H-4.5Z"
	case 2:
		return "M0,-5.5L5.5,4.5H-5.5Z"
	case 3:
		return "M0,-6L6,0L0,6L-6,0Z"
	case 4:
		return "M0,5.5L5.5,-4.5H-5.5Z"
	case 5:
		return "M-1.8,-6H1.8V-1.8H6V1.8H1.8V6H-1.8V1.8H-6V-1.8H-1.8Z"
	case 6:
		return "M-5,-3.5L-3.5,-5L0,-1.5L3.5,-5L5,-3.5L1.5,0L5,3.5L3.5,5L0,1.5L-3.5,5L-5,3.5L-1.5,0Z"
	}
	return "M0,-6L1.6,-2H6L2.5,0.8L3.8,5.5L0,2.8L-3.8,5.5L-2.5,0.8L-6,-2H-1.6Z"
}

// buildChart computes the pass rate per requirement area per parser.
func buildChart(d *result.Document, ps []parserView, t *reqTable) chartView {
	tallies := d.Tally(func(r result.Result) []string { return t.areasOf(r.Req) })
	present := map[string]bool{}
	for k, tl := range tallies {
		if tl.Total > 0 {
			present[k.Heading] = true
		}
	}
	var names []string
	for a := range present {
		names = append(names, a)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := t.areaRank(a) - t.areaRank(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	const left, plotW, rowH, top = 200, 700, 30, 24
	// The narrow layout: a plot as wide as a phone, the name above each row.
	const nLeft, nPlotW, nRowH = 14, 340, 48
	c := chartView{Left: left, W: left + plotW + 30, Legend: ps, NW: nLeft + nPlotW + 22}
	// One scale, 0 to 100 %, on every page whatever the data, so that two
	// reports can be compared by eye.
	xOf := func(rate float64) float64 { return float64(left) + float64(plotW)*rate }
	nxOf := func(rate float64) float64 { return float64(nLeft) + float64(nPlotW)*rate }
	for p := 0; p <= 100; p += 20 {
		c.Ticks = append(c.Ticks, tick{X: xOf(float64(p) / 100), NX: nxOf(float64(p) / 100), Label: fmt.Sprintf("%d%%", p)})
	}
	for i, a := range names {
		row := chartRow{Y: float64(top + i*rowH + rowH/2), NY: float64(top + i*nRowH + 30),
			Area: a, Title: t.area(a).Title, Section: t.area(a).Section}
		n := len(ps)
		for j, p := range ps {
			tl := tallies[result.TallyKey{Heading: a, Parser: p.Name}]
			if tl == nil || tl.Total == 0 {
				continue
			}
			rate := float64(tl.Pass) / float64(tl.Total)
			off := 0.0
			if n > 1 {
				off = (float64(j) - float64(n-1)/2) * min(6, 20/float64(n-1))
			}
			row.Marks = append(row.Marks, mark{
				Key: p.Key, X: xOf(rate), Y: row.Y + off, NX: nxOf(rate), NY: row.NY + off,
				Color: p.Color, Shape: p.Shape,
				Tip:  visible(fmt.Sprintf("%s, %s: %d of %d checks pass (%.1f%%)", p.Name, a, tl.Pass, tl.Total, 100*rate), 300),
				Pass: tl.Pass, Total: tl.Total,
			})
		}
		c.Rows = append(c.Rows, row)
	}
	c.H = top + len(names)*rowH + 30
	c.NH = top + len(names)*nRowH + 20
	return c
}

// buildReqTable builds the requirement × parser table (not report.Matrix,
// which is agents × paths for one file).
func buildReqTable(d *result.Document, fk *filterKeys) reqTableView {
	m := reqTableView{}
	for _, p := range d.Parsers {
		m.Parsers = append(m.Parsers, parserCol{Key: fk.parsers.key(p.Name), Name: p.Name})
	}
	rows := map[string]*reqRow{}
	var ids []string
	add := func(id string) *reqRow {
		if r, ok := rows[id]; ok {
			return r
		}
		r := &reqRow{ID: id, Area: fk.table.areaOf(id), URL: fk.table.requirementURL(id), Cells: make([]cell, len(m.Parsers))}
		for i := range r.Cells {
			r.Cells[i].Empty, r.Cells[i].Key = true, m.Parsers[i].Key
		}
		rows[id] = r
		ids = append(ids, id)
		return r
	}
	m.HasReqs = len(d.Requirements) > 0
	for _, rq := range d.Requirements {
		r := add(rq.ID)
		r.Level, r.Title, r.Cases, r.HasCases = rq.Level, rq.Summary, rq.Cases, true
	}
	pidx := map[string]int{}
	for i, p := range m.Parsers {
		pidx[p.Name] = i
	}
	for _, res := range d.Results {
		if _, ok := pidx[res.Parser]; !ok {
			continue
		}
		for _, id := range res.Req {
			if r := add(id); r.Level == "" {
				r.Level = string(res.Level)
			}
		}
	}
	for k, tl := range d.Tally(func(r result.Result) []string { return r.Req }) {
		i, ok := pidx[k.Parser]
		if !ok {
			continue
		}
		c := &rows[k.Heading].Cells[i]
		c.Empty, c.Outcome = false, tl.Worst
		c.Pass, c.Total, c.Skipped = tl.Pass, tl.Total, tl.Skipped
	}
	slices.SortFunc(ids, fk.table.compareReq)
	for _, id := range ids {
		r := rows[id]
		if r.HasCases && r.Cases > 0 && noResults(r.Cells) {
			// Its cases are of the other profile: not this run's row.
			continue
		}
		r.AreaKey, r.LevelKey = fk.areas.key(r.Area), fk.levels.key(r.Level)
		m.Rows = append(m.Rows, *r)
	}
	return m
}

// noResults reports whether no parser has a result in the cells.
func noResults(cs []cell) bool {
	for _, c := range cs {
		if !c.Empty {
			return false
		}
	}
	return true
}

// buildCards builds one card per case that has a check some parser did
// not pass, and counts the verdict rows per parser.
func buildCards(d *result.Document, exp map[result.Key]*result.ExpectedFailure, fk *filterKeys) ([]caseCard, map[string]int) {
	counts := map[string]int{}
	shown := map[result.Key]bool{} // (case, check) with a non-pass outcome; Parser unused
	for _, r := range d.Results {
		if r.Outcome != result.Pass && r.Outcome != result.Skipped {
			shown[result.Key{Case: r.Case, Check: r.Check}] = true
		}
	}
	var cards []caseCard
	var cur *caseCard
	var curCheck *checkView
	for _, r := range d.Results {
		if !shown[result.Key{Case: r.Case, Check: r.Check}] {
			continue
		}
		if cur == nil || cur.ID != r.Case {
			cards = append(cards, newCard(d, r))
			cur = &cards[len(cards)-1]
			curCheck = nil
		}
		if curCheck == nil || curCheck.Index != r.Check {
			cur.Checks = append(cur.Checks, newCheck(d, r, fk))
			curCheck = &cur.Checks[len(cur.Checks)-1]
		}
		verdict := string(r.Verdict)
		if verdict == "" {
			verdict = "—"
		}
		curCheck.Rows = append(curCheck.Rows, verdictRow{Key: fk.parsers.key(r.Parser), Parser: r.Parser, Verdict: verdict, Outcome: r.Outcome, Detail: rowDetail(r), Known: exp[keyOf(r)]})
		counts[r.Parser]++
	}
	for i := range cards {
		markLines(d, &cards[i])
	}
	return cards, counts
}

// rowDetail is the runner's detail of a result, followed by the parser's
// own (the protocol's "detail"), as JUnit and -v show them.
func rowDetail(r result.Result) string {
	if r.ParserDetail == "" {
		return r.Detail
	}
	return strings.TrimSpace(r.Detail + "\nthe parser says: " + r.ParserDetail)
}

func newCard(d *result.Document, r result.Result) caseCard {
	c := caseCard{ID: r.Case, Title: r.Title, Profile: r.Profile}
	if anchorRE.MatchString(r.Case) {
		c.Anchor = "case-" + r.Case
	}
	ci := d.Cases[r.Case]
	if ci == nil {
		return c
	}
	if c.Title == "" {
		c.Title = ci.Title
	}
	c.Source = ci.Source
	if c.Profile == "" {
		c.Profile = ci.Profile
	}
	switch {
	case ci.Robots != nil:
		c.Bodies = append(c.Bodies, bodyOf("robots.txt", ci.Robots))
	case len(ci.Fetch) > 0:
		for _, s := range ci.Fetch {
			c.Bodies = append(c.Bodies, servedView(s, ""))
		}
	case len(ci.Timeline) > 0:
		for _, s := range ci.Timeline {
			c.Bodies = append(c.Bodies, servedView(s.Response, s.At))
		}
	}
	return c
}

func newCheck(d *result.Document, r result.Result, fk *filterKeys) checkView {
	want := string(r.Expect)
	for _, a := range r.Accept {
		want += " (or " + string(a) + ")"
	}
	cv := checkView{Index: r.Check, Agent: r.Agent, URL: r.URL, Expect: want, Level: string(r.Level), Step: r.Step, Trace: r.Trace}
	for _, id := range r.Req {
		cv.Req = append(cv.Req, reqLink{ID: id, URL: fk.table.requirementURL(id)})
	}
	cv.AreaKeys = fk.areas.keyList(fk.table.areasOf(r.Req))
	cv.LevelKey = fk.levels.key(string(r.Level))
	switch {
	case r.Rule == nil:
	case *r.Rule == 0:
		cv.ExpectedRule = "no rule should match"
	default:
		cv.ExpectedRule = fmt.Sprintf("deciding rule at line %d", *r.Rule)
	}
	if ci := d.Cases[r.Case]; ci != nil && r.Check >= 0 && r.Check < len(ci.Checks) {
		info := ci.Checks[r.Check]
		cv.Line = info.Line
		if cv.Trace == "" {
			cv.Trace = info.Trace
		}
	}
	return cv
}

// markLines highlights the reference's deciding line of each shown check
// in the body it belongs to.
func markLines(d *result.Document, c *caseCard) {
	ci := d.Cases[c.ID]
	if ci == nil {
		return
	}
	marks := map[int]map[int][]int{} // body index → line → checks
	texts := map[int]map[int]string{}
	for _, cv := range c.Checks {
		if cv.Index < 0 || cv.Index >= len(ci.Checks) {
			continue
		}
		info := ci.Checks[cv.Index]
		if info.Line == 0 {
			continue
		}
		b := 0
		if ci.Robots == nil {
			if info.Response == 0 {
				continue
			}
			b = info.Response - 1
		}
		if b >= len(c.Bodies) {
			continue
		}
		if marks[b] == nil {
			marks[b], texts[b] = map[int][]int{}, map[int]string{}
		}
		if !slices.Contains(marks[b][info.Line], cv.Index) {
			marks[b][info.Line] = append(marks[b][info.Line], cv.Index)
		}
		if info.LineText != "" {
			texts[b][info.Line] = info.LineText
		}
	}
	for b := range c.Bodies {
		c.Bodies[b].Lines = layoutLines(c.Bodies[b].raw(ci, b), marks[b], texts[b])
	}
}

// raw returns the stored bytes of a card's body b.
func (bv *bodyView) raw(ci *result.CaseInfo, b int) []byte {
	switch {
	case ci.Robots != nil:
		return ci.Robots.Bytes()
	case len(ci.Fetch) > b:
		return ci.Fetch[b].Body.Bytes()
	case len(ci.Timeline) > b:
		return ci.Timeline[b].Response.Body.Bytes()
	}
	return nil
}

// anchorRE matches case ids that can serve as element ids as they are.
var anchorRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9/_.-]*$`)

// maxListed bounds the lines listed per body; past it the listing keeps
// its first lines and the marked ones with some context.
const maxListed = 400

// layoutLines numbers a body's lines and marks the deciding lines. A
// marked line past the stored part is appended from its saved text.
func layoutLines(body []byte, marks map[int][]int, texts map[int]string) []lineView {
	lines := reference.SplitLines(string(body))
	show := func(n int) bool {
		if len(lines) <= maxListed || n <= 200 {
			return true
		}
		for m := range marks {
			if n >= m-5 && n <= m+5 {
				return true
			}
		}
		return false
	}
	var out []lineView
	nums, gap := excerpt(len(lines), show)
	for _, n := range nums {
		if n == 0 {
			out = append(out, lineView{Gap: true})
			continue
		}
		out = append(out, newLine(n, string(lines[n-1]), marks[n]))
	}
	if gap {
		out = append(out, lineView{Gap: true})
	}
	var late []int
	for m := range marks {
		if m > len(lines) {
			late = append(late, m)
		}
	}
	slices.Sort(late)
	for _, m := range late {
		out = append(out, lineView{Gap: true}, newLine(m, texts[m], marks[m]))
	}
	return out
}

func newLine(n int, text string, checks []int) lineView {
	lv := lineView{N: n, Text: newVtext(text, 2000), Mark: len(checks) > 0}
	if lv.Mark {
		var s []string
		for _, c := range checks {
			s = append(s, fmt.Sprint(c))
		}
		lv.Why = "deciding line of check " + strings.Join(s, ", ")
	}
	return lv
}

func bodyOf(label string, b *result.Body) bodyView {
	bv := bodyView{Label: label, HasBody: b != nil}
	if b != nil {
		bv.Size = b.Size
		bv.Generated = b.Generated
		bv.Omitted = b.Size - len(b.Bytes())
		bv.Empty = b.Size == 0
	}
	return bv
}

func servedView(s result.Served, at string) bodyView {
	bv := bodyOf("", s.Body)
	bv.URL, bv.Status, bv.Fault, bv.Delay, bv.At = s.URL, s.Status, s.Fault, s.Delay, at
	for _, k := range sortedKeys(s.Headers) {
		bv.Headers = append(bv.Headers, [2]string{k, s.Headers[k]})
	}
	return bv
}
