package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// auditText runs an audit of the logs against robots and returns its exit
// status and its text, with the log names replaced by LOG.
func auditText(t *testing.T, robots string, logs ...string) (int, string, string) {
	t.Helper()
	args := []string{"audit", "--robots", robots}
	for _, l := range logs {
		args = append(args, "--log", l)
	}
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), args, &stdout, &stderr)
	text := stdout.String()
	for _, l := range logs {
		text = strings.ReplaceAll(text, l, "LOG")
	}
	return code, text, stderr.String()
}

// The log issue 21 found read as "2 lines, 0 requests" when gzipped gives
// the verdicts of its plain copy, whatever its name; bzip2 too.
func TestAuditCompressedLogs(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nAllow: /\n"), 0o644)
	plain, err := os.ReadFile("../../accesslog/testdata/access.log")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	gzName := filepath.Join(dir, "access.log.2") // rotated, suffix lost
	os.WriteFile(gzName, gz.Bytes(), 0o644)
	code, want, _ := auditText(t, robots, "../../accesslog/testdata/access.log")
	if code != exitFail || !strings.Contains(want, "6 requests") {
		t.Fatalf("plain log: exit %d\n%s", code, want)
	}
	for _, name := range []string{gzName, "../../accesslog/testdata/access.log.bz2"} {
		code, got, stderr := auditText(t, robots, name)
		if diff := cmp.Diff(want, got); diff != "" || code != exitFail {
			t.Errorf("%s: exit %d (stderr %s), text (-plain +compressed):\n%s", name, code, stderr, diff)
		}
	}
}

// Several logs and globs are judged together, in time order: the same
// log split in two files, named in either order, judges alike.
func TestAuditSeveralLogs(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /go/\n"), 0o644)
	plain, _ := os.ReadFile("../../accesslog/testdata/access.log")
	lines := strings.SplitAfter(string(plain), "\n")
	// YandexBot's 503 in b.log, its next request in a.log: read one file
	// after the other, the request would come before the fetch.
	var a, b strings.Builder
	for i, l := range lines {
		if i == 2 || i > 3 {
			b.WriteString(l)
		} else {
			a.WriteString(l)
		}
	}
	os.WriteFile(filepath.Join(dir, "a.log"), []byte(a.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "b.log"), []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "whole.log"), plain, 0o644)
	_, whole, _ := auditText(t, robots, filepath.Join(dir, "whole.log"))
	code, glob, stderr := auditText(t, robots, filepath.Join(dir, "[ab].log"))
	if code != exitFail || !strings.Contains(glob, "6 requests") || !strings.Contains(glob, "ACC-7") {
		t.Errorf("glob: exit %d, stderr %s\n%s", code, stderr, glob)
	}
	// The text names the files of the quoted lines; the verdicts must agree.
	counts := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, " requests, ") {
				out = append(out, l)
			}
		}
		return out
	}
	if diff := cmp.Diff(counts(whole), counts(glob)); diff != "" {
		t.Errorf("split logs judge otherwise (-whole +split):\n%s", diff)
	}
	if code, _, stderr := auditText(t, robots, filepath.Join(dir, "*.nothing")); code != exitUsage || !strings.Contains(stderr, "matches no file") {
		t.Errorf("a glob matching nothing: exit %d, %s", code, stderr)
	}
}

// A run that judged nothing, or read mostly junk, exits 2 with the
// reason; never 0.
func TestAuditJudgedNothing(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /go/\n"), 0o644)
	junk := filepath.Join(dir, "junk.log")
	os.WriteFile(junk, []byte("\x00\x01binary\nnot a log\n"+`1.2.3.4 - - [06/Oct/2026:01:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "FooBot"`+"\n"), 0o644)
	browsers := filepath.Join(dir, "browsers.log")
	os.WriteFile(browsers, []byte(`1.2.3.4 - - [06/Oct/2026:01:00:00 +0000] "GET /go/x HTTP/1.1" 200 1 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"`+"\n"), 0o644)
	empty := filepath.Join(dir, "empty.log")
	os.WriteFile(empty, nil, 0o644)
	for name, want := range map[string]string{junk: "2 of 3 lines are malformed", browsers: "no request was judged (1 lines, 1 requests, 1 of browsers", empty: "no request was judged (0 lines"} {
		code, _, stderr := auditText(t, robots, name)
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", filepath.Base(name), code, stderr, want)
		}
	}
}

