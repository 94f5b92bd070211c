package parsers

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

const helperBody = "User-agent: *\nDisallow: /private\n"

// newHelperExec starts the helper in mode and closes it at the end.
func newHelperExec(t *testing.T, mode string, timeout time.Duration, env ...string) *Exec {
	t.Helper()
	e, err := NewExec(context.Background(), helperCommand(t), ExecOptions{
		Timeout: timeout,
		Env:     append([]string{helperEnv + "=" + mode}, env...),
	})
	if err != nil {
		t.Fatalf("NewExec: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestExecHello(t *testing.T) {
	e := newHelperExec(t, "good", 0)
	want := result.Info{Name: "helper", Version: "9.9", Runtime: "helper-runtime 1.0", Capabilities: []result.Capability{result.CapParse, result.CapStatus}}
	if diff := cmp.Diff(want, e.Info()); diff != "" {
		t.Errorf("Info() mismatch (-want +got), unknown capability \"teleport\" dropped:\n%s", diff)
	}
}

// TestExecChecks runs one program through good answers and every kind of
// misbehaviour, in order: each check is recorded as it should be and the
// program is restarted exactly when the stream can no longer be trusted.
func TestExecChecks(t *testing.T) {
	e := newHelperExec(t, "good", 1500*time.Millisecond)
	tests := []struct {
		path    string
		status  int
		want    result.Verdict
		wantErr string // regular expression; "" means no error
		starts  int    // programs started after the check
	}{
		{path: "/open", want: result.Allow, starts: 1},
		{path: "/private/x", want: result.Disallow, starts: 1},
		{path: "/reject", want: result.Reject, starts: 1},
		{path: "/numberid", want: result.Allow, starts: 1},
		{path: "/x", status: 503, want: result.Disallow, starts: 1},
		{path: "/private/x", status: 404, want: result.Allow, starts: 1},
		// Answers that keep the stream in step: no restart.
		{path: "/error", wantErr: `answered an error: cannot do that$`, starts: 1},
		// A duplicate answer is dropped, not taken for the next check's.
		{path: "/dup", want: result.Allow, starts: 1},
		{path: "/private/x", want: result.Disallow, starts: 1},
		{path: "/maybe", wantErr: `"maybe" is not a verdict`, starts: 1},
		{path: "/empty", wantErr: `neither verdict nor error`, starts: 1},
		{path: "/open", want: result.Allow, starts: 1},
		// Failures that end the program; the next check starts it again.
		{path: "/crash", wantErr: `(?s)exited \(exit status 2\).*stderr:.*crashing on purpose`, starts: 1},
		{path: "/open", want: result.Allow, starts: 2},
		{path: "/garbage", wantErr: `(?s)not a JSON object: "allow, I think".*printing garbage`, starts: 2},
		{path: "/private/y", want: result.Disallow, starts: 3},
		{path: "/wrongid", wantErr: `answered id "nope" to request \d+ `, starts: 3},
		{path: "/open", want: result.Allow, starts: 4},
		{path: "/hang", wantErr: `(?s)no answer within 1.5s.*grandchild`, starts: 4},
		{path: "/open", want: result.Allow, starts: 5},
		{path: "/huge", wantErr: `longer than 1048576 bytes`, starts: 5},
		{path: "/open", want: result.Allow, starts: 6},
	}
	for i, tt := range tests {
		req := cases.Request{Robots: []byte(helperBody), Agent: "FooBot", URL: "https://example.com" + tt.path, Status: tt.status}
		got, err := e.Check(context.Background(), req)
		name := strconv.Itoa(i) + tt.path
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: unexpected error: %v", name, err)
		case tt.wantErr != "" && err == nil:
			t.Errorf("%s: verdict %q, want an error matching %s", name, got, tt.wantErr)
		case tt.wantErr != "" && !regexp.MustCompile(tt.wantErr).MatchString(err.Error()):
			t.Errorf("%s: error %q does not match %s", name, err, tt.wantErr)
		case got != tt.want:
			t.Errorf("%s: verdict %q, want %q", name, got, tt.want)
		}
		if e.starts != tt.starts {
			t.Errorf("%s: %d programs started, want %d", name, e.starts, tt.starts)
		}
	}
}

// TestExecHangKillsGroup checks that a hanging program is killed with
// every process it started.
func TestExecHangKillsGroup(t *testing.T) {
	e := newHelperExec(t, "good", 500*time.Millisecond)
	_, err := e.Check(context.Background(), cases.Request{Agent: "FooBot", URL: "https://example.com/hang"})
	if err == nil {
		t.Fatal("no error for a program that hangs")
	}
	m := regexp.MustCompile(`grandchild (\d+)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error does not quote the helper's stderr: %v", err)
	}
	pid, _ := strconv.Atoi(m[1])
	waitGone(t, pid)
}

// waitGone fails unless process pid ends (or is a zombie waiting for
// init) within two seconds.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		state, _, ok := procStat(pid)
		if !ok || state == "Z" {
			return // gone, or dead and reparented to init for reaping
		}
	}
	t.Errorf("process %d still runs after its group was killed", pid)
}

// procStat returns the state and parent of process pid from /proc; ok is
// false when there is no such process (or no /proc).
func procStat(pid int) (state string, ppid int, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	return f[0], ppid, err == nil
}

// children returns the processes whose parent is the test, running or
// not yet reaped, from /proc (none without /proc).
func children(t *testing.T) map[int]bool {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Logf("no /proc (%v): child processes are not counted", err)
	}
	kids := map[int]bool{}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if _, ppid, ok := procStat(pid); ok && ppid == os.Getpid() {
			kids[pid] = true
		}
	}
	return kids
}

// waitChildren fails unless every child process of the test that is not
// in before has ended and been reaped within ten seconds.
func waitChildren(t *testing.T, before map[int]bool) {
	t.Helper()
	var left []int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left = left[:0]
		for pid := range children(t) {
			if !before[pid] {
				left = append(left, pid)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("child processes %v are still running or unreaped", left)
	}
}

// TestExecStartFailures checks that a program that fails at its start
// gives a clear error and leaves no process behind. Each failure is the
// program's own, whatever the time it takes to start on a busy machine:
// those that exit or answer the hello wrongly have a start timeout they
// never reach, and the one that never answers sleeps far longer than
// its short one.
func TestExecStartFailures(t *testing.T) {
	tests := []struct {
		mode    string
		start   time.Duration
		wantErr string
	}{
		{"nohello", time.Minute, `(?s)hello: the program exited \(exit status 3\).*missing library libfoo`},
		{"badhello", time.Minute, `not a hello object: "Welcome to my parser!"`},
		{"slowhello", 300 * time.Millisecond, `hello: no answer within 300ms`},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			before := children(t)
			e, err := NewExec(context.Background(), helperCommand(t), ExecOptions{
				StartTimeout: tt.start, Env: []string{helperEnv + "=" + tt.mode},
			})
			if err == nil {
				e.Close()
				t.Fatal("NewExec succeeded")
			}
			if !regexp.MustCompile(tt.wantErr).MatchString(err.Error()) {
				t.Errorf("error %q does not match %s", err, tt.wantErr)
			}
			waitChildren(t, before)
		})
	}
	if _, err := NewExec(context.Background(), "  ", ExecOptions{}); err == nil {
		t.Error("NewExec accepted an empty command")
	}
}

// TestExecGivesUp checks that a program that no longer starts is tried
// three times and then fails each check at once.
func TestExecGivesUp(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	e := newHelperExec(t, "once", time.Second, "REPTEST_MARKER="+marker)
	req := cases.Request{Agent: "FooBot", URL: "https://example.com/crash"}
	if _, err := e.Check(context.Background(), req); err == nil {
		t.Fatal("no error for a crash")
	}
	req.URL = "https://example.com/open"
	for i := 1; i <= maxFailedStarts+1; i++ {
		_, err := e.Check(context.Background(), req)
		want := "refusing to start again"
		if i > maxFailedStarts {
			want = "not restarted after 3 failed starts"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check %d after the crash: error %v, want one containing %q", i, err, want)
		}
	}
}

func TestExecCloseAndContext(t *testing.T) {
	e := newHelperExec(t, "good", time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Check(ctx, cases.Request{Agent: "FooBot", URL: "https://example.com/open"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("check with a cancelled context: error %v, want context.Canceled", err)
	}
	v, err := e.Check(context.Background(), cases.Request{Agent: "FooBot", URL: "https://example.com/open"})
	if err != nil || v != result.Allow {
		t.Fatalf("check after a cancelled one: %q, %v", v, err)
	}
	pid := e.idle[0].cmd.Process.Pid
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Errorf("process %d still exists (or is an unreaped zombie) after Close", pid)
	}
	if _, err := e.Check(context.Background(), cases.Request{Agent: "FooBot", URL: "https://example.com/open"}); err == nil {
		t.Error("check after Close succeeded")
	}
}

func TestExecCapabilities(t *testing.T) {
	e := newHelperExec(t, "parseonly", time.Second)
	for _, req := range []cases.Request{
		{Agent: "FooBot", URL: "https://example.com/", Status: 503},
		{Agent: "FooBot", URL: "https://example.com/", RobotsURL: "http://127.0.0.1:1/robots.txt"},
	} {
		if _, err := e.Check(context.Background(), req); !errors.Is(err, errCapability) {
			t.Errorf("%s request to a parse-only program: error %v, want errCapability", req.Kind(), err)
		}
	}
	if e.starts != 1 {
		t.Errorf("%d programs started, want 1", e.starts)
	}
}

func TestExecStderrTail(t *testing.T) {
	e := newHelperExec(t, "good", time.Second)
	if _, err := e.Check(context.Background(), cases.Request{Agent: "FooBot", URL: "https://example.com/noisy"}); err != nil {
		t.Fatal(err)
	}
	// The stderr copier runs on its own; give it a moment.
	var tail string
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if tail = e.StderrTail(); strings.HasSuffix(tail, "END-OF-NOISE") {
			break
		}
	}
	if !strings.HasSuffix(tail, "END-OF-NOISE") || !strings.HasPrefix(tail, "…") || len(tail) > StderrKeep+len("…") {
		t.Errorf("StderrTail() = %d bytes %.20q…%q; want the last %d bytes, marked as cut", len(tail), tail, tail[max(0, len(tail)-20):], StderrKeep)
	}
}

func TestEncodeRequest(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.FixedZone("x", 3600))
	every := make([]byte, 256) // every byte value: the body is binary
	for i := range every {
		every[i] = byte(i)
	}
	tests := []struct {
		name string
		req  cases.Request
		qs   []cases.Question
		want map[string]any
	}{
		{"parse", cases.Request{Profile: "rfc9309", Robots: []byte("User-agent: *\nDisallow: /\n"), Agent: "FooBot", URL: "https://example.com/x"}, nil,
			map[string]any{"id": "7", "robots_b64": "VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLwo=", "agent": "FooBot", "url": "https://example.com/x", "profile": "rfc9309"}},
		{"status with empty body", cases.Request{Status: 503, Agent: "FooBot", URL: "https://example.com/x"}, nil,
			map[string]any{"id": "7", "robots_b64": "", "status": 503.0, "agent": "FooBot", "url": "https://example.com/x"}},
		{"binary body", cases.Request{Robots: every, Agent: "FooBot", URL: "https://example.com/x"}, nil,
			map[string]any{"id": "7", "robots_b64": base64.StdEncoding.EncodeToString(every), "agent": "FooBot", "url": "https://example.com/x"}},
		{"batch", cases.Request{Profile: "google", Robots: []byte("Disallow: /\n"), Status: 200, Agent: "unused", URL: "https://unused.test/"},
			[]cases.Question{{Agent: "FooBot", URL: "https://example.com/x"}, {Agent: "Bar \"Bot\"", URL: "https://example.com/\u00e9"}},
			map[string]any{"id": "7", "robots_b64": "RGlzYWxsb3c6IC8K", "status": 200.0, "profile": "google", "questions": []any{
				map[string]any{"agent": "FooBot", "url": "https://example.com/x"}, map[string]any{"agent": "Bar \"Bot\"", "url": "https://example.com/\u00e9"}}}},
		{"fetch", cases.Request{RobotsURL: "http://127.0.0.1:4000/robots.txt", Agent: "FooBot", URL: "http://a.test/x"}, nil,
			map[string]any{"id": "7", "robots_url": "http://127.0.0.1:4000/robots.txt", "agent": "FooBot", "url": "http://a.test/x"}},
		{"clock", cases.Request{RobotsURL: "http://127.0.0.1:4000/robots.txt", Agent: "FooBot", URL: "http://a.test/x", Session: "s1", Now: now}, nil,
			map[string]any{"id": "7", "robots_url": "http://127.0.0.1:4000/robots.txt", "agent": "FooBot", "url": "http://a.test/x", "session": "s1", "now": "2025-03-01T11:00:00Z"}},
	}
	for _, tt := range tests {
		line, err := encodeRequest("7", tt.req, tt.qs)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !strings.HasSuffix(string(line), "}\n") || strings.Count(string(line), "\n") != 1 {
			t.Errorf("%s: %q is not one line", tt.name, line)
		}
		// Simple programs (a shell loop with sed) read the id as the
		// first key.
		if !strings.HasPrefix(string(line), `{"id":"7"`) {
			t.Errorf("%s: %.40q does not start with the id", tt.name, line)
		}
		var got map[string]any
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: request mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}
