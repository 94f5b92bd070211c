package crawl_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/result"
)

// realCrawlers are the crawlers .ci/run judges, with the Debian package
// each needs.
// A "probe" command must succeed for the crawler to be there.
var realCrawlers = []struct {
	name, pkg, template string
	probe               []string
}{
	{"wget", "wget", "wget -r -H -l 5 -e robots=on -T 5 -t 1 -U {ua} -P {dir} {url}", []string{"wget", "--version"}},
	{"wget2", "wget2", "wget2 -r -l 5 --robots=on -T 5 -t 1 -U {ua} -P {dir} {url}", []string{"wget2", "--version"}},
	{"httrack", "httrack", "httrack {url} -O {dir} -r2 -s2 -F {ua} -%v0 -Q -q -T5 -R0", []string{"httrack", "--version"}},
	{"scrapy", "python3-scrapy", "/usr/bin/python3 -m scrapy runspider ../crawlers/scrapy/spider.py -a start={url} -s USER_AGENT={ua} -s ROBOTSTXT_OBEY=True -s DEPTH_LIMIT=5 -s DOWNLOAD_TIMEOUT=5 -s LOG_LEVEL=WARNING -s TELNETCONSOLE_ENABLED=False", []string{"/usr/bin/python3", "-c", "import scrapy"}},
	{"linkchecker", "linkchecker", "linkchecker -r 5 --check-extern -o none --no-status -t 2 --timeout 5 --user-agent {ua} {url}", []string{"linkchecker", "--version"}},
	{"mechanize", "ruby-mechanize", "ruby ../crawlers/mechanize/crawl.rb -ua {ua} {url}", []string{"ruby", "-rmechanize", "-e", "1"}},
	{"simplecrawler", "nodejs, and npm ci in crawlers/simplecrawler", "node ../crawlers/simplecrawler/crawl.js -ua {ua} {url}", []string{"node", "-e", "require('../crawlers/simplecrawler/node_modules/simplecrawler')"}},
	{"colly", "golang (and the Go module proxy, for colly)", "", nil},
}

// realTemplate returns a real crawler's template with the crawlers/
// paths made absolute, or skips when the crawler is not installed.
func realTemplate(t *testing.T, name, pkg, template string, probe []string) string {
	t.Helper()
	if name == "colly" {
		return buildColly(t) + " -ua {ua} {url}"
	}
	if err := exec.Command(probe[0], probe[1:]...).Run(); err != nil {
		t.Skipf("%s is not installed (%s): %v", name, pkg, err)
	}
	abs, err := filepath.Abs("../crawlers")
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(template, "../crawlers/", abs+"/")
}

// TestRealCrawlers runs each installed crawler on two scenarios, one of
// them on an https origin: each run must record requests and be judged,
// with no error outcome, and the https origin must have been reached
// (over TLS, the only way it is served; wget with the test CA from
// WGETRC, colly from SSL_CERT_FILE). (.ci/run judges them on the corpus.)
func TestRealCrawlers(t *testing.T) {
	if testing.Short() {
		t.Skip("real crawlers take seconds per scenario")
	}
	cs := selectCases(t, "access/status-500-unreachable", "matching/longest-allow-inside-disallow")
	for _, rc := range realCrawlers {
		t.Run(rc.name, func(t *testing.T) {
			template := realTemplate(t, rc.name, rc.pkg, rc.template, rc.probe)
			c := &crawl.Crawler{Name: rc.name, Template: template, Timeout: 60 * time.Second, Budget: 200, Requirements: requirements}
			results, runs := crawl.RunAll(context.Background(), cs, c, nil)
			for _, run := range runs {
				if len(run.Log) == 0 {
					t.Errorf("%s/%s: no request recorded: %s\n%s", run.Scenario.Case.ID, run.Scenario.Agent, run.Failure, run.Output)
				}
				if strings.HasPrefix(run.Start, "https:") && !slices.ContainsFunc(run.Log, func(r crawl.Request) bool {
					return strings.HasPrefix(r.URL, "https://example.com/") && r.Status == 200
				}) {
					t.Errorf("%s/%s: nothing of https://example.com was fetched over TLS:\n%s", run.Scenario.Case.ID, run.Scenario.Agent, run.Output)
				}
			}
			for _, r := range results {
				if r.Outcome == result.Error {
					t.Errorf("%s #%d: %s", r.Case, r.Check, r.Detail)
				}
			}
		})
	}
}

// buildColly builds crawlers/colly, a module of its own, or skips.
func buildColly(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "colly-crawler")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = "../crawlers/colly"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("crawlers/colly does not build here (it needs the Go module proxy for colly): %v\n%s", err, out)
	}
	return bin
}

// TestRealCrawlersClock plays a caching case to wget, wget2 and Scrapy on
// the fake clock: their CACHE-1/CACHE-2 checks are graded, not skipped.
func TestRealCrawlersClock(t *testing.T) {
	if testing.Short() {
		t.Skip("real crawlers take seconds per scenario")
	}
	lib := crawl.FindFaketime()
	if lib == "" {
		t.Skip("libfaketime is not installed (Debian package faketime)")
	}
	cs := selectCases(t, "caching/refetch-after-24h")
	for _, rc := range realCrawlers {
		if rc.name != "wget" && rc.name != "wget2" && rc.name != "scrapy" {
			continue
		}
		t.Run(rc.name, func(t *testing.T) {
			c := &crawl.Crawler{Name: rc.name, Template: realTemplate(t, rc.name, rc.pkg, rc.template, rc.probe),
				Timeout: 90 * time.Second, Budget: 200, Faketime: lib, Requirements: requirements}
			results, _ := crawl.RunAll(context.Background(), cs, c, nil)
			graded := 0
			for _, r := range results {
				if r.Step == "" {
					continue
				}
				switch r.Outcome {
				case result.Skipped, result.Error:
					t.Errorf("%s #%d at %s: %s %s", r.Case, r.Check, r.Step, r.Outcome, r.Detail)
				default:
					graded++
				}
			}
			if graded != 6 {
				t.Errorf("%d checks of the timeline graded, want 6", graded)
			}
		})
	}
}
