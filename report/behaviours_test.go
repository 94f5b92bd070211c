package report

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/result"
)

// fixtureDiagnosis is a diagnosis of four parsers that puts every state
// of a cell on the page: found (with and without alternatives), not
// found, not tested, and a misreading that cannot be told from one found.
func fixtureDiagnosis() []result.Diagnosis {
	return []result.Diagnosis{
		{Parser: "temoto", Departures: 16, Unexplained: 2, Untested: []string{"no-end-anchor", "no-group-merge-last"},
			Behaviours: []result.Behaviour{
				{ID: "first-match", Title: "The first matching rule in file order wins, not the longest", RFC: "2.2.2",
					Req: []string{"MATCH-4"}, Explains: 12, Files: 3,
					Example: &result.Example{Robots: "User-agent: *\nDisallow: /\nAllow: /page\n", Agent: "FooBot",
						URL: "https://example.com/page", Verdict: result.Disallow, Reference: result.Allow, Source: "realworld/a.txt"}},
				{ID: "tie-disallow", Title: "Between an allow and a disallow rule of equal length, disallow wins", RFC: "2.2.2",
					Req: []string{"MATCH-5"}, Explains: 2, Contradicts: 1, Files: 1,
					Example: &result.Example{Robots: "User-agent: *\nAllow: /p\nDisallow: /p\n", Agent: "FooBot",
						URL: "https://example.com/p", Verdict: result.Disallow, Reference: result.Allow}},
			}},
		{Parser: "grobotstxt", Departures: 5, Unexplained: 0, Untested: []string{"tie-disallow"},
			Behaviours: []result.Behaviour{
				{ID: "no-group-merge-first", Title: "Of several groups naming the crawler, only the first counts", RFC: "2.2.1",
					Req: []string{"UA-3"}, Explains: 5, Files: 2, Alternatives: []string{"no-group-merge-last"},
					Example: &result.Example{Robots: "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n", Agent: "a",
						URL: "https://example.com/y", Verdict: result.Allow, Reference: result.Disallow}},
			}},
		{Parser: "webrobots", Departures: 3, Unexplained: 1,
			Behaviours: []result.Behaviour{
				{ID: "no-group-merge-last", Title: "Of several groups naming the crawler, only the last counts", RFC: "2.2.1",
					Req: []string{"UA-3"}, Explains: 2, Files: 1,
					Example: &result.Example{Robots: "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n", Agent: "a",
						URL: "https://example.com/x", Verdict: result.Allow, Reference: result.Disallow}},
				{ID: "first-match", Title: "The first matching rule in file order wins, not the longest", RFC: "2.2.2",
					Req: []string{"MATCH-4"}, Explains: 0, Files: 1,
					// The same evidence as temoto's: one example for both.
					Example: &result.Example{Robots: "User-agent: *\nDisallow: /\nAllow: /page\n", Agent: "FooBot",
						URL: "https://example.com/page", Verdict: result.Disallow, Reference: result.Allow, Source: "realworld/a.txt"}},
			}},
		{Parser: "python-urllib"},
	}
}

var (
	btTableRE = regexp.MustCompile(`(?s)<table class="grid behaviours">.*?</table>`)
	btHeadRE  = regexp.MustCompile(`<th scope="col" data-p="\d+"><span class="bt-name">((?:[^<]*<wbr>)*)</span>`)
	btRowRE   = regexp.MustCompile(`(?s)<tr id="(mis-\d+)"><th scope="row"><code class="bt-id">([^<]*)</code>(.*?)</tr>`)
	btCellRE  = regexp.MustCompile(`<td class="bt bt-(\w+)" data-p="\d+">(?:<a href="#([^"]+)">)?`)
	bxRE      = regexp.MustCompile(`<article class="bx" id="([^"]+)">`)
)

