package main

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/result"
)

// chromiumBin returns the path of a Chromium binary, or skips the test.
func chromiumBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("headless browser test skipped in -short mode")
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("headless browser test: install Debian package chromium")
	return ""
}

// dumpDOM loads url in headless Chromium and returns the DOM after the
// page's script ran, and Chromium's log.
func dumpDOM(t *testing.T, bin, url string) (dom, log string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+t.TempDir(),
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", url)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, errb.String())
	}
	return out.String(), errb.String()
}

var (
	classRE   = regexp.MustCompile(`<article class="([^"]*\bclass-card\b[^"]*)" id="(c-[0-9a-f]+)"`)
	permaRE   = regexp.MustCompile(`<a class="perma" href="#(c-[0-9a-f]+)"`)
	heatRE    = regexp.MustCompile(`(?s)<table class="grid heat" id="heatmap">.*?</table>`)
	heatRowRE = regexp.MustCompile(`(?s)<tr data-p="\d+"><th scope="row">([^<]*)</th>(.*?)</tr>`)
	heatTdRE  = regexp.MustCompile(`<td class="(self|h\d)">(?:<a class="cell-link" href="(#pair=\d+\.\d+)")?`)
	stateRE   = regexp.MustCompile(`<output id="selftest"[^>]*\bdata-errors="(\d+)"`)
	matchRE   = regexp.MustCompile(`<output id="selftest"[^>]*\bdata-classes="(\d+)"`)
	tmplRE    = regexp.MustCompile(`(?s)<template\b.*?</template>`)
	layoutRE  = regexp.MustCompile(`<output id="selftest"[^>]*\bdata-layout="([^"]*)"`)
	btFoundRE = regexp.MustCompile(`<td class="bt bt-found" data-p="\d+"><a href="#(mis-\d+-x\d+)">`)
	areaRowRE = regexp.MustCompile(`<tr><th scope="row"><a href="(#area=\d+)">[^<]*</a>.*?</th><td class="num">(\d+)</td>`)
)

// shownClasses returns the ids of the classes the page shows: built (not
// waiting in a template) and not hidden.
func shownClasses(dom string) []string {
	var ids []string
	for _, m := range classRE.FindAllStringSubmatch(tmplRE.ReplaceAllString(dom, ""), -1) {
		if !strings.Contains(" "+m[1]+" ", " hidden ") {
			ids = append(ids, m[2])
		}
	}
	return ids
}

// matching returns the number of classes the page's filters keep, built
// or not.
func matching(t *testing.T, dom string) int {
	t.Helper()
	m := matchRE.FindStringSubmatch(dom)
	if m == nil {
		t.Fatal("the page's script did not record the classes it keeps")
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// eager is how many classes the page builds at first; the others are
// built as they come into view.
const eager = 25

// checkConsole fails on errors the page or Chromium reported.
func checkConsole(t *testing.T, dom, log string) {
	t.Helper()
	m := stateRE.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page's script did not run (no state in the DOM); log:\n%s", log)
	}
	if m[1] != "0" {
		t.Errorf("the page saw %s errors", m[1])
	}
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Content-Security-Policy") || strings.Contains(l, "Refused") {
			t.Errorf("console: %s", l)
		}
	}
}

// The diff dashboard in a real browser: the matrix, the classes and
// their permalinks are there, a matrix cell leads to the classes where
// its pair disagrees, and nothing goes wrong on the console.
func TestDiffPageInChromium(t *testing.T) {
	bin := chromiumBin(t)
	dir := t.TempDir()
	page, summary := filepath.Join(dir, "diff.html"), filepath.Join(dir, "summary.json")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"diff", "--parser", "reference", "--parser", "grobotstxt", "--parser", "temoto",
		"--parser", "reference-google", "--generate", "50", "--seed", "11", "--html", page, "--summary", summary, "--quiet"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("diff: exit %d\n%s", code, stderr.String())
	}
	var s result.DiffSummary
	if b, err := os.ReadFile(summary); err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("summary: %v", err)
	}

	dom, log := dumpDOM(t, bin, "file://"+page)
	checkConsole(t, dom, log)
	checkLeads(t, dom, "temoto", false)
	heat := heatRE.FindString(dom)
	rows := heatRowRE.FindAllStringSubmatch(heat, -1)
	if len(rows) != len(s.Parsers) {
		t.Fatalf("heat map has %d rows, want %d (one per parser)", len(rows), len(s.Parsers))
	}
	var link string
	for i, r := range rows {
		if got := html.UnescapeString(r[1]); got != s.Parsers[i] {
			t.Errorf("heat map row %d is %q, want %q", i, got, s.Parsers[i])
		}
		cells := heatTdRE.FindAllStringSubmatch(r[2], -1)
		if len(cells) != len(s.Parsers) {
			t.Fatalf("heat map row %d has %d cells, want %d", i, len(cells), len(s.Parsers))
		}
		for j, c := range cells {
			if (c[1] == "self") != (i == j) || (i != j) == (c[2] == "") {
				t.Errorf("heat map cell %d,%d: %q", i, j, c[0])
			}
		}
		if i == 1 {
			link = cells[2][2] // grobotstxt and temoto
		}
	}
	// Every class has a permalink, in the summary's order, whether the
	// page built it or keeps it for later.
	var ids []string
	for _, m := range permaRE.FindAllStringSubmatch(dom, -1) {
		ids = append(ids, m[1])
	}
	if len(ids) != len(s.Groups) || len(ids) < 3 {
		t.Fatalf("page has %d class permalinks, the summary has %d groups", len(ids), len(s.Groups))
	}
	checkShown(t, "the page", dom, ids)

	// Following the cell keeps exactly the classes where the pair's
	// verdicts differ, in the summary's order.
	var want []string
	for i, g := range s.Groups {
		if g.Example.Verdicts["grobotstxt"] != g.Example.Verdicts["temoto"] {
			want = append(want, ids[i])
		}
	}
	if len(want) == 0 || len(want) == len(ids) {
		t.Fatalf("%d of %d classes split grobotstxt and temoto: the pair filter would prove nothing", len(want), len(ids))
	}
	dom, log = dumpDOM(t, bin, "file://"+page+link)
	checkConsole(t, dom, log)
	checkShown(t, "cell "+link, dom, want)

	// A permalink shows its class, built if it was not (and clears the
	// filters).
	last := ids[len(ids)-1]
	dom, log = dumpDOM(t, bin, "file://"+page+"#"+last)
	checkConsole(t, dom, log)
	if got := shownClasses(dom); !slices.Contains(got, last) || len(got) < min(len(ids), eager) {
		t.Errorf("permalink #%s shows classes %v", last, got)
	}

	checkAreas(t, bin, page, dom, &s)
}

