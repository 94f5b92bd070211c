package parsers

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// helperTemplate is a command template that runs the helper as a
// one-check-per-process parser.
func helperTemplate(t testing.TB) string {
	return helperCommandTemplateFor(t, "%robots% %url% %user-agent%")
}

func helperCommandTemplateFor(t testing.TB, args string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return shellQuote(exe) + " -test.run=^TestHelperProcess$ -- " + args
}

func TestCommandVerdicts(t *testing.T) {
	env := []string{helperEnv + "=cmd"}
	exit, err := NewCommand(helperTemplate(t), CommandOptions{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	// A short timeout, for the check that hangs only: on a busy machine
	// starting the helper can take a while.
	short, err := NewCommand(helperTemplate(t), CommandOptions{Timeout: 700 * time.Millisecond, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	byAllowed, err := NewCommand(helperTemplate(t), CommandOptions{Env: env, AllowedPattern: `verdict: ALLOWED\b`})
	if err != nil {
		t.Fatal(err)
	}
	byDisallowed, err := NewCommand(helperTemplate(t), CommandOptions{Env: env, DisallowedPattern: `DISALLOWED`})
	if err != nil {
		t.Fatal(err)
	}
	byBoth, err := NewCommand(helperTemplate(t), CommandOptions{Env: env, AllowedPattern: `\bALLOWED`, DisallowedPattern: `DISALLOWED`})
	if err != nil {
		t.Fatal(err)
	}
	// "$" matches at the end of a line: stdout ends in a newline.
	byLineEnd, err := NewCommand(helperTemplate(t), CommandOptions{Env: env, AllowedPattern: `: ALLOWED$`})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		p       *Command
		path    string
		want    result.Verdict
		wantErr string
	}{
		{"exit 0", exit, "/open", result.Allow, ""},
		{"exit 1", exit, "/private/x", result.Disallow, ""},
		{"exit 139", exit, "/crash", "", `(?s)exit status 139 \(0 means allowed, 1 disallowed\).*segmentation fault \(pretend\)`},
		{"timeout", short, "/hang", "", `(?s)no answer within 700ms.*grandchild`},
		{"recovers", exit, "/open", result.Allow, ""},
		{"allowed pattern matches", byAllowed, "/open", result.Allow, ""},
		{"allowed pattern misses", byAllowed, "/private/x", result.Disallow, ""},
		{"disallowed pattern matches", byDisallowed, "/private/x", result.Disallow, ""},
		{"disallowed pattern misses", byDisallowed, "/mute", result.Allow, ""},
		{"both: allowed", byBoth, "/open", result.Allow, ""},
		{"both: disallowed", byBoth, "/private", result.Disallow, ""},
		{"both: neither", byBoth, "/mute", "", `neither pattern matches standard output ""`},
		{"both: both", byBoth, "/both", "", `both patterns match`},
		{"patterns: crash is still an error", byBoth, "/crash", "", `exit status 139`},
		{"pattern anchored at the line end", byLineEnd, "/open", result.Allow, ""},
		{"pattern anchored at the line end misses", byLineEnd, "/private/x", result.Disallow, ""},
	}
	for _, tt := range tests {
		req := cases.Request{Robots: []byte(helperBody), Agent: "FooBot", URL: "https://example.com" + tt.path}
		got, err := tt.p.Check(context.Background(), req)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: unexpected error: %v", tt.name, err)
		case tt.wantErr != "" && err == nil:
			t.Errorf("%s: verdict %q, want an error matching %s", tt.name, got, tt.wantErr)
		case tt.wantErr != "" && !regexp.MustCompile(tt.wantErr).MatchString(err.Error()):
			t.Errorf("%s: error %q does not match %s", tt.name, err, tt.wantErr)
		case got != tt.want:
			t.Errorf("%s: verdict %q, want %q", tt.name, got, tt.want)
		}
		if tt.name == "timeout" && err != nil {
			if m := regexp.MustCompile(`grandchild (\d+)`).FindStringSubmatch(err.Error()); m != nil {
				pid, _ := strconv.Atoi(m[1])
				waitGone(t, pid)
			}
		}
	}
}

// TestCommandQuoting checks that substituted values reach the program as
// single arguments, whatever shell syntax they contain.
func TestCommandQuoting(t *testing.T) {
	url := `https://example.com/a b'c"d$HOME;touch pwned`
	agent := "Foo Bot"
	dir := t.TempDir()
	c, err := NewCommand(helperCommandTemplateFor(t, `%robots% "%url%" '%user-agent%'`), CommandOptions{
		Dir: dir,
		Env: []string{helperEnv + "=cmd", "REPTEST_WANT_URL=" + url, "REPTEST_WANT_AGENT=" + agent},
	})
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Check(context.Background(), cases.Request{Robots: []byte(helperBody), Agent: agent, URL: url})
	if err != nil || v != result.Allow {
		t.Errorf("Check = %q, %v; want allow (the helper exits 2 when an argument differs)", v, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("a substituted value was run by a shell")
	}
}

func TestCommandTempFileRemoved(t *testing.T) {
	tmp := t.TempDir()
	c, err := NewCommand(helperTemplate(t), CommandOptions{TempDir: tmp, Env: []string{helperEnv + "=cmd"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Check(context.Background(), cases.Request{Robots: []byte(helperBody), Agent: "FooBot", URL: "https://example.com/private"}); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(tmp)
	if len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
	if _, err := c.Check(context.Background(), cases.Request{Status: 503, Agent: "FooBot", URL: "https://example.com/"}); !errors.Is(err, errCapability) {
		t.Errorf("status request: error %v, want errCapability", err)
	}
}

func TestNewCommandErrors(t *testing.T) {
	tests := []struct {
		template string
		opts     CommandOptions
	}{
		{"", CommandOptions{}},
		{"   ", CommandOptions{}},
		{"./p 'unterminated", CommandOptions{}},
		{`./p "unterminated`, CommandOptions{}},
		{`./p trailing\`, CommandOptions{}},
		{"./p %url%", CommandOptions{AllowedPattern: "("}},
		{"./p %url%", CommandOptions{DisallowedPattern: "[z-a]"}},
	}
	for _, tt := range tests {
		if _, err := NewCommand(tt.template, tt.opts); err == nil {
			t.Errorf("NewCommand(%q, %+v) succeeded", tt.template, tt.opts)
		}
	}
}

// TestCommandKillsGroup checks that what a program leaves behind after a
// normal exit is killed with its group, and that a grandchild holding
// standard output open does not hold the check.
func TestCommandKillsGroup(t *testing.T) {
	tmp := t.TempDir()
	c, err := NewCommand(helperTemplate(t), CommandOptions{Timeout: 5 * time.Second, TempDir: tmp, Env: []string{helperEnv + "=cmd"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/leak", "/holdout"} {
		start := time.Now()
		v, err := c.Check(context.Background(), cases.Request{Robots: []byte(helperBody), Agent: "FooBot", URL: "https://example.com" + path})
		if err != nil || v != result.Allow {
			t.Errorf("%s: %q, %v; want allow", path, v, err)
		}
		if d := time.Since(start); d >= 5*time.Second {
			t.Errorf("%s: the check took %s, past its timeout", path, d)
		}
		m := regexp.MustCompile(`grandchild (\d+)`).FindStringSubmatch(c.StderrTail())
		if m == nil {
			t.Fatalf("%s: stderr %q does not name the grandchild", path, c.StderrTail())
		}
		pid, _ := strconv.Atoi(m[1])
		waitGone(t, pid)
	}
}

// TestCommandCancel checks that a cancelled check kills the program's
// group and removes its temporary file.
func TestCommandCancel(t *testing.T) {
	tmp := t.TempDir()
	c, err := NewCommand(helperTemplate(t), CommandOptions{Timeout: time.Minute, TempDir: tmp, Env: []string{helperEnv + "=cmd"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(700*time.Millisecond, cancel)
	_, err = c.Check(ctx, cases.Request{Robots: []byte(helperBody), Agent: "FooBot", URL: "https://example.com/hang"})
	if err == nil || !strings.Contains(err.Error(), "stopped: context canceled") {
		t.Fatalf("cancelled check: error %v", err)
	}
	if m := regexp.MustCompile(`grandchild (\d+)`).FindStringSubmatch(err.Error()); m != nil {
		pid, _ := strconv.Atoi(m[1])
		waitGone(t, pid)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
	if _, err := NewCommand("./p", CommandOptions{Name: "a≠b"}); err == nil {
		t.Error("NewCommand accepted the name \"a≠b\"")
	}
}
