package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a named pipe in a test's folder.
func mkfifo(t *testing.T) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return name
}

// Opening a named pipe no program writes to waits until the context is
// cancelled, then returns the cause and leaves no goroutine behind; one
// that a program writes to is read as it is.
func TestOpenInputNamedPipe(t *testing.T) {
	t.Run("no writer", func(t *testing.T) {
		name := mkfifo(t)
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancelCause(context.Background())
		stop := errors.New("stopped by the test")
		time.AfterFunc(100*time.Millisecond, func() { cancel(stop) })
		done := make(chan error, 1)
		go func() {
			r, err := openInput(ctx, name)
			if err == nil {
				r.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, stop) {
				t.Errorf("openInput of a pipe without a writer: %v, want %q", err, stop)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("openInput of a pipe without a writer goes on waiting after the context was cancelled")
		}
		waitGoroutines(t, before)
	})
	t.Run("a writer", func(t *testing.T) {
		name := mkfifo(t)
		const text = "User-agent: *\nDisallow: /private\n"
		go func() {
			w, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			defer w.Close()
			io.WriteString(w, text)
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		got, err := readInput(ctx, name)
		if err != nil || string(got) != text {
			t.Errorf("readInput of a pipe written to: %q, %v; want %q", got, err, text)
		}
	})
}

// reptest audit reads --log and --robots as other inputs are read: a
// named pipe that nobody writes to ends the wait when the command is
// stopped (SIGINT, SIGTERM: a cancelled context), saying why, and
// /dev/zero is too large, not read until memory runs out.
func TestAuditInputsNotRegular(t *testing.T) {
	dir := t.TempDir()
	robots, log := filepath.Join(dir, "robots.txt"), filepath.Join(dir, "access.log")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte("1.2.3.4 - - [06/Oct/2026:01:00:01 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"FooBot/1.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		log, robots, want string
		stop              bool // the command is stopped after 100 ms
	}{
		{mkfifo(t), robots, "waiting for a program to write to the pipe", true},
		{log, mkfifo(t), "waiting for a program to write to the pipe", true},
		{log, "/dev/zero", "larger than", false},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		if tt.stop {
			time.AfterFunc(100*time.Millisecond, cancel)
		}
		var stdout, stderr bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- dispatch(ctx, []string{"audit", "--log", tt.log, "--robots", tt.robots}, &stdout, &stderr)
		}()
		select {
		case code := <-done:
			if code == exitOK || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("--log %s --robots %s: exit %d, stderr %q; want a failure saying %q", tt.log, tt.robots, code, stderr.String(), tt.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("--log %s --robots %s: audit goes on reading after it was stopped", tt.log, tt.robots)
		}
		cancel()
	}
}