// checkShown checks that the page keeps the classes want and shows the
// first of them, in order.
func checkShown(t *testing.T, what, dom string, want []string) {
	t.Helper()
	if n := matching(t, dom); n != len(want) {
		t.Errorf("%s keeps %d classes, want %d", what, n, len(want))
	}
	want = want[:min(len(want), eager)]
	if got := shownClasses(dom); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s shows classes %v, want %v", what, got, want)
	}
}

// checkAreas checks the agreement by area: one row per area the run
// recorded, with its probes, each leading to classes; or, for a run that
// recorded none, a plain statement and no table.
func checkAreas(t *testing.T, bin, page, dom string, s *result.DiffSummary) {
	t.Helper()
	rows := areaRowRE.FindAllStringSubmatch(dom, -1)
	if len(s.Areas) == 0 {
		if len(rows) != 0 || !strings.Contains(dom, "recorded no per-area counts") {
			t.Errorf("a run without per-area counts shows %d area rows and does not say so", len(rows))
		}
		return
	}
	if len(rows) != len(s.Areas) {
		t.Fatalf("area table has %d rows, the summary %d areas", len(rows), len(s.Areas))
	}
	// The rows are the summary's areas in its order (the requirement
	// table's); a link leads to the classes of an area with disagreements.
	link := ""
	for i, r := range rows {
		if r[2] != strconv.Itoa(s.Areas[i].Probes) {
			t.Errorf("area row %d (%s) has %s probes, the summary's area %s has %d", i, r[1], r[2], s.Areas[i].Area, s.Areas[i].Probes)
		}
		if link == "" && s.Areas[i].Agreed < s.Areas[i].Probes {
			link = r[1]
		}
	}
	if link == "" {
		return
	}
	dom, log := dumpDOM(t, bin, "file://"+page+link)
	checkConsole(t, dom, log)
	if n := matching(t, dom); n == 0 || len(shownClasses(dom)) != min(n, eager) {
		t.Errorf("area link %s keeps %d classes and shows %d", link, n, len(shownClasses(dom)))
	}
}

// checkLeads checks that the page opens on the misreadings table, with
// a column for parser, every found cell's example on the page and, with
// found, at least one found cell; and that nothing makes the page wider
// than the window. (What the fitter finds on a small diff is its own
// business; the crawl test's crawler misreads on purpose.)
func checkLeads(t *testing.T, dom, parser string, found bool) {
	t.Helper()
	m := layoutRE.FindStringSubmatch(dom)
	if m == nil || !strings.HasPrefix(m[1], "first=behaviours table=1 list=0 ") || !strings.HasSuffix(m[1], " overflow=0") {
		t.Errorf("the page does not open on the misreadings table: layout %q", m)
	}
	if !strings.Contains(dom, `<span class="bt-name">`+parser+`<wbr></span>`) {
		t.Errorf("the misreadings table has no column for %s", parser)
	}
	cells := btFoundRE.FindAllStringSubmatch(dom, -1)
	if found && len(cells) == 0 {
		t.Error("the misreadings table has no found cell")
	}
	for _, f := range cells {
		if !strings.Contains(dom, `<article class="bx" id="`+f[1]+`">`) {
			t.Errorf("a found cell links to #%s, which is not on the page", f[1])
		}
	}
}
