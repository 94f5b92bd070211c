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
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/diff"
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
)

// shownClasses returns the ids of the classes the page shows.
func shownClasses(dom string) []string {
	var ids []string
	for _, m := range classRE.FindAllStringSubmatch(dom, -1) {
		if !strings.Contains(" "+m[1]+" ", " hidden ") {
			ids = append(ids, m[2])
		}
	}
	return ids
}

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
	var s diff.Summary
	if b, err := os.ReadFile(summary); err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("summary: %v", err)
	}

	dom, log := dumpDOM(t, bin, "file://"+page)
	checkConsole(t, dom, log)
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
	ids := shownClasses(dom)
	if len(ids) != len(s.Groups) || len(ids) < 3 {
		t.Fatalf("page shows %d classes, the summary has %d groups", len(ids), len(s.Groups))
	}
	permas := map[string]bool{}
	for _, m := range permaRE.FindAllStringSubmatch(dom, -1) {
		permas[m[1]] = true
	}
	for _, id := range ids {
		if !permas[id] {
			t.Errorf("class %s has no permalink", id)
		}
	}

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
	if got := shownClasses(dom); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cell %s shows classes %v, want %v", link, got, want)
	}

	// A permalink shows its class (and every other: it clears filters).
	dom, log = dumpDOM(t, bin, "file://"+page+"#"+ids[len(ids)-1])
	checkConsole(t, dom, log)
	if got := shownClasses(dom); len(got) != len(ids) {
		t.Errorf("permalink shows %d of %d classes", len(got), len(ids))
	}
}
