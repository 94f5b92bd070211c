package report

import (
	"bytes"
	"os"
	"path/filepath"

	"strings"
	"testing"

	"github.com/reptest/reptest/cases"
)

// An audit document's timelines are drawn per bot: stacked bars by tier,
// violations marked under the axis, robots.txt fetches as ticks (a 503
// in black), and versions in force as dashed lines.
func TestAuditTimelineHTML(t *testing.T) {
	d := auditFixture()
	var b bytes.Buffer
	if err := WriteHTML(&b, d, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	checkAuditPage(t, b.String())
	// No audit, no section.
	b.Reset()
	if err := WriteHTML(&b, &Document{Tool: "reptest"}, HTMLOptions{}); err != nil || strings.Contains(b.String(), `id="audit-timelines"`) {
		t.Errorf("a document without an audit has a timeline section (err %v)", err)
	}
}

// The timelines stay visible once the page's script has run (it hides
// cards without a failing check), and the page reports no error.
func TestAuditTimelineInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("headless browser test skipped in -short mode")
	}
	bin := chromium(t)
	page := filepath.Join(t.TempDir(), "audit.html")
	if err := os.WriteFile(page, []byte(renderHTML(t, auditFixture(), HTMLOptions{})), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, log := runChromium(t, bin, "--virtual-time-budget=5000", "--dump-dom", "file://"+page)
	checkAuditPage(t, dom)
	if n := strings.Count(dom, `<div class="tlcard"`); n != 1 || !strings.Contains(dom, `<section id="audit-timelines">`) {
		t.Errorf("%d visible timeline cards (want 1), or the section hidden, after the script ran", n)
	}
	if c := consoleLines(log); strings.Contains(c, "Content-Security-Policy") || strings.Contains(c, "Refused") || strings.Contains(c, "Uncaught") {
		t.Errorf("console:\n%s", c)
	}
}

func auditFixture() *Document {
	return &Document{Tool: "reptest", Version: "test", Profile: "rfc9309",
		Parsers: []cases.Summary{{Name: "googlebot", Checks: 1, Pass: 1, Conforms: true}},
		Results: []cases.Result{{Case: "audit/access-log", Parser: "googlebot", Agent: "googlebot", URL: "/", Expect: cases.Disallow,
			Verdict: cases.Disallow, Outcome: cases.Pass, Level: cases.MUST, Req: []string{"ACC-2"}}},
		Audit: []byte(`{
	  "version_marks": [{"label": "old.txt"}, {"label": "new.txt@2026-10-06T12:00:00Z", "from": "2026-10-06T12:00:00Z"}],
	  "agents": [{"agent": "googlebot", "requests": 12, "violations": 2,
	    "by_verification": {"verified": {"requests": 9, "violations": 0}, "claimed": {"requests": 3, "violations": 2}}, "timeline": {"bin_seconds": 3600,
	    "bins": [{"start": "2026-10-06T10:00:00Z", "requests": 5, "allowed": 4, "robots_fetches": 1},
	             {"start": "2026-10-06T14:00:00Z", "requests": 7, "allowed": 4, "grace": 1, "violations": 2}],
	    "robots_fetches": [{"time": "2026-10-06T10:05:00Z", "status": 200, "version": "old.txt"}, {"time": "2026-10-06T14:10:00Z", "status": 503, "version": "new.txt"}]}}]}`)}
}

// checkAuditPage checks a page of auditFixture for its timeline's parts.
func checkAuditPage(t *testing.T, page string) {
	t.Helper()
	for _, want := range []string{`id="audit-timelines"`, `class="tl-violation"`, `class="tl-grace"`, `class="tl-vmark"`,
		`class="tl-fetch"`, `class="tl-fetch-bad"`, `class="tl-version"`, "robots.txt fetch at 2026-10-06 14:10:00: answered 503, new.txt",
		"2026-10-06 14:00 (1h column): 2 violation", "columns of 1h", "new.txt@2026-10-06T12:00:00Z, from 2026-10-06 12:00 UTC",
		"verified: 9 requests, 0 violations · claimed: 3 requests, 2 violations"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, "<rect class=\"tl-"); n > 2*5+2 {
		t.Errorf("%d rects for 2 bins and 2 fetches", n)
	}
}
