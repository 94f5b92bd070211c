package main

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/result"
)

// diff on generated files writes findings that promote turns into drafts
// the loader accepts.
func TestDiffThenPromote(t *testing.T) {
	dir := t.TempDir()
	findings := filepath.Join(dir, "findings.jsonl")
	summary := filepath.Join(dir, "summary.json")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"diff", "--parser", "reference", "--parser", "reference-google",
		"--generate", "8", "--seed", "5", "--json", findings, "--summary", summary, "--top", "3"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("diff: exit %d\n%s", code, stderr.String())
	}
	for _, want := range []string{"2 parsers (reference, reference-google), 8 files", "reference  reference-google", "top groups"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	f, err := os.Open(findings)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := diff.ReadFindings(f)
	f.Close()
	if err != nil || len(fs) == 0 {
		t.Fatalf("findings: %d, %v", len(fs), err)
	}
	var s result.DiffSummary
	if b, err := os.ReadFile(summary); err != nil || json.Unmarshal(b, &s) != nil || s.Findings != len(fs) {
		t.Errorf("summary %+v (%v), want %d findings", s, err, len(fs))
	}

	out := filepath.Join(dir, "drafts")
	stdout.Reset()
	stderr.Reset()
	code = dispatch(context.Background(), []string{"promote", "--out", out, findings}, &stdout, &stderr)
	if code != 0 && code != 1 {
		t.Fatalf("promote: exit %d\n%s", code, stderr.String())
	}
	written := strings.Fields(stdout.String())
	if len(written) == 0 {
		t.Fatalf("no drafts written; stderr:\n%s", stderr.String())
	}
	cs, err := cases.LoadDirs(out)
	if err != nil {
		t.Fatalf("drafts do not load: %v", err)
	}
	if len(cs) != len(written) {
		t.Errorf("%d cases loaded from %d files", len(cs), len(written))
	}
}

func TestPromoteFuzzFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "0123abcd")
	body := "go test fuzz v1\n[]byte(\"\\xef\\xbb\\xbfUser-agent: *\\r\\nDisallow: /a\\r\\n\")\nstring(\"FooBot\")\nstring(\"/a/b\")\n"
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"promote", name}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	for _, want := range []string{"robots_base64: 77u/", "tags: [needs-review, from-fuzz]", "expect: disallow", "fuzz corpus file 0123abcd"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("draft lacks %q:\n%s", want, stdout.String())
		}
	}
}

