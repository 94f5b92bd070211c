package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/result"
)

// TestOutputFlags checks that each command that judges a results
// document accepts the output flags it has always had, with the one
// shared help text per flag, and rejects the others.
func TestOutputFlags(t *testing.T) {
	all := []string{"json", "junit", "html", "badge", "expect", "write-expect", "merge-out", "title"}
	tests := []struct {
		cmd  string
		want []string // the flags of all that the command takes
	}{
		{"run", []string{"json", "junit", "html", "badge", "expect", "write-expect"}},
		{"crawl", []string{"json", "junit", "html", "badge", "expect", "write-expect"}},
		{"audit", []string{"json", "junit", "html"}},
		{"report", []string{"junit", "html", "badge", "expect", "merge-out", "title"}},
	}
	// The help text of a flag shared by several commands.
	shared := map[string]string{
		"json":   "write the results as JSON to FILE",
		"junit":  "write JUnit XML to FILE",
		"html":   "write a self-contained HTML report to FILE",
		"badge":  "write a shields.io endpoint JSON per parser into DIR",
		"expect": "a YAML FILE of expected failures; only new failures fail the run",
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			var got []string
			for _, f := range all {
				// -h after the flag: a flag the command has is parsed and
				// help printed (status 0); any other stops the parse.
				var stdout, stderr bytes.Buffer
				code := dispatch(context.Background(), []string{tt.cmd, "--" + f, "x", "-h"}, &stdout, &stderr)
				undefined := strings.Contains(stderr.String(), "flag provided but not defined: -"+f)
				switch {
				case code == 0 && !undefined:
					got = append(got, f)
					if want, ok := shared[f]; ok && !strings.Contains(stderr.String(), want) {
						t.Errorf("%s -h: --%s lacks the help %q:\n%s", tt.cmd, f, want, stderr.String())
					}
				case code != exitUsage || !undefined:
					t.Errorf("%s --%s x -h: exit %d, stderr %q; want 0 and help, or 2 and the flag undefined", tt.cmd, f, code, stderr.String())
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: output flags (-want +got):\n%s", tt.cmd, diff)
			}
		})
	}
}

// An output file "-" is stdout for every command, and holds the output
// alone: no file named "-" is written and no summary is mixed in.
func TestOutputDashIsStdout(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	log := filepath.Join(dir, "access.log")
	results := filepath.Join(dir, "results.json")
	files := map[string]string{
		robots: "User-agent: *\nDisallow: /private/\n",
		log:    `1.2.3.4 - - [06/Oct/2026:01:00:01 +0000] "GET /private/x HTTP/1.1" 200 40 "-" "FooBot/1.0"` + "\n",
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const id = "access/status-200-rules-apply"
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"run", "--run", id, "--quiet", "--json", results}, &stdout, &stderr); code != exitOK {
		t.Fatalf("run for report: exit %d\n%s", code, stderr.String())
	}
	corpus := writeCorpus(t, map[string]string{"a.yaml": goodCase})
	tests := [][]string{
		{"run", "--run", id, "--json", "-"},
		{"run", "--run", id, "--junit", "-"},
		{"crawl", "--crawler", "sh -c 'exit 0'", "--run", id, "--json", "-"},
		{"audit", "--robots", robots, "--log", log, "--json", "-"},
		{"report", results, "--merge-out", "-"},
		{"diff", "--corpus", corpus, "--parser", "reference", "--parser", "temoto", "--no-minimize", "--summary", "-"},
	}
	t.Chdir(t.TempDir()) // where a file named "-" would be written
	for _, args := range tests {
		flag := args[len(args)-2]
		t.Run(args[0]+flag, func(t *testing.T) {
			stdout.Reset()
			stderr.Reset()
			if code := dispatch(context.Background(), args, &stdout, &stderr); code == exitUsage {
				t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
			}
			var v any
			if flag == "--junit" {
				var x struct{ XMLName xml.Name }
				err := xml.Unmarshal(stdout.Bytes(), &x)
				if err != nil || !strings.HasPrefix(stdout.String(), "<?xml") || !strings.HasSuffix(strings.TrimSpace(stdout.String()), ">") {
					t.Errorf("%v: stdout is not the JUnit XML alone (%v):\n%s", args, err, stdout.String())
				}
			} else if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
				t.Errorf("%v: stdout is not the JSON alone: %v\n%s", args, err, stdout.String())
			}
			if _, err := os.Stat("-"); err == nil {
				t.Errorf("%v: wrote a file named -", args)
				os.Remove("-")
			}
		})
	}
}

