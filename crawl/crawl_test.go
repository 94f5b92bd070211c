package crawl_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/result"
)

// testCrawler is the path of the built crawlers/testcrawler.
var testCrawler string

// requirements is the requirement table the crawlers' runs are judged by.
var requirements = func() result.Table {
	t, err := cases.RequirementTable()
	if err != nil {
		panic(err)
	}
	return t
}()

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "reptest-crawl-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testCrawler = filepath.Join(dir, "testcrawler")
	out, err := exec.Command("go", "build", "-o", testCrawler, "../crawlers/testcrawler").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the test crawler: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func selectCases(t *testing.T, globs ...string) []cases.Case {
	t.Helper()
	all, err := cases.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	return cases.Select(all, result.ProfileRFC, globs, nil)
}

// needAddressLayout skips t unless the scenarios run in the address
// layout, which the expected failures of some tests assume.
func needAddressLayout(t *testing.T) {
	t.Helper()
	lab, err := crawl.NewLab(crawl.LabOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	if lab.Layout() != crawl.LayoutAddresses {
		t.Skipf("this test's expectations hold for the address layout, which needs low ports bound (root or CAP_NET_BIND_SERVICE): %s", lab.Note())
	}
}

// testCrawlerCmd runs the test crawler in a mode, or with misreadings of
// the reference's catalogue when mode is "-variant ID+ID".
func testCrawlerCmd(mode string) *crawl.Crawler {
	arg := "-mode " + mode
	if strings.HasPrefix(mode, "-variant ") {
		arg = mode
	}
	return &crawl.Crawler{Name: mode, Template: testCrawler + " " + arg + " -agent {agent} -ua {ua} {url}",
		Timeout: 20 * time.Second, Budget: 100, Requirements: requirements}
}

func TestObeyingCrawlerPasses(t *testing.T) {
	cs := selectCases(t, "access/status-*", "matching/longest*", "access/authority*", "access/redirect*")
	results, _ := crawl.RunAll(context.Background(), cs, testCrawlerCmd("obey"), nil)
	for _, r := range results {
		if r.Outcome != result.Pass && r.Outcome != result.Skipped {
			t.Errorf("%s #%d %s %s: %s %s\n%s", r.Case, r.Check, r.Agent, r.URL, r.Outcome, strings.Join(r.Req, " "), r.Detail)
		}
	}
}

// TestBrokenCrawlers runs deliberately broken variants of the test
// crawler: each must fail exactly the checks its mistake breaks.
func TestBrokenCrawlers(t *testing.T) {
	needAddressLayout(t)
	type failure struct {
		Case    string
		Check   int
		Outcome result.Outcome
	}
	cs := selectCases(t, "access/status-200-rules-apply", "access/status-503-unreachable",
		"matching/longest-allow-inside-disallow", "matching/first-match-is-not-longest",
		"access/authority-separate-files", "access/authority-other-port-has-no-file")
	for _, tc := range []struct {
		mode string
		want []failure
	}{
		{"obey", nil},
		{"before-robots", []failure{
			// The first page of each origin comes before its robots.txt.
			// On the start origin that page is the start URL, the user's
			// choice and no deviation; on the other origins it is ACC-10,
			// and the pages so fetched that the rules disallow.
			{"access/authority-other-port-has-no-file", 0, result.Violation},
			{"access/authority-other-port-has-no-file", 3, result.Deviation},
			{"access/authority-separate-files", 2, result.Violation},
			{"access/authority-separate-files", 4, result.Violation},
			{"access/authority-separate-files", 6, result.Violation},
			{"access/authority-separate-files", 8, result.Deviation},
		}},
		{"5xx-allow", []failure{
			// Both agents fetch the disallowed pages and the start page
			// after the 503 (ACC-7).
			{"access/status-503-unreachable", 0, result.Violation},
			{"access/status-503-unreachable", 1, result.Violation},
			{"access/status-503-unreachable", 4, result.Violation},
			{"access/status-503-unreachable", 12, result.Violation},
		}},
		{"first-match", []failure{
			// "Disallow: /catalog/" comes before the longer allow. In
			// matching/first-match-is-not-longest "Disallow: /" comes
			// first, so the crawler never gets past the start page and
			// the allow check is inconclusive rather than failed.
			{"matching/longest-allow-inside-disallow", 1, result.Violation},
		}},
		// Misreadings by name (reptest variants). Reading a 404 as
		// disallow all breaks no check: ACC-6 is a MAY, and a crawler
		// that fetches less never fetches too much.
		{"-variant 4xx-disallows", nil},
		// Not seen yet: the grader judges every request as the
		// scenario's agent, whatever its User-Agent header, so a
		// robots.txt fetched as Go-http-client passes. When reptest
		// crawl learns to see it, this entry lists what it fails.
		{"-variant robots-other-agent", nil},
		{"ignore-ports", []failure{
			// Each host has its own address, so ignoring ports merges
			// http://a.test:8080 into http://a.test alone (https://a.test
			// differs by scheme): the 8080 checks, and ACC-10 and ACC-1
			// for the origin whose robots.txt is never fetched.
			{"access/authority-other-port-has-no-file", 0, result.Violation},
			{"access/authority-other-port-has-no-file", 3, result.Deviation},
			{"access/authority-other-port-has-no-file", 4, result.Violation},
			{"access/authority-separate-files", 2, result.Violation},
			{"access/authority-separate-files", 3, result.Violation},
			{"access/authority-separate-files", 8, result.Deviation},
			{"access/authority-separate-files", 9, result.Violation},
		}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			results, _ := crawl.RunAll(context.Background(), cs, testCrawlerCmd(tc.mode), nil)
			var got []failure
			for _, r := range results {
				switch r.Outcome {
				case result.Pass:
				case result.Skipped:
					if !strings.HasPrefix(r.Detail, "inconclusive:") {
						t.Errorf("%s #%d skipped: %s", r.Case, r.Check, r.Detail)
					}
				default:
					got = append(got, failure{r.Case, r.Check, r.Outcome})
					if r.Detail == "" || !strings.Contains(r.Detail, "requests (User-Agent") {
						t.Errorf("%s #%d: the detail shows no request timeline:\n%s", r.Case, r.Check, r.Detail)
					}
				}
			}
			sort.Slice(got, func(i, j int) bool {
				if got[i].Case != got[j].Case {
					return got[i].Case < got[j].Case
				}
				return got[i].Check < got[j].Check
			})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("failing checks (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBadCrawlers checks that a crawler that cannot run, does nothing,
// floods or hangs gets a clear error on every check and leaves no
// process behind.
func TestBadCrawlers(t *testing.T) {
	cs := selectCases(t, "access/status-200-rules-apply")
	for _, tc := range []struct {
		name, template string
		budget         int
		want           string
	}{
		{"missing", "/nonexistent/reptest-crawler {url}", 50, "could not be started"},
		{"unterminated quote", "wget 'x", 50, "unterminated single quote"},
		{"exits at once", "sh -c 'echo no network here >&2; exit 3'", 50, "made no request\nexit status 3\noutput (end):\nno network here"},
		{"floods", testCrawler + " -mode flood -agent {agent} {url}", 20, "more than 20 requests and was stopped"},
		{"hangs", "sh -c 'sleep 987.654 & sleep 987.654'", 50, "still running after 1s and was stopped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &crawl.Crawler{Name: "bad", Template: tc.template, Timeout: time.Second, Budget: tc.budget, Requirements: requirements}
			results, runs := crawl.RunAll(context.Background(), cs, c, nil)
			if len(results) == 0 || len(runs) != 1 {
				t.Fatalf("%d results, %d runs", len(results), len(runs))
			}
			for _, r := range results {
				if r.Outcome != result.Error || !strings.Contains(r.Detail, tc.want) {
					t.Errorf("#%d: %s %q; want an error saying %q", r.Check, r.Outcome, r.Detail, tc.want)
				}
			}
			if left := processesWith("987.654"); left > 0 {
				t.Errorf("%d processes of the crawler are still running", left)
			}
		})
	}
}

// processesWith counts the running processes whose command line holds s.
func processesWith(s string) int {
	n := 0
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err == nil && strings.Contains(string(b), s) {
			n++
		}
	}
	return n
}

// Through the proxy the crawler sees the cases' own host names; https
// origins cannot be proxied and say so.
func TestProxy(t *testing.T) {
	c := &crawl.Crawler{Name: "proxied", Template: testCrawler + " -proxy {proxy} -agent {agent} -ua {ua} {url}", Timeout: 20 * time.Second, Budget: 100, Requirements: requirements}
	results, runs := crawl.RunAll(context.Background(), selectCases(t, "access/status-200-rules-apply", "matching/longest-allow-inside-disallow"), c, nil)
	if len(runs) != 2 || !strings.HasPrefix(runs[0].Start, "http://a.test/") {
		t.Fatalf("runs %d, start %q; want the case's own host", len(runs), runs[0].Start)
	}
	for _, r := range results {
		switch {
		case r.Case == "access/status-200-rules-apply" && r.Outcome != result.Pass:
			t.Errorf("%s #%d: %s %s", r.Case, r.Check, r.Outcome, r.Detail)
		case r.Case == "matching/longest-allow-inside-disallow" && (r.Outcome != result.Error || !strings.Contains(r.Detail, "https cannot be reached through the proxy")):
			t.Errorf("%s #%d: %s %q; want an error about https", r.Case, r.Check, r.Outcome, r.Detail)
		}
	}
}

// clockTolerance is how far after its step's time a request of the step
// may be stamped: the real time the crawler spends at a step (the clock
// runs at the real rate between steps), plus the second libfaketime's
// whole-second offsets round up.
const clockTolerance = 30 * time.Second

// TestClock plays timeline cases to the test crawler on the fake clock:
// each step's links are requested on the step's time within
// clockTolerance, and each robots.txt fetch gets the step's response.
func TestClock(t *testing.T) {
	c := timelineCrawler(t, "obey")
	results, runs := crawl.RunAll(context.Background(), selectCases(t, "caching/refetch-after-24h", "caching/long-outage-with-copy", "caching/network-faults-on-refetch-disallow-all"), c, nil)
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
	for _, run := range runs {
		sc := run.Scenario
		var from []time.Time // the case origin's versions, one per step
		for _, v := range run.Versions {
			if v.Origin == sc.Origins[0] {
				from = append(from, v.From)
			}
			if v.Origin == sc.Origins[1] && v.Status != 200 {
				t.Errorf("%s: the clock origin's robots.txt was read with status %d, want 200", sc.Case.ID, v.Status)
			}
		}
		if len(from) != len(sc.Steps) {
			t.Fatalf("%s: %d versions of %s for %d steps", sc.Case.ID, len(from), sc.Origins[0], len(sc.Steps))
		}
		seen := map[int]bool{}
		for _, r := range run.Log {
			k := stepOfURL(r.URL)
			if k < 0 {
				continue
			}
			seen[k] = true
			if d := r.Time.Sub(from[k]); d < 0 || d > clockTolerance {
				t.Errorf("%s: %s stamped %s after step %d's time; want 0 to %s", sc.Case.ID, r.URL, d, k, clockTolerance)
			}
		}
		for _, r := range run.Log {
			if r.URL != sc.Origins[0]+"/robots.txt" {
				continue
			}
			k := 0
			for k+1 < len(from) && !r.Time.Before(from[k+1]) {
				k++
			}
			seen[k] = true
			want := sc.Steps[k].Robots
			if r.Status != want.Status || r.Fault != want.Fault {
				t.Errorf("%s: robots.txt at %s answered %d %q; step %d serves %d %q", sc.Case.ID, r.Time.Sub(from[0]), r.Status, r.Fault, k, want.Status, want.Fault)
			}
		}
		// The last step's page has no successor: a step whose file
		// disallows everything shows in its robots.txt fetch alone.
		for k := range sc.Steps {
			if !seen[k] {
				t.Errorf("%s: nothing of step %d (at %s) was requested\n%v", sc.Case.ID, k, sc.Steps[k].At, run.Log)
			}
		}
	}
	for _, r := range results {
		if r.Outcome != result.Pass && r.Outcome != result.Skipped {
			t.Errorf("%s #%d %s: %s %s", r.Case, r.Check, r.Step, r.Outcome, r.Detail)
		}
	}
}

// stepOfURL returns the step a URL of a timeline site belongs to, or -1.
func stepOfURL(u string) int {
	var k int
	if _, q, ok := strings.Cut(u, "reptest-step="); ok {
		if _, err := fmt.Sscanf(q, "%d", &k); err == nil {
			return k
		}
	}
	if _, p, ok := strings.Cut(u, "/reptest-clock/step-"); ok {
		if _, err := fmt.Sscanf(p, "%d.html", &k); err == nil && k > 0 {
			// A step's page is asked for on the step before's time.
			return k - 1
		}
	}
	return -1
}

// timelineCrawler is the test crawler in mode, with the clock, or skips.
func timelineCrawler(t *testing.T, mode string) *crawl.Crawler {
	t.Helper()
	c := testCrawlerCmd(mode)
	if c.Faketime = crawl.FindFaketime(); c.Faketime == "" {
		t.Skip("libfaketime is not installed (Debian package faketime)")
	}
	c.Timeout = 60 * time.Second
	return c
}

// TestCacheForever: a crawler that keeps its first copy of robots.txt
// for the whole crawl fails exactly the caching checks that need the
// file fetched again (CACHE-2) on the caching cases.
func TestCacheForever(t *testing.T) {
	results, _ := crawl.RunAll(context.Background(), selectCases(t, "caching/*"), timelineCrawler(t, "cache-forever"), nil)
	type failure struct {
		Case, Step string
		Check      int
		Outcome    result.Outcome
	}
	var got []failure
	for _, r := range results {
		if r.Outcome == result.Pass || r.Outcome == result.Skipped || r.Outcome == result.Note {
			continue
		}
		got = append(got, failure{r.Case, r.Step, r.Check, r.Outcome})
		if !slices.Contains(r.Req, "CACHE-2") {
			t.Errorf("%s #%d fails, but is no CACHE-2 check: %v", r.Case, r.Check, r.Req)
		}
	}
	sort.Slice(got, func(i, j int) bool {
		if got[i].Case != got[j].Case {
			return got[i].Case < got[j].Case
		}
		return got[i].Check < got[j].Check
	})
	want := []failure{
		// The 404 of 0h is kept: /a is fetched at 25h, when the file disallows it.
		{"caching/404-is-cached", "25h", 2, result.Deviation},
		// The 0h copy (Disallow: /a) is kept: /a is not fetched once
		// the file allows it, /b is fetched once it disallows it.
		{"caching/recovery-after-outage", "49h", 2, result.Deviation},
		{"caching/recovery-after-outage", "49h", 3, result.Deviation},
		{"caching/refetch-after-24h", "25h", 4, result.Deviation},
		{"caching/refetch-after-24h", "25h", 5, result.Deviation},
		{"caching/refetch-after-several-days", "7d", 1, result.Deviation},
		{"caching/refetch-after-several-days", "7d", 2, result.Deviation},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failing checks (-want +got):\n%s", diff)
	}
}

// TestClockSkipsGoPrograms: libfaketime cannot move a Go program's
// clock, so a Go crawler's timeline scenarios are skipped with that
// reason, never passed; without libfaketime, or with NoTimeline, too.
func TestClockSkipsGoPrograms(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command (a Go program) to run")
	}
	cs := selectCases(t, "caching/refetch-after-24h")
	for _, tc := range []struct {
		name string
		c    crawl.Crawler
		want string
	}{
		{"go program", crawl.Crawler{Template: goTool + " env {url}", Faketime: "/nonexistent/libfaketime.so.1"}, "is a Go program"},
		{"no faketime", crawl.Crawler{Template: testCrawler + " {url}"}, "Debian package faketime"},
		{"turned off", crawl.Crawler{Template: testCrawler + " {url}", Faketime: "x", NoTimeline: true}, "--no-timeline"},
	} {
		tc.c.Name, tc.c.Timeout, tc.c.Budget = "c", time.Second, 10
		results, _ := crawl.RunAll(context.Background(), cs, &tc.c, nil)
		if len(results) == 0 {
			t.Fatalf("%s: no results", tc.name)
		}
		for _, r := range results {
			if r.Outcome != result.Skipped || !strings.Contains(r.Detail, tc.want) {
				t.Errorf("%s: #%d %s %q; want skipped saying %q", tc.name, r.Check, r.Outcome, r.Detail, tc.want)
			}
		}
	}
}

// https origins are reached over TLS with the CA the crawler is handed
// ({ca} here; TestObeyingCrawlerPasses reaches them through
// SSL_CERT_FILE). A crawler that refuses the certificate, trusting
// another CA, makes the run an error that carries its message.
func TestCrawlerCA(t *testing.T) {
	cs := selectCases(t, "matching/longest-allow-inside-disallow")
	other, err := crawl.NewLab(crawl.LabOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, tc := range []struct {
		name, ca string
		want     result.Outcome
	}{
		{"its CA", "{ca}", result.Pass},
		{"another CA", other.CAFile(), result.Error},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &crawl.Crawler{Name: "tls", Template: testCrawler + " -ca " + tc.ca + " -agent {agent} -ua {ua} {url}", Timeout: 20 * time.Second, Budget: 100, Requirements: requirements}
			results, runs := crawl.RunAll(context.Background(), cs, c, nil)
			if !strings.HasPrefix(runs[0].Start, "https://127.") {
				t.Fatalf("start %s; want an https origin on loopback", runs[0].Start)
			}
			for _, r := range results {
				if r.Outcome != tc.want {
					t.Errorf("#%d: %s %s", r.Check, r.Outcome, r.Detail)
				}
				if tc.want == result.Error && (!strings.Contains(r.Detail, "refused the certificate of an https origin") ||
					!strings.Contains(r.Detail, "https://example.com: remote error: tls:") ||
					!strings.Contains(r.Detail, "testcrawler:") || !strings.Contains(r.Detail, "certificate")) {
					t.Errorf("#%d: the detail names neither the refused handshake nor the crawler's message:\n%s", r.Check, r.Detail)
				}
			}
		})
	}
}
