//go:build unix

package report

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// WriteFile on a named pipe (as on /dev/null or /dev/stdout) writes
// through it and leaves it a pipe: a rename would have put a plain file
// in its place (as root, /dev/null itself).
func TestWriteFileNotRegular(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("report: no named pipes here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "through\n"); return err }); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "through\n" {
			t.Errorf("the reader got %q, want %q", s, "through\n")
		}
	case <-time.After(10 * time.Second):
		t.Error("nothing was written to the pipe")
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("after WriteFile the path is %v (%v), want the named pipe", fi.Mode(), err)
	}
}