// Two outputs on stdout are a usage error, named, before any work: they
// would be written one after the other into one stream. One output on
// stdout beside files, or an input read from stdin, is not. (The runs are
// small, should one start: one case, one parser.)
func TestOutputDashOnce(t *testing.T) {
	corpus := writeCorpus(t, map[string]string{"a.yaml": goodCase})
	one := []string{"--corpus", corpus}
	refused := []struct {
		args  []string
		flags []string // named in the error
	}{
		{append([]string{"run", "--json", "-", "--junit", "-"}, one...), []string{"--json -", "--junit -"}},
		{append([]string{"run", "--html", "-", "--write-expect", "-", "--json", "out.json"}, one...), []string{"--html -", "--write-expect -"}},
		{append([]string{"crawl", "--crawler", "true", "--json", "-", "--html", "-"}, one...), []string{"--html -", "--json -"}},
		{[]string{"audit", "--robots", "r.txt", "--log", "a.log", "--junit", "-", "--json", "-"}, []string{"--json -", "--junit -"}},
		{[]string{"report", "a.json", "--merge-out", "-", "--junit", "-"}, []string{"--junit -", "--merge-out -"}},
		{append([]string{"diff", "--parser", "reference", "--json", "-", "--summary", "-"}, one...), []string{"--json -", "--summary -"}},
		{append([]string{"diff", "--parser", "reference", "--html", "-", "--report", "-", "--json", "-"}, one...), []string{"--html -", "--json -", "--report -"}},
	}
	t.Chdir(t.TempDir()) // where the files of the runs would be written
	for _, tt := range refused {
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), tt.args, &stdout, &stderr)
		var named []string
		for _, f := range tt.flags {
			if strings.Contains(stderr.String(), f) {
				named = append(named, f)
			}
		}
		if code != exitUsage || stdout.Len() > 0 || !strings.Contains(stderr.String(), "only one output can be stdout") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing on stdout and the usage error", tt.args, code, stdout.String(), stderr.String())
		}
		if diff := cmp.Diff(tt.flags, named); diff != "" {
			t.Errorf("%v: flags named in %q (-want +got):\n%s", tt.args, stderr.String(), diff)
		}
	}
	accepted := []struct {
		args  []string
		parse func([]string) bool
	}{
		{[]string{"--robots", "r.txt", "--log", "-", "--json", "-"}, func(a []string) bool { _, _, ok := parseAuditFlags(a, io.Discard); return ok }},
		{[]string{"--json", "-", "--html", "out.html", "--junit", "out.xml"}, func(a []string) bool { _, _, ok := parseRunFlags(a, io.Discard); return ok }},
		{[]string{"--summary", "-", "--json", "out.json"}, func(a []string) bool { _, _, ok := parseDiffFlags(a, io.Discard); return ok }},
	}
	for _, tt := range accepted {
		if !tt.parse(tt.args) {
			t.Errorf("%v: refused; want one output on stdout accepted", tt.args)
		}
	}
}

// --badge names a folder: "-" is refused as a usage error, and no folder
// named "-" is made.
func TestBadgeNotStdout(t *testing.T) {
	corpus := writeCorpus(t, map[string]string{"a.yaml": goodCase})
	t.Chdir(t.TempDir())
	for _, args := range [][]string{
		{"run", "--corpus", corpus, "--badge", "-"},
		{"report", "a.json", "--badge", "-"},
	} {
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), args, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "a folder, not stdout (-)") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the usage error", args, code, stderr.String())
		}
		if _, err := os.Stat("-"); err == nil {
			t.Errorf("%v: made a folder named -", args)
		}
	}
}

// A page rendered again by reptest report keeps the title of the command
// that wrote its document.
func TestPageTitle(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  *result.Document
		want string
	}{
		{"run", &result.Document{Results: []result.Result{{Case: "c", Parser: "p"}}}, ""},
		{"diff", &result.Document{Summary: &result.DiffSummary{}}, diffTitle},
		{"findings with a run", &result.Document{Summary: &result.DiffSummary{FindingsOnly: true}, Results: []result.Result{{Case: "c", Parser: "p"}}}, ""},
		{"crawl", &result.Document{Crawls: []result.CrawlRun{{Crawler: "wget"}, {Crawler: "wget"}, {Crawler: "scrapy"}}}, "reptest crawl: wget, scrapy"},
		{"audit", &result.Document{Audit: &result.Audit{Lines: 1}}, "reptest audit"},
	} {
		if got := pageTitle(tc.doc); got != tc.want {
			t.Errorf("%s: pageTitle = %q, want %q", tc.name, got, tc.want)
		}
	}
}