// The JSON lists every judged request with how it was judged; --requests
// writes the same records as JSON lines instead.
func TestAuditRequestList(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nAllow: /\n"), 0o644)
	log := "../../accesslog/testdata/access.log"
	out, lines := filepath.Join(dir, "a.json"), filepath.Join(dir, "req.jsonl")
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"audit", "--robots", robots, "--log", log, "--json", out, "--quiet"}, &stdout, &stderr); code != exitFail {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	type record struct {
		Time        string
		Agent, Tier string
		URL         string
		Requirement string
		Rule        *struct {
			Line int
			Rule string
		}
		Version string `json:"robots_version"`
		Copy    string
		Client  string
		Count   int
	}
	var doc struct {
		Audit struct {
			Judged       []record
			RequestsFile string `json:"requests_file"`
			Browsers     int
		}
	}
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range doc.Audit.Judged {
		rule := ""
		if r.Rule != nil {
			rule = fmt.Sprintf("%s line %d", r.Rule.Rule, r.Rule.Line)
		}
		got = append(got, fmt.Sprintf("%s %s %s %s %s [%s] copy %q from %s ×%d", r.Time, r.Agent, r.URL, r.Tier, r.Requirement, rule, r.Copy, r.Client, r.Count))
	}
	robotsName := robots + " (answered 200)"
	want := []string{
		"2026-10-06T01:00:00Z googlebot /robots.txt robots  [] copy \"\" from 66.249.66.1 ×1",
		"2026-10-06T02:00:00Z googlebot /go/a allowed  [Allow: / line 5] copy \"" + robotsName + "\" from 66.249.66.1 ×1",
		"2026-10-06T02:30:00Z * /robots.txt robots  [] copy \"\" from 5.255.253.1 ×1",
		"2026-10-06T02:31:00Z * /shop violation ACC-7 [] copy \"" + robots + " (answered 503)\" from 5.255.253.1 ×1",
		"2026-10-06T04:00:00Z googlebot /go/c allowed  [Allow: / line 5] copy \"" + robotsName + "\" from 66.249.66.1 ×1",
	}
	if diff := cmp.Diff(want, got); diff != "" || doc.Audit.Browsers != 1 {
		t.Errorf("judged (-want +got):\n%s; browsers %d", diff, doc.Audit.Browsers)
	}
	stdout.Reset()
	if code := dispatch(context.Background(), []string{"audit", "--robots", robots, "--log", log, "--json", out, "--requests", lines, "--quiet"}, &stdout, &stderr); code != exitFail {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, _ = os.ReadFile(out)
	doc.Audit.Judged = nil
	json.Unmarshal(data, &doc)
	jl, _ := os.ReadFile(lines)
	var fromLines []record
	for _, l := range strings.Split(strings.TrimSpace(string(jl)), "\n") {
		var r record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		fromLines = append(fromLines, r)
	}
	if len(doc.Audit.Judged) != 0 || doc.Audit.RequestsFile != lines || len(fromLines) != len(want) || fromLines[3].Requirement != "ACC-7" {
		t.Errorf("with --requests: %d listed in the JSON (want 0), file %q, %d lines: %+v", len(doc.Audit.Judged), doc.Audit.RequestsFile, len(fromLines), fromLines)
	}
}

// JUnit shows each agent's verified and claimed requests as the text does
// (the counts the audit recorded), and says when nothing is verified.
func TestAuditVerifiedInJUnit(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nDisallow: /private/\n"), 0o644)
	plain, err := os.ReadFile("../../accesslog/testdata/access.log")
	if err != nil {
		t.Fatal(err)
	}
	// A scraper sending Googlebot's User-Agent from outside its ranges.
	spoof := `203.0.113.9 - - [06/Oct/2026:05:00:00 +0000] "GET /private/a HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"` + "\n"
	log := filepath.Join(dir, "access.log")
	os.WriteFile(log, append(plain, spoof...), 0o644)
	type suite struct {
		Name  string `xml:"name,attr"`
		Props []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Out string `xml:"system-out"`
	}
	run := func(extra ...string) (text string, suites []suite) {
		t.Helper()
		junit := filepath.Join(dir, "audit.xml")
		var stdout, stderr bytes.Buffer
		args := append([]string{"audit", "--robots", robots, "--log", log, "--junit", junit}, extra...)
		if code := dispatch(context.Background(), args, &stdout, &stderr); code != exitFail {
			t.Fatalf("%v: exit %d; want %d (the scraper's violation)\n%s", extra, code, exitFail, stderr.String())
		}
		b, err := os.ReadFile(junit)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Suites []suite `xml:"testsuite"`
		}
		if err := xml.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		return stdout.String(), doc.Suites
	}
	text, suites := run("--verified-ranges", "../../accesslog/testdata/googlebot-ranges.json")
	got := map[string]string{}
	for _, s := range suites {
		for _, p := range s.Props {
			if p.Name == "verified" || p.Name == "claimed" {
				got[s.Name+" "+p.Name] = p.Value
				// The same counts as the text's, line for line.
				if !strings.Contains(text, "\n  "+p.Name+": "+p.Value+"\n") {
					t.Errorf("%s: JUnit's %s %q is not the text's:\n%s", s.Name, p.Name, p.Value, text)
				}
			}
		}
	}
	if want := "1 requests, 0 robots.txt fetches, 0 allowed, 0 within grace, 0 uncertain, 1 violations"; got["googlebot claimed"] != want ||
		!strings.HasPrefix(got["googlebot verified"], "3 requests,") || len(got) != 4 {
		t.Errorf("properties %q; want googlebot's 3 verified requests and the scraper's %q claimed, for * and googlebot", got, want)
	}
	text, suites = run()
	if !strings.Contains(text, "no request is verified") {
		t.Errorf("text without ranges does not say that nothing is verified:\n%s", text)
	}
	for _, s := range suites {
		if !strings.HasPrefix(s.Out, "No request is verified: no --verified-ranges file was given") {
			t.Errorf("suite %s without ranges: system-out %q", s.Name, s.Out)
		}
	}
}
