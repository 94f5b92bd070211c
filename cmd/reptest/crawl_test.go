package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCrawlUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"crawl"}, "--crawler is required"},
		{[]string{"crawl", "--crawler", "wget 'x"}, "unterminated single quote"},
		{[]string{"crawl", "--crawler", "true", "--timeout", "0s"}, "must be positive"},
		{[]string{"crawl", "--crawler", "true", "--run", "no/such/case"}, "no case of profile rfc9309 matches"},
		{[]string{"crawl", "--crawler", "true", "--jobs", "0"}, "must be positive"},
		{[]string{"crawl", "--crawler", "true", "--layout", "hosts"}, `--layout "hosts": want addresses or ports`},
		{[]string{"audit", "--robots", "x.txt"}, "give at least one --log"},
		{[]string{"audit", "--log", "x.log"}, "give --robots"},
		{[]string{"audit", "--log", "x.log", "--robots", "r.txt", "--agent", "Foo/1.0"}, "not a product token"},
		{[]string{"audit", "--log", "x.log", "--robots", "r.txt", "--log-format", "xml"}, "must be combined, json or cloudflare"},
	} {
		var stdout, stderr bytes.Buffer
		if code := dispatch(context.Background(), tc.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// A crawler that makes no request is an error on every check, never a
// pass, and the results go through the report formats.
func TestCrawlNoRequest(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"crawl", "--crawler", "sh -c 'exit 0'", "--name", "idle",
		"--run", "access/status-200-rules-apply", "--json", out, "--quiet"}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1; stderr %s", code, stderr.String())
	}
	doc := readDoc(t, out)
	if len(doc.Parsers) != 1 || doc.Parsers[0].Errors != len(doc.Results) || len(doc.Results) == 0 {
		t.Errorf("summary %+v of %d results; want every result an error", doc.Parsers, len(doc.Results))
	}
	if len(doc.Crawls) != 1 || !strings.Contains(doc.Crawls[0].Failure, "made no request") {
		t.Errorf("timelines %+v", doc.Crawls)
	}
}

// The layout that ran is in the results and at the top of the text
// report.
func TestCrawlLayout(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	var stdout, stderr bytes.Buffer
	dispatch(context.Background(), []string{"crawl", "--crawler", "sh -c 'exit 0'", "--layout", "ports", "--jobs", "3",
		"--run", "access/status-200-rules-apply", "--json", out}, &stdout, &stderr)
	if doc := readDoc(t, out); doc.CrawlLayout != "ports" {
		t.Errorf("crawl_layout %q; want ports", doc.CrawlLayout)
	}
	if !strings.Contains(stdout.String(), "crawl layout: ports\n") {
		t.Errorf("the text report does not name the layout:\n%s", stdout.String())
	}
}

func TestAuditCommand(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	log := filepath.Join(dir, "access.log")
	os.WriteFile(log, []byte(`1.2.3.4 - - [06/Oct/2026:01:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 40 "-" "FooBot/1.0"
1.2.3.4 - - [06/Oct/2026:01:00:01 +0000] "GET /private/x HTTP/1.1" 200 40 "-" "FooBot/1.0"
not a log line
`), 0o644)
	out := filepath.Join(dir, "audit.json")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"audit", "--robots", robots, "--log", log, "--agent", "FooBot", "--json", out}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1 (a violation); stderr %s", code, stderr.String())
	}
	for _, want := range []string{"access.log:3: no [time] field", "FooBot: 2 requests, 1 robots.txt fetches, 0 allowed, 0 within the cache grace, 1 violations",
		"1 violations decided by Disallow: /private/ (line 2 of " + robots + ")"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Results []struct {
			Parser, Outcome string
			Req             []string
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Results) != 3 || doc.Results[0].Outcome != "violation" {
		t.Errorf("results %+v, %v", doc.Results, err)
	}
}

// An interrupted crawl is written and judged as an interrupted run is:
// the document is marked with the reason, and the status is 1.
func TestCrawlInterrupted(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("stopped by the test"))
	var stdout, stderr bytes.Buffer
	code := dispatch(ctx, []string{"crawl", "--crawler", "sh -c 'exit 0'", "--run", "access/status-200-rules-apply", "--json", out, "--quiet"}, &stdout, &stderr)
	if code != exitFail || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want 1 and the interruption said", code, stderr.String())
	}
	doc := readDoc(t, out)
	if !doc.Interrupted || doc.InterruptReason != "stopped by the test" {
		t.Errorf("document: interrupted %v, reason %q; want it marked with the cause", doc.Interrupted, doc.InterruptReason)
	}
}

// An interrupted audit is written and judged as an interrupted run is:
// the requests read so far are reported, the document is marked with the
// reason, and the status is 1.
func TestAuditInterrupted(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// More lines than the scanner reads between looks at the context.
	line := `1.2.3.4 - - [06/Oct/2026:01:00:01 +0000] "GET /private/x HTTP/1.1" 200 40 "-" "FooBot/1.0"` + "\n"
	log := filepath.Join(dir, "access.log")
	if err := os.WriteFile(log, []byte(strings.Repeat(line, 70000)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "audit.json")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("stopped by the test"))
	var stdout, stderr bytes.Buffer
	code := dispatch(ctx, []string{"audit", "--robots", robots, "--log", log, "--json", out, "--quiet"}, &stdout, &stderr)
	if code != exitFail || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want 1 and the interruption said", code, stderr.String())
	}
	doc := readDoc(t, out)
	if !doc.Interrupted || doc.InterruptReason != "stopped by the test" {
		t.Errorf("document: interrupted %v, reason %q; want it marked with the cause", doc.Interrupted, doc.InterruptReason)
	}
	if len(doc.Results) == 0 {
		t.Errorf("no results; want the requests read before the interruption judged")
	}
}
