package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check says what is missing, refuses a URL that does not parse, and caps
// what it reads as stdin and matrix do.
func TestCheckErrors(t *testing.T) {
	f := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(f, []byte("User-agent: *\nDisallow: /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--agent", "FooBot", "https://e.com/"}, "missing --robots FILE"},
		{[]string{"--robots", f, "https://e.com/"}, "missing --agent TOKEN"},
		{[]string{"--robots", f, "--agent", "FooBot"}, "missing a URL"},
		{[]string{"--robots", f, "--agent", "FooBot", "http://[::1"}, `http://[::1: missing ']' in host`},
		{[]string{"--robots", f, "--agent", "FooBot", "e.com/a"}, "want an absolute URL"},
		{[]string{"--robots", "/dev/zero", "--agent", "FooBot", "https://e.com/"}, "/dev/zero is larger than"},
	} {
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), append([]string{"check"}, tt.args...), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("check %q: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
		if strings.Contains(stdout.String(), "allow") {
			t.Errorf("check %q answered %q", tt.args, stdout.String())
		}
	}
}

func TestVersionHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"version", "-h"}, &stdout, &stderr); code != 0 {
		t.Errorf("version -h: exit %d, want 0", code)
	}
	if code := dispatch(context.Background(), []string{"version", "x"}, &stdout, &stderr); code != 2 {
		t.Errorf("version x: exit %d, want 2", code)
	}
}
