package crawl_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
)

// testCrawler is the path of the built crawlers/testcrawler.
var testCrawler string

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
	cs, err := cases.Select(all, cases.ProfileRFC, globs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func testCrawlerCmd(mode string) *crawl.Crawler {
	return &crawl.Crawler{Name: mode, Template: testCrawler + " -mode " + mode + " -agent {agent} -ua {ua} {url}",
		Timeout: 20 * time.Second, Budget: 100}
}

func TestObeyingCrawlerPasses(t *testing.T) {
	cs := selectCases(t, "http/status-*", "matching/longest*", "http/authority*", "http/redirect*")
	results, _ := crawl.RunAll(context.Background(), cs, testCrawlerCmd("obey"), nil)
	for _, r := range results {
		if r.Outcome != cases.Pass && r.Outcome != cases.Skipped {
			t.Errorf("%s #%d %s %s: %s %s\n%s", r.Case, r.Check, r.Agent, r.URL, r.Outcome, strings.Join(r.Req, " "), r.Detail)
		}
	}
}
