package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// list escapes terminal controls from case files, exits 2 for an empty
// selection as run does, and prints JSON with --json.
func TestListCommand(t *testing.T) {
	hostile := strings.NewReplacer("t/one", `"t/\e]0;pwned\a"`, "req: [MATCH-1]", "req: [MATCH-1]\n    title: \"\\u202Eevil \\e[2J\\0\"").Replace(goodCase)
	dir := writeCorpus(t, map[string]string{"a.yaml": hostile})
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"list", "--corpus", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("list: exit %d\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, bad := range []string{"\x1b", "\a", "\u202E", "\x00"} {
		if strings.Contains(out, bad) {
			t.Errorf("list wrote %q raw:\n%s", bad, out)
		}
	}
	for _, want := range []string{`t/\x1b]0;pwned\a`, `\u202eevil \x1b[2J\x00`} {
		if !strings.Contains(out, want) {
			t.Errorf("list output lacks %q:\n%s", want, out)
		}
	}

	stdout.Reset()
	stderr.Reset()
	if code := dispatch(context.Background(), []string{"list", "--corpus", dir, "--run", "nonexist*"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no case matches") {
		t.Errorf("list of an empty selection: exit %d, stderr %q; want 2 and a message", code, stderr.String())
	}

	stdout.Reset()
	if code := dispatch(context.Background(), []string{"list", "--json", "--level", "must", "--run", "MATCH-4"}, &stdout, &stderr); code != 0 {
		t.Fatalf("list --json: exit %d\n%s", code, stderr.String())
	}
	var l struct {
		Cases []struct {
			ID, Level string
			Checks    int
		}
		Coverage []struct {
			ID    string
			Cases int
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &l); err != nil {
		t.Fatalf("list --json: %v\n%s", err, stdout.String())
	}
	if len(l.Cases) == 0 || len(l.Coverage) == 0 {
		t.Fatalf("list --json has %d cases and %d requirements", len(l.Cases), len(l.Coverage))
	}
	for _, c := range l.Cases {
		if c.Level != "MUST" || c.Checks == 0 {
			t.Errorf("case %+v: want a MUST case with checks", c)
		}
	}
}

// Loader errors escape non-UTF-8 file names and terminal controls.
func TestLoadErrorEscapesFileName(t *testing.T) {
	dir := t.TempDir()
	name := "bad\xff\x1b[31m.yaml"
	if err := os.WriteFile(filepath.Join(dir, name), []byte("cases: [\n"), 0o644); err != nil {
		t.Skip("this file system refuses the name:", err)
	}
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"list", "--corpus", dir}, &stdout, &stderr); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if got := stderr.String(); strings.ContainsAny(got, "\x1b\xff") || !strings.Contains(got, `bad\xff\x1b[31m.yaml`) {
		t.Errorf("stderr %q: want the name escaped", got)
	}
}

// Both the embedded corpus and a folder load with --with-embedded; ids
// stay unique across them.
func TestWithEmbedded(t *testing.T) {
	dir := writeCorpus(t, map[string]string{"a.yaml": goodCase})
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"list", "--json", "--corpus", dir, "--with-embedded"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	var l struct {
		Cases  []struct{ ID string }
		Loaded int
	}
	if err := json.Unmarshal(stdout.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, c := range l.Cases {
		ids[c.ID] = true
	}
	if !ids["t/one"] || len(ids) < 100 {
		t.Errorf("loaded %d cases (t/one: %v); want the embedded corpus and t/one", len(ids), ids["t/one"])
	}
	embeddedID := ""
	for id := range ids {
		if id != "t/one" {
			embeddedID = id
			break
		}
	}
	clash := writeCorpus(t, map[string]string{"a.yaml": strings.Replace(goodCase, "t/one", embeddedID, 1)})
	stderr.Reset()
	if code := dispatch(context.Background(), []string{"list", "--corpus", clash, "--with-embedded"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "duplicate id") {
		t.Errorf("an id of the embedded corpus again: exit %d, stderr %q; want 2 and duplicate id", code, stderr.String())
	}
}
