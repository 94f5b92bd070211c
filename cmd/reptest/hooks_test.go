package main

import (
	"bytes"
	"context"
	"os"
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
