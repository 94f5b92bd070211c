package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/result"
)

// runJSON runs "reptest run" over goodCase with args and returns the exit
// status, stderr and the summaries and results of the JSON written.
func runJSON(t *testing.T, args ...string) (int, string, []result.Summary, []result.Result) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(goodCase), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), append([]string{"run", "--corpus", dir, "--json", out, "--timeout", "4s"}, args...), &stdout, &stderr)
	var doc struct {
		Parsers []result.Summary `json:"parsers"`
		Results []result.Result  `json:"results"`
	}
	if b, err := os.ReadFile(out); err == nil {
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
	}
	return code, stderr.String(), doc.Parsers, doc.Results
}

// An --exec program that exits before its hello is that parser's error:
// the run goes on, the other parsers' results are kept and the JSON is
// written.
func TestRunExecDiesBeforeHello(t *testing.T) {
	code, stderr, sums, results := runJSON(t, "--parser", "reference", "--exec", "echo no library >&2; exit 3")
	if code != 1 {
		t.Errorf("exit status %d, want 1\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "exec: --exec \"echo no library >&2; exit 3\" did not start") {
		t.Errorf("stderr does not say the program did not start:\n%s", stderr)
	}
	got := map[string]result.Outcome{}
	for _, r := range results {
		got[r.Parser] = r.Outcome
		if r.Parser == "exec" && !strings.Contains(r.Detail, "no library") {
			t.Errorf("the error does not quote the program's stderr: %q", r.Detail)
		}
	}
	if diff := cmp.Diff(map[string]result.Outcome{"reference": result.Pass, "exec": result.Error}, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	for _, s := range sums {
		if s.Name == "exec" && s.Conforms {
			t.Error("the program that did not start conforms")
		}
	}
}

// --name names the --exec or --command after it; bad or dangling names
// are usage errors.
func TestRunNames(t *testing.T) {
	code, stderr, sums, _ := runJSON(t, "--name", "yes", "--command", "true %robots%", "--command", "false %robots%", "--name", "no", "--command", "false %robots%")
	if code != 1 {
		t.Errorf("exit status %d, want 1 (yes allows a disallowed URL)\n%s", code, stderr)
	}
	var names []string
	for _, s := range sums {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"yes", "command", "no"}, names); diff != "" {
		t.Errorf("parser names (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--name", "a=b", "--command", "true"}, `contains '='`},
		{[]string{"--name", "a\x1b[31m", "--command", "true"}, `control character`},
		{[]string{"--command", "true", "--name", "late"}, `--name "late" is not followed by --exec or --command`},
		{[]string{"--name", "x", "--name", "y", "--command", "true"}, `--name "x" is not followed`},
		{[]string{"--parser", "reference", "--name", "reference", "--command", "true"}, `--name reference is taken`},
	} {
		code, stderr, _, _ := runJSON(t, tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit status %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// rejectingPeer is a protocol program in sh that rejects every file,
// saying why.
const rejectingPeer = `read hello; echo '{"name":"sh-peer","capabilities":["parse"]}'; ` +
	`while read line; do id=$(echo "$line" | sed -n 's/^{"id":"\([0-9]*\)".*/\1/p'); ` +
	`echo "{\"id\":\"$id\",\"verdict\":\"reject\",\"detail\":\"line 1: nope\"}"; done`

// The protocol's detail is recorded with the result and shown by -v.
func TestRunParserDetail(t *testing.T) {
	code, stderr, _, results := runJSON(t, "--exec", rejectingPeer)
	if code != 1 {
		t.Errorf("exit status %d, want 1\n%s", code, stderr)
	}
	if len(results) != 1 || results[0].Verdict != result.Reject || results[0].ParserDetail != "line 1: nope" {
		t.Errorf("results %+v; want one reject with the parser's detail", results)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(goodCase), 0o644)
	var stdout, errb bytes.Buffer
	dispatch(context.Background(), []string{"run", "--corpus", dir, "-v", "--exec", rejectingPeer}, &stdout, &errb)
	if !strings.Contains(stdout.String(), "the parser says: line 1: nope") {
		t.Errorf("-v does not show the parser's detail:\n%s", stdout.String())
	}
}

// diff --timeout bounds the Go libraries too: temoto stuck on a check
// (its time grows with the cube of the "*" of a rule that fails to match a
// long path) is recorded as an error of that check, within the timeout.
func TestDiffTimeoutBoundsLibraries(t *testing.T) {
	dir := t.TempDir()
	body := "User-agent: *\\nDisallow: /" + strings.Repeat("*a", 3000) + "b\\n"
	yaml := "cases:\n  - id: t/slow\n    req: [MATCH-1]\n    robots: \"" + body + "\"\n    checks:\n" +
		"      - {agent: FooBot, url: /" + strings.Repeat("a", 12000) + ", expect: allow}\n"
	if err := os.WriteFile(filepath.Join(dir, "slow.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "findings.jsonl")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"diff", "--parser", "reference", "--parser", "temoto", "--corpus", dir,
		"--timeout", "1s", "--no-minimize", "--quiet", "--json", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit status %d\n%s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `temoto=error`) {
		t.Errorf("no finding records temoto's timeout as an error:\n%.500s", b)
	}
}
