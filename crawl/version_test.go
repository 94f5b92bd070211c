package crawl_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reptest/reptest/crawl"
)

func TestVersion(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "mycrawler")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n[ \"$1\" = --version ] || exit 2\necho 'mycrawler 2.0 (built today)'\necho more\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, template, command, want, err string
	}{
		{"the template's program answers --version", script + " -x {url}", "", "mycrawler 2.0 (built today)", ""},
		{"a command: its first non-blank line, trimmed", "wget {url}", `sh -c 'printf "\n  tool 1.0 \nmore\n"'`, "tool 1.0", ""},
		{"a command on standard error", "wget {url}", `sh -c 'echo tool 3 >&2'`, "tool 3", ""},
		{"an interpreter names itself: unknown", "python3 spider.py {url}", "", "", ""},
		{"a program that is not there: unknown", "/nonexistent/crawler {url}", "", "", ""},
		{"a command that fails is an error", "wget {url}", "sh -c 'exit 3'", "", "exit status 3"},
		{"a command that prints nothing is an error", "wget {url}", "true", "", "printed nothing"},
		{"a command that cannot be split is an error", "wget {url}", "sh -c 'x", "", "unterminated"},
	} {
		c := &crawl.Crawler{Template: tc.template}
		got, err := c.Version(context.Background(), tc.command)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: error %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.err)
		case got != tc.want:
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
