package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reptest/reptest/parsers"
)

// TestMain lets a test run the command itself, as a child process: the
// test binary acts as reptest when REPTEST_TEST_MAIN is set. Otherwise it
// serves as a worker of the isolated Go libraries when asked, as the
// reptest binary does.
func TestMain(m *testing.M) {
	if os.Getenv("REPTEST_TEST_MAIN") == "1" {
		os.Args = append([]string{"reptest"}, os.Args[1:]...)
		main()
		return
	}
	parsers.ServeWorkerIfAsked()
	// reptest diff caches in the user cache folder: the tests' own.
	dir, err := os.MkdirTemp("", "reptest-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// reptestCmd returns the command running reptest with args.
func reptestCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "REPTEST_TEST_MAIN=1")
	return cmd
}

// SIGTERM stops a run or a crawl as SIGINT does (main's stopSignals):
// the results so far are written, marked interrupted with the signal,
// and the status is 1.
func TestRunSIGTERM(t *testing.T) {
	dir := t.TempDir()
	var body strings.Builder
	body.WriteString("cases:\n")
	for _, id := range []string{"a", "b", "c"} {
		body.WriteString(strings.Replace(strings.TrimPrefix(goodCase, "cases:\n"), "t/one", "t/"+id, 1))
	}
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(body.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	commands := map[string][]string{
		"run":   {"run", "--command", "sh -c 'sleep 30' %robots% %url% %user-agent%"},
		"crawl": {"crawl", "--crawler", "sh -c 'sleep 30' {url}"},
	}
	for name, args := range commands {
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
			t.Run(name+"/"+sig.String(), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out.json")
				cmd := reptestCmd(t, append(args, "--corpus", dir, "--quiet", "--json", out, "--timeout", "20s")...)
				stopWith(t, cmd, sig, out)
			})
		}
	}
}

// stopWith starts cmd, sends it sig once its first check runs, and checks
// that it stops with status 1 and writes out marked interrupted by sig.
func stopWith(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, out string) {
	t.Helper()
	code, stderr := signalled(t, cmd, sig)
	if code != 1 {
		t.Errorf("exit status %d, want 1; stderr:\n%s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no JSON written after %s: %v; stderr:\n%s", sig, err, stderr)
	}
	var doc struct {
		Interrupted bool   `json:"interrupted"`
		Reason      string `json:"interrupt_reason"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Interrupted || !strings.Contains(doc.Reason, "signal") {
		t.Errorf("document: interrupted %v, reason %q; want it marked with the signal", doc.Interrupted, doc.Reason)
	}
}

// SIGTERM and SIGINT stop an audit that waits for standard input from a
// pipe that sends nothing: the wait ends at once, not at the next line.
func TestAuditStdinSignal(t *testing.T) {
	robots := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close() // held open and never written: no input, no end of input
			out := filepath.Join(t.TempDir(), "out.json")
			cmd := reptestCmd(t, "audit", "--robots", robots, "--log", "-", "--json", out, "--quiet")
			cmd.Stdin = r
			stopWith(t, cmd, sig, out)
			r.Close()
		})
	}
}

// signalled starts cmd, sends it sig a second later (its work is under
// way), and returns its exit status and standard error once it stops,
// which must be within 15 seconds.
func signalled(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) (code int, stderr string) {
	t.Helper()
	var buf strings.Builder
	cmd.Stderr = &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	cmd.Process.Signal(sig)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("reptest did not stop within 15s of %s; stderr:\n%s", sig, buf.String())
	}
	return cmd.ProcessState.ExitCode(), buf.String()
}

// The commands that read one input whole from standard input stop
// waiting for it at SIGINT, with an error that says why (status 2, as
// for any input they cannot read).
func TestReadInputSignal(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--robots", "-", "--agent", "FooBot", "https://example.com/"},
		{"matrix", "-"},
		{"promote", "-"},
	} {
		t.Run(args[0], func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close() // held open and never written
			defer r.Close()
			cmd := reptestCmd(t, args...)
			cmd.Stdin = r
			code, stderr := signalled(t, cmd, syscall.SIGINT)
			if code != exitUsage || !strings.Contains(stderr, "reading -: interrupt signal received") {
				t.Errorf("exit status %d, stderr %q; want 2 and the interruption said", code, stderr)
			}
		})
	}
}
