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

// check exits by verdict (0 every URL allowed, 1 one disallowed) and takes
// a whole User-Agent header, judged as the product token the file names.
func TestCheckExitAndHeader(t *testing.T) {
	f := filepath.Join(t.TempDir(), "robots.txt")
	body := "User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /g\n"
	if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	const header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, tt := range []struct {
		agent string
		urls  []string
		code  int
		want  string
	}{
		{"FooBot", []string{"/a"}, 0, "/a\tallow"},
		{"FooBot", []string{"/a", "/private/x"}, 1, "/private/x\tdisallow"},
		{header, []string{"/private/x"}, 0, "judged as the product token Googlebot"},
		{header, []string{"/g"}, 1, "/g\tdisallow"},
		{"Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", []string{"/private"}, 1, "judged as the product token Mozilla"},
		// A bot the file does not name: its own token, after "compatible;".
		{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", []string{"/private"}, 1, "judged as the product token YandexBot"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"check", "--robots", f, "--agent", tt.agent}, tt.urls...)
		code := dispatch(context.Background(), args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stdout.String(), tt.want) {
			t.Errorf("check --agent %q %v: exit %d, stdout %q, stderr %q; want %d and %q", tt.agent, tt.urls, code, stdout.String(), stderr.String(), tt.code, tt.want)
		}
	}
}