// TestBehavioursTable renders a diagnosis and reads the table back: its
// columns are the diagnosed parsers, its rows the misreadings found in
// any of them in the catalogue's order, each cell the state the
// diagnosis records, and every found cell links to an example on the
// page (one for parsers with the same evidence).
func TestBehavioursTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  *result.Document
		o    HTMLOptions
	}{
		{"run", &result.Document{Version: "test", Profile: result.ProfileRFC, Diagnosis: fixtureDiagnosis(), Results: fixtureDoc().Results}, HTMLOptions{}},
		{"diff", &result.Document{Version: "test", Diagnosis: fixtureDiagnosis(), Summary: &result.DiffSummary{}}, HTMLOptions{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := renderHTML(t, tc.doc, tc.o)
			table := btTableRE.FindString(page)
			if table == "" {
				t.Fatal("no behaviours table on the page")
			}
			var cols []string
			for _, m := range btHeadRE.FindAllStringSubmatch(table, -1) {
				cols = append(cols, html.UnescapeString(strings.ReplaceAll(m[1], "<wbr>", "")))
			}
			if diff := cmp.Diff([]string{"temoto", "grobotstxt", "webrobots", "python-urllib"}, cols); diff != "" {
				t.Errorf("columns (-want +got):\n%s", diff)
			}
			got := map[string][]string{}
			var rows []string
			anchors := map[string]bool{}
			for _, m := range btRowRE.FindAllStringSubmatch(table, -1) {
				rows = append(rows, m[2])
				for _, c := range btCellRE.FindAllStringSubmatch(m[3], -1) {
					got[m[2]] = append(got[m[2]], c[1])
					if (c[1] == stateFound) != (c[2] != "") {
						t.Errorf("%s: a %s cell links to %q", m[2], c[1], c[2])
					}
					if c[2] != "" {
						anchors[c[2]] = true
					}
				}
			}
			want := map[string][]string{
				"first-match":          {stateFound, stateAbsent, stateFound, stateAbsent},
				"tie-disallow":         {stateFound, stateUntested, stateAbsent, stateAbsent},
				"no-group-merge-first": {stateAbsent, stateFound, stateAbsent, stateAbsent},
				"no-group-merge-last":  {stateUntested, stateAlt, stateFound, stateAbsent},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("cell states (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"first-match", "tie-disallow", "no-group-merge-first", "no-group-merge-last"}, rows); diff != "" {
				t.Errorf("rows are not in catalogue order (-want +got):\n%s", diff)
			}
			// Five found cells, four examples: temoto and webrobots
			// share first-match's.
			var examples []string
			for _, m := range bxRE.FindAllStringSubmatch(page, -1) {
				examples = append(examples, m[1])
				if !anchors[m[1]] {
					t.Errorf("example %s: no cell links to it", m[1])
				}
			}
			if len(examples) != 4 || len(anchors) != 4 {
				t.Errorf("%d examples and %d linked, want 4 and 4", len(examples), len(anchors))
			}
			for _, s := range []string{"explains 87.5% of 16", "2 unexplained", "matches the reference", "1 against",
				"or no-group-merge-last", "temoto, webrobots", "Allow: /page"} {
				if !strings.Contains(page, s) {
					t.Errorf("the page does not say %q", s)
				}
			}
			// The table comes before every other section.
			if i, j := strings.Index(page, `<section id="behaviours">`), strings.Index(page, "<section id=\"overview\">"); j >= 0 && j < i {
				t.Errorf("the overview comes before the behaviours table")
			}
		})
	}
}

// A document without a diagnosis has no table and no link to it.
func TestBehavioursTableAbsent(t *testing.T) {
	page := renderHTML(t, fixtureDoc(), HTMLOptions{})
	if strings.Contains(page, `id="behaviours"`) || strings.Contains(page, `href="#behaviours"`) {
		t.Error("a page without a diagnosis shows the behaviours table")
	}
}

// In a browser, the table is what the page opens on: at a desktop width
// the wide table is visible and the first section; at 400 px the narrow
// per-parser layout replaces it, and neither is wider than the window.
func TestBehavioursTableInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("headless browser test skipped in -short mode")
	}
	bin := chromium(t)
	d := fixtureDoc()
	d.Diagnosis = fixtureDiagnosis()
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, []byte(renderHTML(t, d, HTMLOptions{})), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ width, want string }{
		{"1400", "first=behaviours table=1 list=0 examples=4 overflow=0"},
		{"400", "first=behaviours table=0 list=1 examples=4 overflow=0"},
	} {
		t.Run(tc.width, func(t *testing.T) {
			dom, log := runChromium(t, bin, "--window-size="+tc.width+",900", "--virtual-time-budget=5000", "--dump-dom", "file://"+page)
			m := layoutRE.FindStringSubmatch(dom)
			if m == nil {
				t.Fatalf("no layout in the DOM (script blocked or failed?); log:\n%s", consoleLines(log))
			}
			if m[1] != tc.want {
				t.Errorf("at %s px the page's layout is %q, want %q", tc.width, m[1], tc.want)
			}
		})
	}
}

var layoutRE = regexp.MustCompile(`<output id="selftest"[^>]*data-layout="([^"]*)"`)
