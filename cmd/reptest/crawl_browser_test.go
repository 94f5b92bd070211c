package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	crawlRunRE  = regexp.MustCompile(`(?s)<article class="([^"]*\bcrawlrun\b[^"]*)" id="(crawl-\d+)"[^>]*>(.*?)</article>`)
	crawlCaseRE = regexp.MustCompile(`<h3><code class="id">([^<]*)</code>`)
)

// TestCrawlReportTimelinesVisible makes a crawl report with the test
// crawler in a mode that fails some scenarios and opens it in headless
// Chromium: after the page's script ran, every scenario with requests
// shows at least one timeline, each request says in words what the site
// answered, and no socket error of the reference shows.
func TestCrawlReportTimelinesVisible(t *testing.T) {
	bin := chromiumBin(t)
	dir := t.TempDir()
	crawler := filepath.Join(dir, "testcrawler")
	if out, err := exec.Command("go", "build", "-o", crawler, "../../crawlers/testcrawler").CombinedOutput(); err != nil {
		t.Fatalf("building the test crawler: %v\n%s", err, out)
	}
	page := filepath.Join(dir, "crawl.html")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"crawl", "--name", "testcrawler", "--quiet",
		"--run", "access/status-5*", "--run", "access/fault-connection-reset", "--run", "matching/longest*",
		"--crawler", crawler + " -mode 5xx-allow -agent {agent} -ua {ua} {url}", "--html", page}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("crawl: exit %d, want 1 (the 5xx-allow mode fails ACC-7)\n%s%s", code, stdout.String(), stderr.String())
	}
	dom, log := dumpDOM(t, bin, "file://"+page)
	checkLeads(t, dom, "testcrawler", true)
	if !strings.Contains(dom, `<code class="bt-id">5xx-allows</code>`) {
		t.Error("the misreadings table does not name 5xx-allows, the mode's misreading")
	}
	runs := crawlRunRE.FindAllStringSubmatch(dom, -1)
	if len(runs) == 0 {
		t.Fatalf("the report has no crawler run; chromium log:\n%s", log)
	}
	visible := map[string]bool{}
	for _, m := range runs {
		class, body := m[1], m[3]
		c := crawlCaseRE.FindStringSubmatch(body)
		if c == nil {
			t.Fatalf("%s: no case heading", m[2])
		}
		hasRequests := !strings.Contains(body, "no request")
		if _, seen := visible[c[1]]; !seen && hasRequests {
			visible[c[1]] = false
		}
		if hasRequests && !strings.Contains(" "+class+" ", " hidden ") {
			visible[c[1]] = true
		}
		if strings.Contains(body, "read tcp") {
			t.Errorf("%s (%s) shows a socket error of the reference", m[2], c[1])
		}
	}
	for sc, ok := range visible {
		if !ok {
			t.Errorf("scenario %s has requests but no visible timeline", sc)
		}
	}
	for _, want := range []string{"Site answered", "503 Service Unavailable", "connection closed before any response"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	t.Logf("%d runs, %d scenarios with requests", len(runs), len(visible))
}
