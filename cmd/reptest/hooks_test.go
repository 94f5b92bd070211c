package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The pre-commit hook of .pre-commit-hooks.yaml runs as pre-commit runs
// it: its entry with the changed robots.txt files appended, failing on a
// named group that drops the * rules and passing a clean file.
func TestPreCommitHook(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Entry, Language, Files string
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil || len(hooks) != 1 {
		t.Fatalf("hooks %+v: %v", hooks, err)
	}
	h := hooks[0]
	if h.Language != "golang" {
		t.Errorf("language %q, want golang (pre-commit builds the hook with go install)", h.Language)
	}
	files := regexp.MustCompile(h.Files)
	for name, want := range map[string]bool{"robots.txt": true, "public/robots.txt": true, "robots.txt.bak": false, "myrobots.txt": false} {
		if files.MatchString(name) != want {
			t.Errorf("files %q matches %q: %v, want %v", h.Files, name, !want, want)
		}
	}
	entry := strings.Fields(h.Entry)
	if entry[0] != "reptest" {
		t.Fatalf("entry %q does not run reptest", h.Entry)
	}
	bad := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nAllow: /\n")
	clean := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /go/\n")
	for _, tc := range []struct {
		files []string
		code  int
	}{{[]string{clean}, exitOK}, {[]string{clean, bad}, exitFail}} {
		var stdout, stderr bytes.Buffer
		if code := dispatch(context.Background(), append(entry[1:], tc.files...), &stdout, &stderr); code != tc.code {
			t.Errorf("%s %v: exit %d, want %d\n%s%s", h.Entry, tc.files, code, tc.code, stdout.String(), stderr.String())
		}
	}
}

// The action's run step (action.yml), run by bash as a runner runs it:
// mode lint expands the globs of robots (** too), shows every file and
// fails on the named-group mistake; a glob matching nothing is an error.
func TestActionRunStep(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found (Debian package bash)")
	}
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []struct{ ID, Run string }
		}
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	var script string
	for _, s := range action.Runs.Steps {
		if s.ID == "run" {
			script = s.Run
		}
	}
	if script == "" {
		t.Fatal("action.yml has no step with id run")
	}
	tmp, site := t.TempDir(), t.TempDir()
	// The step runs $RUNNER_TEMP/reptest: this test binary, as reptest.
	wrapper := "#!/bin/sh\nREPTEST_TEST_MAIN=1 exec " + os.Args[0] + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(tmp, "reptest"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"public/robots.txt":   "User-agent: *\nDisallow: /go/\n",
		"shop/en/robots.txt":  "User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nAllow: /\n",
		"shop/en/notes.txt":   "not a robots.txt",
		"staging/robots.txt~": "User-agent: *\nDisallow: /\n",
	} {
		os.MkdirAll(filepath.Join(site, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(site, name), []byte(body), 0o644)
	}
	for _, tc := range []struct {
		mode, robots string
		code         int
		out          []string
	}{
		{"lint", "**/robots.txt", 1, []string{"== public/robots.txt", "== shop/en/robots.txt", "star-rules-not-inherited"}},
		{"lint", "public/robots.txt", 0, []string{"No warnings."}},
		{"lint", "nothing/*.txt", 2, []string{"nothing/*.txt: no such file"}},
		{"parser", "", 2, []string{"mode parser needs parser-command"}},
	} {
		cmd := exec.CommandContext(t.Context(), bash, "-c", script)
		cmd.Dir = site
		cmd.Env = append(os.Environ(), "RUNNER_TEMP="+tmp, "GITHUB_OUTPUT="+filepath.Join(tmp, "output"), "MODE="+tc.mode, "ROBOTS="+tc.robots,
			"FAIL_ON=warn", "PARSER_COMMAND=", "CRAWLER_COMMAND=", "PROFILE=rfc9309", "EXPECT=", "ARGS=", "REPORT_DIR="+filepath.Join(tmp, "reports"))
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code {
			t.Errorf("%s %q: exit %d, want %d\n%s", tc.mode, tc.robots, code, tc.code, out)
		}
		for _, w := range tc.out {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s %q: output lacks %q:\n%s", tc.mode, tc.robots, w, out)
			}
		}
	}
}
