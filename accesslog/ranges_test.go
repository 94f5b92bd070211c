package accesslog_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

func TestRangesLookup(t *testing.T) {
	var rs accesslog.Ranges
	f, err := os.Open("testdata/googlebot-ranges.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := rs.Add(f, "googlebot.json"); err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"66.249.66.1": true, "66.249.66.31": true, "66.249.66.32": false, "66.249.64.7": true,
		"2001:4860:4801:10::1": true, "[2001:4860:4801:10:ffff::9]": true, "2001:4860:4801:11::1": false,
		"::ffff:66.249.66.1": true, "1.2.3.4": false, "": false, "-": false, "example.com": false,
	} {
		if label, got := rs.Lookup(addr); got != want || got && label != "googlebot.json" {
			t.Errorf("Lookup(%q) = %q, %v; want %v", addr, label, got, want)
		}
	}
	for doc, want := range map[string]string{
		`{"prefixes": []}`: "no prefixes",
		`{"prefixes": [{"ipv4Prefix": "66.249.64.0/33"}]}`:                            "prefix 1",
		`{"prefixes": [{"ipv4Prefix": "2001:db8::/32"}]}`:                             "not an IPv4 prefix",
		`{"prefixes": [{"ipv4Prefix": "1.2.3.0/24", "ipv6Prefix": "2001:db8::/32"}]}`: "want one of",
		`[1, 2]`: "not a range file",
	} {
		var rs accesslog.Ranges
		if err := rs.Add(strings.NewReader(doc), "r.json"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", doc, err, want)
		}
	}
}

// With published ranges, a Googlebot User-Agent from outside them is
// claimed, not verified, and judged as a client of its own: the real
// Googlebot's fetch is not its.
func TestAuditVerifiedAndClaimed(t *testing.T) {
	var rs accesslog.Ranges
	f, _ := os.Open("testdata/googlebot-ranges.json")
	defer f.Close()
	if err := rs.Add(f, "googlebot.json"); err != nil {
		t.Fatal(err)
	}
	versions := []crawl.Version{{Status: 200, Body: []byte("User-agent: Googlebot\nDisallow: /private/\n"), Label: "robots.txt"}}
	a := accesslog.NewAuditor(versions, accesslog.Options{Grace: 24 * time.Hour, Reference: reference.RFC(), Ranges: &rs})
	var log strings.Builder
	log.WriteString(combinedLine("06", "01:00", googlebot, "/robots.txt", 200))
	log.WriteString(combinedLine("06", "01:05", googlebot, "/public", 200))
	log.WriteString(strings.Replace(combinedLine("06", "01:10", googlebot, "/private/x", 200), "66.249.66.1", "203.0.113.9", 1))
	log.WriteString(strings.Replace(combinedLine("06", "01:11", googlebot, "/robots.txt", 503), "66.249.66.1", "203.0.113.9", 1))
	log.WriteString(strings.Replace(combinedLine("06", "01:12", googlebot, "/a", 200), "66.249.66.1", "203.0.113.9", 1))
	sc := accesslog.NewScanner(strings.NewReader(log.String()), "access.log", accesslog.Format{})
	for sc.Scan() {
		a.Add(sc.Request())
	}
	rep := a.Report(sc)
	gb := rep.Agents[0]
	v, c := gb.ByVerification["verified"], gb.ByVerification["claimed"]
	if gb.Clients != 2 || *v != (result.TierCounts{Requests: 2, Robots: 1, Allowed: 1}) || *c != (result.TierCounts{Requests: 3, Robots: 1, Violations: 2}) {
		t.Errorf("clients %d, verified %+v, claimed %+v", gb.Clients, *v, *c)
	}
	var text strings.Builder
	report.AuditText(&text, rep)
	for _, want := range []string{"  verified: 2 requests, 1 robots.txt fetches, 1 allowed", "  claimed: 3 requests, 1 robots.txt fetches, 0 allowed, 0 within grace, 0 uncertain, 2 violations"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}
