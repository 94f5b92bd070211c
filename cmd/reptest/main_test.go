package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const goodCase = `cases:
  - id: t/one
    req: [MATCH-1]
    robots: "User-agent: *\nDisallow: /a\n"
    checks:
      - {agent: FooBot, url: /a, expect: disallow}
`

// A malformed corpus gets one clear error line per problem, naming
// file:line:col, and exit status 2, before anything runs.
func TestRunMalformedCorpus(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // a regular expression for the one error line
	}{
		{"unknown-key", map[string]string{"a.yaml": strings.Replace(goodCase, "expect: disallow}", "expect: disallow, colour: red}", 1)},
			`^.*a\.yaml:6:52: unknown key "colour"`},
		{"bad-base64", map[string]string{"a.yaml": strings.Replace(goodCase, `robots: "User-agent: *\nDisallow: /a\n"`, "robots_base64: '###'", 1)},
			`^.*a\.yaml:4:20: .*base64`},
		{"duplicate-id", map[string]string{"a.yaml": goodCase, "b.yaml": goodCase},
			`^.*b\.yaml:2:9: duplicate id "t/one" \(first at .*a\.yaml:2:9\)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			code := dispatch(context.Background(), []string{"run", "--corpus", dir}, &stdout, &stderr)
			if code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
			if len(lines) != 1 || !regexp.MustCompile(tt.want).MatchString(lines[0]) {
				t.Errorf("stderr:\n%s\nwant one line matching %s", stderr.String(), tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("something ran: %s", stdout.String())
			}
		})
	}
}

// The reference conforms on the embedded corpus, in both profiles.
func TestRunEmbedded(t *testing.T) {
	for _, profile := range []string{"rfc9309", "google"} {
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), []string{"run", "--profile", profile}, &stdout, &stderr)
		if code != 0 {
			t.Errorf("profile %s: exit status %d, want 0\n%s%s", profile, code, stdout.String(), stderr.String())
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "robots.txt")
	os.WriteFile(f, []byte("User-agent: *\nDisallow: /*.pdf$\n"), 0o644)
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"check", "--robots", f, "--agent", "FooBot", "https://e.com/a.pdf", "https://e.com/a.pdf?x"}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a URL is disallowed): %s", code, stderr.String())
	}
	want := "https://e.com/a.pdf\tdisallow \"/a.pdf\": line 2 disallow: /*.pdf$ (length 7); group \"*\" at lines [1]\n" +
		"https://e.com/a.pdf?x\tallow \"/a.pdf?x\": no matching rule; group \"*\" at lines [1]\n"
	if stdout.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), want)
	}
	stdout.Reset()
	code = dispatch(context.Background(), []string{"check", "--robots", f, "--agent", "Foo/1", "https://e.com/"}, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "product token Foo") {
		t.Errorf("a User-Agent header: exit %d, stdout %q; want 0 and the product token it names", code, stdout.String())
	}
}

// Parsers keep distinct names in the results, and a run that selects no
// case is a usage error rather than a vacuous pass.
func TestRunParserNamesAndEmptySelection(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(goodCase), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"run", "--corpus", dir, "--quiet", "--json", out,
		"--command", "true %robots% %url% %user-agent%", "--command", "false %robots% %url% %user-agent%"}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (the first command allows what must be disallowed)\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Parsers []struct {
			Name   string `json:"name"`
			Checks int    `json:"checks"`
		} `json:"parsers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	type parser struct {
		Name   string
		Checks int
	}
	var got []parser
	for _, p := range doc.Parsers {
		got = append(got, parser{p.Name, p.Checks})
	}
	if diff := cmp.Diff([]parser{{"command", 1}, {"command-2", 1}}, got); diff != "" {
		t.Errorf("parsers (-want +got):\n%s", diff)
	}

	for _, args := range [][]string{
		{"run", "--corpus", dir, "--parser", "reference", "--parser", "reference"},
		{"run", "--corpus", dir, "--run", "no/such/case"},
		{"run", "--corpus", dir, "--profile", "google"},
		{"run", "--corpus", dir, "--timeout", "0s"},
	} {
		stderr.Reset()
		if code := dispatch(context.Background(), args, &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%q: exit status %d, stderr %q; want 2 and a message", args, code, stderr.String())
		}
	}
	stderr.Reset()
	dispatch(context.Background(), []string{"run", "--corpus", dir, "--profile", "google"}, &stdout, &stderr)
	if !strings.Contains(stderr.String(), "--profile rfc9309") {
		t.Errorf("stderr %q does not point to --profile rfc9309", stderr.String())
	}
}

// Every command answers -h with status 0 and takes its flags before or
// after its arguments.
func TestHelpAndFlagOrder(t *testing.T) {
	for _, cmd := range []string{"run", "list", "check", "diff", "promote", "report", "matrix"} {
		var stdout, stderr bytes.Buffer
		if code := dispatch(context.Background(), []string{cmd, "-h"}, &stdout, &stderr); code != 0 || stderr.Len() == 0 {
			t.Errorf("%s -h: exit status %d, %d bytes of help; want 0 and the help", cmd, code, stderr.Len())
		}
	}
	f := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(f, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"check", "https://e.com/x", "--robots", f, "--agent", "FooBot"}, &stdout, &stderr)
	if code != 1 || !strings.HasPrefix(stdout.String(), "https://e.com/x\tdisallow") { // 1: disallowed
		t.Errorf("check with flags after the URL: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	for _, args := range [][]string{{"list", "extra"}, {"list", "--profile", "nope"}} {
		stderr.Reset()
		if code := dispatch(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit status %d, want 2", args, code)
		}
	}
}
