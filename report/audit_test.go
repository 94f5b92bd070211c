package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/result"
)

// An audit document's timelines are drawn per bot: stacked bars by tier,
// violations marked under the axis, robots.txt fetches as ticks (a 503
// in black), and versions in force as dashed lines.
func TestAuditTimelineHTML(t *testing.T) {
	d := auditFixture()
	var b bytes.Buffer
	if err := WriteHTML(&b, d, HTMLOptions{Table: builtin()}); err != nil {
		t.Fatal(err)
	}
	checkAuditPage(t, b.String())
	// No audit, no section.
	b.Reset()
	if err := WriteHTML(&b, &result.Document{Tool: "reptest"}, HTMLOptions{}); err != nil || strings.Contains(b.String(), `id="audit-timelines"`) {
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

func auditFixture() *result.Document {
	return &result.Document{Tool: "reptest", Version: "test", Profile: "rfc9309",
		Parsers: []result.Summary{{Name: "googlebot", Checks: 1, Pass: 1, Conforms: true}},
		Results: []result.Result{{Case: "audit/access-log", Parser: "googlebot", Agent: "googlebot", URL: "/", Expect: result.Disallow,
			Verdict: result.Disallow, Outcome: result.Pass, Level: result.MUST, Req: []string{"ACC-2"}}},
		Audit: auditOf(`{
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

// verificationDoc is an audit of one agent, googlebot, whose ACC-2 check
// failed; audit is the document's audit object.
func verificationDoc(audit string) *result.Document {
	return &result.Document{Tool: "reptest", Version: "test", Profile: "rfc9309",
		Parsers: []result.Summary{{Name: "googlebot", Checks: 2, Pass: 1, Violations: 1}},
		Results: []result.Result{
			{Case: "audit/access-log", Check: 0, Parser: "googlebot", Agent: "googlebot", URL: "/private/x", Expect: result.Disallow,
				Verdict: result.Allow, Outcome: result.Violation, Level: result.MUST, Req: []string{"ACC-2"}, Detail: "2 of 12 requests"},
			{Case: "audit/access-log", Check: 1, Parser: "googlebot", Agent: "googlebot", URL: "/", Expect: result.Disallow,
				Verdict: result.Disallow, Outcome: result.Pass, Level: result.MUST, Req: []string{"ACC-7"}},
		},
		Audit: auditOf(audit)}
}

// JUnit and the page's overview show each agent's verified and claimed
// requests as the audit recorded them, and say so plainly when nothing
// was verified.
func TestAuditVerificationReports(t *testing.T) {
	const split = `"by_verification": {"verified": {"requests": 9, "robots_fetches": 1, "allowed": 8}, "claimed": {"requests": 3, "allowed": 1, "violations": 2}}`
	for _, tc := range []struct {
		name, audit string
		// props are the suite's verification properties; out, its
		// system-out; failure, what the failing check's text holds (""
		// for no split); page, what the overview holds.
		props         []junitProp
		out, failure  string
		page, notPage []string
	}{{
		name:  "the log marks verified bots",
		audit: `{"agents": [{"agent": "googlebot", "requests": 12, "violations": 2, ` + split + `}]}`,
		props: []junitProp{{"verified", "9 requests, 1 robots.txt fetches, 8 allowed, 0 within grace, 0 uncertain, 0 violations"},
			{"claimed", "3 requests, 0 robots.txt fetches, 1 allowed, 0 within grace, 0 uncertain, 2 violations"}},
		out: "verified: 9 requests, 1 robots.txt fetches, 8 allowed, 0 within grace, 0 uncertain, 0 violations\n" +
			"claimed: 3 requests, 0 robots.txt fetches, 1 allowed, 0 within grace, 0 uncertain, 2 violations",
		failure: "the agent's requests (every check): verified: 9 requests, 1 robots.txt fetches, 8 allowed, 0 within grace, 0 uncertain, 0 violations; claimed: 3 requests",
		page:    []string{"<th>Verified / claimed</th>", `verified 9<br><span class="dim">0 violations</span><br>claimed 3<br><span class="dim">2 violations</span>`},
		notPage: []string{"<th>Version</th>", "No request is verified"},
	}, {
		name:  "ranges given, no request from inside them",
		audit: `{"verifying": true, "agents": [{"agent": "googlebot", "requests": 3, "by_verification": {"verified": {}, "claimed": {"requests": 3, "violations": 2}}}]}`,
		props: []junitProp{{"verified", "0 requests, 0 robots.txt fetches, 0 allowed, 0 within grace, 0 uncertain, 0 violations"},
			{"claimed", "3 requests, 0 robots.txt fetches, 0 allowed, 0 within grace, 0 uncertain, 2 violations"}},
		out:     "verified: 0 requests, 0 robots.txt fetches, 0 allowed, 0 within grace, 0 uncertain, 0 violations\nclaimed: 3 requests, 0 robots.txt fetches, 0 allowed, 0 within grace, 0 uncertain, 2 violations",
		failure: "; claimed: 3 requests, 0 robots.txt fetches, 0 allowed, 0 within grace, 0 uncertain, 2 violations",
		page:    []string{"<th>Verified / claimed</th>", "verified 0<br>"},
		notPage: []string{"No request is verified"},
	}, {
		name:    "nothing verified",
		audit:   `{"agents": [{"agent": "googlebot", "requests": 12, "violations": 2, "by_verification": {"verified": {}, "claimed": {"requests": 12, "violations": 2}}}]}`,
		props:   []junitProp{{"verified", "none: every request is claimed"}},
		out:     noneVerified,
		page:    []string{"<th>Version</th>", "<p>No request is verified: no --verified-ranges file was given"},
		notPage: []string{"Verified / claimed", "verified 0", "verified: 0"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			d := verificationDoc(tc.audit)
			var b bytes.Buffer
			if err := JUnit(&b, d); err != nil {
				t.Fatal(err)
			}
			if out, code := xmllint(t, writeTemp(t, "audit.xml", b.Bytes())); code != 0 {
				t.Errorf("the JUnit XML does not validate (xmllint exit %d):\n%s", code, out)
			}
			var got junitSuites
			if err := xml.Unmarshal(b.Bytes(), &got); err != nil || len(got.Suites) != 1 {
				t.Fatalf("JUnit: %v, %d suites", err, len(got.Suites))
			}
			s := got.Suites[0]
			props := s.Properties.Props[2:] // after version and profile
			if diff := cmp.Diff(tc.props, props); diff != "" {
				t.Errorf("properties (-want +got):\n%s", diff)
			}
			if s.SystemOut != tc.out {
				t.Errorf("system-out %q; want %q", s.SystemOut, tc.out)
			}
			f := s.Cases[0].Failure
			if f == nil || tc.failure != "" && !strings.Contains(f.Text, tc.failure) || tc.failure == "" && strings.Contains(f.Text, "the agent's requests") {
				t.Errorf("failure %+v; want the split %q", f, tc.failure)
			}
			page := renderHTML(t, d, HTMLOptions{})
			for _, w := range tc.page {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, w := range tc.notPage {
				if strings.Contains(page, w) {
					t.Errorf("page holds %q", w)
				}
			}
		})
	}
}

// auditOf reads an audit object.
func auditOf(s string) *result.Audit {
	var a result.Audit
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		panic(err)
	}
	return &a
}