func TestDiffPromoteUsage(t *testing.T) {
	dir := t.TempDir()
	notFindings := filepath.Join(dir, "x.jsonl")
	os.WriteFile(notFindings, []byte("{\"agent\":\n"), 0o644)
	for _, args := range [][]string{
		{"diff", "--shard", "0/2", "--generate", "1"},
		{"diff", "--parser", "no-such-parser", "--generate", "1"},
		{"diff", "--generate", "1", "extra"},
		{"diff", "--generate", "-1"},
		{"diff", "--inputs", filepath.Join(dir, "missing")},
		{"promote"},
		{"promote", filepath.Join(dir, "missing")},
		{"promote", notFindings},
		{"promote", "--profile", "bogus", notFindings},
	} {
		var stdout, stderr bytes.Buffer
		if code := dispatch(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if stderr.Len() == 0 {
			t.Errorf("%v: no message", args)
		}
	}
}

// groupRow is one group as a summary lists it.
type groupRow struct {
	Signature, Primary      string
	Files, Probes, Findings int
}

// The terminal summary, the JSON summary and the HTML page list the same
// groups, in the same order, with the same counts: there is one grouping.
func TestDiffSummariesAgree(t *testing.T) {
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.json")
	page := filepath.Join(dir, "diff.html")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"diff", "--parser", "reference", "--parser", "reference-google", "--parser", "temoto",
		"--generate", "40", "--seed", "3", "--summary", summary, "--html", page, "--top", "0"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("diff: exit %d\n%s", code, stderr.String())
	}
	var s result.DiffSummary
	if b, err := os.ReadFile(summary); err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("summary: %v", err)
	}
	var fromJSON []groupRow
	for _, g := range s.Groups {
		fromJSON = append(fromJSON, groupRow{g.Signature, g.Primary, g.Files, g.Probes, g.Findings})
	}
	if len(fromJSON) < 3 {
		t.Fatalf("only %d groups; the test needs several", len(fromJSON))
	}

	termRE := regexp.MustCompile(`(?m)^\d+\. (\S+)  (\S*)  \((\d+) files, (\d+) probes, (\d+) findings`)
	var fromText []groupRow
	for _, m := range termRE.FindAllStringSubmatch(stdout.String(), -1) {
		fromText = append(fromText, groupRow{m[1], m[2], atoi(t, m[3]), atoi(t, m[4]), atoi(t, m[5])})
	}
	if d := cmp.Diff(fromJSON, fromText); d != "" {
		t.Errorf("terminal groups differ from the JSON summary's (-json +terminal):\n%s\n%s", d, stdout.String())
	}

	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	htmlRE := regexp.MustCompile(`<article class="[^"]*\bclass-card\b[^"]*"[^>]*data-files="(\d+)" data-probes="(\d+)" data-findings="(\d+)"[^>]*>\s*<h3><code class="sig">([^<]*)</code> <span class="primary">(?:<a[^>]*>)?([^<]*)`)
	var fromHTML []groupRow
	for _, m := range htmlRE.FindAllStringSubmatch(string(b), -1) {
		fromHTML = append(fromHTML, groupRow{html.UnescapeString(m[4]), html.UnescapeString(m[5]), atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3])})
	}
	if d := cmp.Diff(fromJSON, fromHTML); d != "" {
		t.Errorf("HTML classes differ from the JSON summary's groups (-json +html):\n%s", d)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// With --profile google the reference that traces findings is Google's:
// every trace agrees with reference-google's verdict in the same finding,
// and every finding records the profile.
func TestDiffProfileGoogleTraces(t *testing.T) {
	for _, profile := range []string{result.ProfileGoogle, result.ProfileRFC} {
		t.Run(profile, func(t *testing.T) {
			dir := t.TempDir()
			findings := filepath.Join(dir, "findings.jsonl")
			var stdout, stderr bytes.Buffer
			code := dispatch(context.Background(), []string{"diff", "--profile", profile, "--parser", "reference-google", "--parser", "grobotstxt",
				"--parser", "reference", "--generate", "60", "--seed", "7", "--json", findings, "--quiet"}, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("diff: exit %d\n%s", code, stderr.String())
			}
			f, err := os.Open(findings)
			if err != nil {
				t.Fatal(err)
			}
			fs, err := diff.ReadFindings(f)
			f.Close()
			if err != nil || len(fs) < 5 {
				t.Fatalf("findings: %d, %v; the test needs several", len(fs), err)
			}
			// The parser whose verdict the trace must match.
			traced := "reference-google"
			if profile == result.ProfileRFC {
				traced = "reference"
			}
			for _, f := range fs {
				if f.Profile != profile {
					t.Errorf("finding records profile %q, want %q", f.Profile, profile)
				}
				verdict, _, _ := strings.Cut(f.Trace, " ")
				if want := string(f.Verdicts[traced]); verdict != want {
					t.Errorf("trace %q contradicts %s's verdict %s on agent %q url %q robots %q", f.Trace, traced, want, f.Agent, f.URL, f.Robots)
				}
			}
		})
	}
}

// report RESULTS --findings F --html makes one page holding the run and
// the findings' classes, grouped as diff groups them.
func TestReportWithFindingsOnePage(t *testing.T) {
	dir := t.TempDir()
	results := shardFile(t, dir, "a.json", map[string]result.Outcome{"ua/one": result.Pass, "ua/two": result.Violation})
	findings := filepath.Join(dir, "findings.jsonl")
	page := filepath.Join(dir, "state.html")
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"diff", "--parser", "reference", "--parser", "temoto", "--generate", "10",
		"--json", findings, "--quiet"}, &stdout, &stderr); code != 0 {
		t.Fatalf("diff: exit %d\n%s", code, stderr.String())
	}
	if code := dispatch(context.Background(), []string{"report", results, "--findings", findings, "--html", page, "--quiet"}, &stdout, &stderr); code != 0 && code != 1 {
		t.Fatalf("report: exit %d\n%s", code, stderr.String())
	}
	f, err := os.Open(findings)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := diff.ReadFindings(f)
	f.Close()
	if err != nil || len(fs) == 0 {
		t.Fatalf("findings: %d, %v", len(fs), err)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{`id="overview"`, `id="failures"`, `id="pairs"`, `id="classes"`} {
		if !bytes.Contains(b, []byte(id)) {
			t.Errorf("the page lacks the section %s", id)
		}
	}
	if got, want := bytes.Count(b, []byte(`class="card finding class-card"`)), len(result.GroupFindings(fs)); got != want {
		t.Errorf("the page shows %d classes, diff groups the findings in %d", got, want)
	}
}

// A requested parser that cannot run is left out, the others are compared
// and the outputs written, and diff exits 1 as run does.
func TestDiffExitWhenParserDidNotRun(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.json")
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"diff", "--generate", "2", "--parser", "reference", "--parser", "temoto", "--quiet", "--summary", summary}, 0},
		{[]string{"diff", "--generate", "2", "--parser", "reference", "--parser", "temoto", "--exec", "/nonexistent/peer", "--quiet", "--summary", summary}, 1},
	} {
		os.Remove(summary)
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), tt.args, &stdout, &stderr)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d; stderr %q", tt.args, code, tt.code, stderr.String())
		}
		if _, err := os.Stat(summary); err != nil {
			t.Errorf("%v: no summary written: %v", tt.args, err)
		}
		if tt.code == 1 && !strings.Contains(stderr.String(), "did not run") {
			t.Errorf("%v: stderr %q does not say what did not run", tt.args, stderr.String())
		}
	}
}
