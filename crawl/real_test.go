package crawl_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
)

// realCrawlers are the crawlers .ci/run judges, with the Debian package
// each needs.
var realCrawlers = []struct {
	name, pkg, bin, template string
}{
	{"wget", "wget", "wget", "wget -r -H -l 1 -e robots=on -T 5 -t 1 -U {ua} -P {dir} {url}"},
	{"httrack", "httrack", "httrack", "httrack {url} -O {dir} -r2 -s2 -F {ua} -%v0 -Q -q -T5 -R0"},
	{"scrapy", "python3-scrapy", "/usr/bin/scrapy", "/usr/bin/python3 -m scrapy runspider ../crawlers/scrapy/spider.py -a start={url} -s USER_AGENT={ua} -s ROBOTSTXT_OBEY=True -s DEPTH_LIMIT=2 -s DOWNLOAD_TIMEOUT=5 -s LOG_LEVEL=WARNING -s TELNETCONSOLE_ENABLED=False"},
	{"colly", "golang (and the Go module proxy, for colly)", "", ""},
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
			template := rc.template
			if rc.name == "colly" {
				template = buildColly(t) + " -ua {ua} {url}"
			} else if _, err := exec.LookPath(rc.bin); err != nil {
				t.Skipf("%s is not installed (Debian package %s)", rc.bin, rc.pkg)
			}
			if rc.name == "scrapy" {
				if err := exec.Command("/usr/bin/python3", "-c", "import scrapy").Run(); err != nil {
					t.Skipf("Scrapy is not importable by /usr/bin/python3 (Debian package python3-scrapy): %v", err)
				}
				abs, _ := filepath.Abs("../crawlers/scrapy/spider.py")
				template = "/usr/bin/python3 -m scrapy runspider " + abs + template[len("/usr/bin/python3 -m scrapy runspider ../crawlers/scrapy/spider.py"):]
			}
			c := &crawl.Crawler{Name: rc.name, Template: template, Timeout: 60 * time.Second, Budget: 200}
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
				if r.Outcome == cases.Error {
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
