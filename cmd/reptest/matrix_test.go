package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMatrixCommand(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 13; i++ {
		fmt.Fprintf(&b, "User-agent: Bot%c\nAllow: /\n\n", 'A'+i)
	}
	b.WriteString("User-agent: *\nDisallow: /go/\n")
	file := writeTemp(t, "robots.txt", b.String())
	clean := writeTemp(t, "clean.txt", "User-agent: *\nDisallow: /private/\n")

	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"fail on warn", []string{file, "--fail-on", "warn"}, 1, []string{"BotA                   allow 2        allow 2", "13 warnings", `add "Disallow: /go/" (the * group's line 41) to the 13 groups that lack it: BotA (line 1)`}},
		{"warnings only", []string{file}, 0, []string{"13 warnings"}},
		{"chosen agents and paths", []string{"--agent", "BotC", file, "--path", "/go/x", "--agent", "Other"}, 0, []string{"BotC             allow 8", "Other            DISALLOW 41", "1 warning"}},
		{"bad agent", []string{file, "--agent", "Bot C"}, 2, nil},
		{"bad profile", []string{file, "--profile", "bing"}, 2, nil},
		{"bad fail-on", []string{file, "--fail-on", "error"}, 2, nil},
		{"no file", []string{"--agent", "A"}, 2, nil},
		{"missing file", []string{filepath.Join(t.TempDir(), "nope.txt")}, 2, nil},
		// A pre-commit hook passes every changed robots.txt at once.
		{"several files, one warns", []string{clean, "--fail-on", "warn", file}, 1, []string{"== " + clean, "== " + file, "13 warnings"}},
		{"several files, none warns", []string{clean, "--fail-on", "warn", clean}, 0, []string{"== " + clean}},
		{"json takes one file", []string{"--json", clean, file}, 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := dispatch(context.Background(), append([]string{"matrix"}, tc.args...), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, stdout.String())
				}
			}
		})
	}

	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"matrix", "--json", file}, &stdout, &stderr); code != 0 {
		t.Fatalf("--json: exit %d: %s", code, stderr.String())
	}
	var m struct {
		Agents   []string
		Warnings []struct{ Kind string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil {
		t.Fatalf("--json output: %v", err)
	}
	if len(m.Agents) != 14 || len(m.Warnings) != 13 {
		t.Errorf("JSON: %d agents, %d warnings; want 14, 13", len(m.Agents), len(m.Warnings))
	}
}
