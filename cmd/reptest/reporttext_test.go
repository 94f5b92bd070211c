package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// reptest report prints, from a saved document, byte for byte what the
// command that wrote it printed: for run, diff, crawl and audit.
func TestReportPrintsCommandText(t *testing.T) {
	dir := t.TempDir()
	crawler := filepath.Join(dir, "testcrawler")
	if out, err := exec.Command("go", "build", "-o", crawler, "../../crawlers/testcrawler").CombinedOutput(); err != nil {
		t.Fatalf("building the test crawler: %v\n%s", err, out)
	}
	robots := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nAllow: /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string // the command, writing its document to the path after it
		code int
	}{
		{"run", []string{"run", "--parser", "reference", "--parser", "temoto", "--run", "matching/longest*", "--json"}, exitOK},
		{"diff", []string{"diff", "--no-cache", "--parser", "reference", "--parser", "reference-google", "--generate", "4", "--report"}, exitOK},
		// The test crawler misreading 5xx as allowing: failures, a
		// diagnosis and timelines in the text.
		{"crawl", []string{"crawl", "--name", "testcrawler", "--quiet=false", "--run", "access/status-5*", "--run", "matching/longest*",
			"--crawler", crawler + " -mode 5xx-allow -agent {agent} -ua {ua} {url}", "--json"}, exitFail},
		// An audit with a violation quoted, a warning and a malformed line.
		{"audit", []string{"audit", "--robots", robots, "--log", "../../accesslog/testdata/access.log", "--json"}, exitFail},
		{"audit with --requests", []string{"audit", "--robots", robots, "--log", "../../accesslog/testdata/access.log",
			"--requests", filepath.Join(dir, "judged.jsonl"), "--json"}, exitFail},
		{"audit of buckets", []string{"audit", "--robots", "../../accesslog/testdata/story/before.txt",
			"--robots", "../../accesslog/testdata/story/after.txt@2026-10-06T13:31:00Z", "--log-format", "cloudflare-graphql",
			"--log", "../../accesslog/testdata/story/graphql.json", "--json"}, exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := filepath.Join(dir, tc.name+".json")
			var wrote, stderr bytes.Buffer
			if code := dispatch(context.Background(), append(tc.args, doc), &wrote, &stderr); code != tc.code {
				t.Fatalf("%v: exit %d\n%s", tc.args, code, stderr.String())
			}
			var read bytes.Buffer
			if code := dispatch(context.Background(), []string{"report", doc}, &read, &stderr); code != tc.code {
				t.Fatalf("report: exit %d\n%s", code, stderr.String())
			}
			if wrote.Len() == 0 {
				t.Fatal("the command printed nothing")
			}
			if diff := cmp.Diff(wrote.String(), read.String()); diff != "" {
				t.Errorf("reptest report prints other text (-%s +report):\n%s", tc.name, diff)
			}
		})
	}
}
