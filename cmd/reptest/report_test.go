package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// shardFile writes a results document holding one check per case id.
func shardFile(t *testing.T, dir, name string, outcomes map[string]result.Outcome) string {
	t.Helper()
	var rs []result.Result
	for id, o := range outcomes {
		v := result.Disallow
		if o != result.Pass {
			v = result.Allow
		}
		rs = append(rs, result.Result{Case: id, Parser: "mybot", Agent: "FooBot", URL: "https://example.com/x",
			Expect: result.Disallow, Verdict: v, Outcome: o, Level: result.MUST, Req: []string{"UA-4"}})
	}
	d := cases.NewDocument(result.Meta{Version: "0.1.0", Profile: result.ProfileRFC}, []result.Summary{{Name: "mybot", Version: "1"}}, rs, nil)
	var buf bytes.Buffer
	if err := d.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	a := shardFile(t, dir, "a.json", map[string]result.Outcome{"ua/one": result.Pass, "ua/two": result.Violation})
	b := shardFile(t, dir, "b.json", map[string]result.Outcome{"ua/three": result.Pass})
	expect := writeTemp(t, "expect.yaml", "mybot:\n  - case: ua/two\n    reason: known bug\n    link: https://example.com/bug/1\n")
	html := filepath.Join(dir, "out.html")
	junit := filepath.Join(dir, "out.xml")
	merged := filepath.Join(dir, "merged.json")
	badges := filepath.Join(dir, "badges")

	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), append([]string{"report"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	code, out, errs := run(a, "--html", html, b, "--junit", junit, "--badge", badges, "--merge-out", merged)
	if code != 1 {
		t.Errorf("nonconforming results: exit %d, want 1; stderr %s", code, errs)
	}
	if !strings.Contains(out, "mybot   1                 3      2     0     0     1     0     0  NO") {
		t.Errorf("summary of the merged shards:\n%s", out)
	}
	for _, p := range []string{html, junit, merged, filepath.Join(badges, "mybot.json")} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", p, err)
		}
	}
	xmlBytes, _ := os.ReadFile(junit)
	var js struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(xmlBytes, &js); err != nil || js.Tests != 3 || js.Failures != 1 {
		t.Errorf("JUnit: %+v, %v", js, err)
	}
	if d := readDoc(t, merged); len(d.Results) != 3 {
		t.Fatalf("merged JSON: %d results, want 3", len(d.Results))
	}

	// The known failure is forgiven: exit 0.
	if code, out, errs := run(merged, "--expect", expect, "-v"); code != 0 {
		t.Errorf("with --expect: exit %d, want 0\n%s%s", code, out, errs)
	} else if !strings.Contains(out, "expected failure: known bug https://example.com/bug/1") {
		t.Errorf("verbose output does not flag the expected failure:\n%s", out)
	}

	// Conflicting shards are a load error.
	c := shardFile(t, dir, "c.json", map[string]result.Outcome{"ua/one": result.Violation})
	if code, _, errs := run(a, c); code != 2 || !strings.Contains(errs, "conflicts between shards") {
		t.Errorf("conflicting shards: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := run(); code != 2 {
		t.Errorf("no files: exit %d, want 2", code)
	}
	if code, _, errs := run("--findings", filepath.Join(dir, "f.jsonl"), "--html", html); code != 2 || !strings.HasPrefix(errs, "reptest report: no results file given") {
		t.Errorf("findings without results: exit %d, stderr %q, want a reason before the usage", code, errs)
	}
	bad := writeTemp(t, "bad.json", `{"tool":"other"}`)
	if code, _, errs := run(bad); code != 2 || !strings.Contains(errs, "not a reptest results document") {
		t.Errorf("bad file: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := run(b, "--quiet"); code != 0 {
		t.Errorf("conforming results: exit %d, want 0", code)
	}
}

func TestParseInterleaved(t *testing.T) {
	fs := newFlags("x", &bytes.Buffer{})
	h := fs.String("html", "", "")
	v := fs.Bool("v", false, "")
	pos, err := parseInterleaved(fs, []string{"a.json", "--html", "o.html", "b.json", "-v", "--", "--c.json"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pos, " ") != "a.json b.json --c.json" || *h != "o.html" || !*v {
		t.Errorf("pos %q html %q v %v", pos, *h, *v)
	}
}
