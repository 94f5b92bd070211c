//go:build unix

package cmdline

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestKillGroup checks that KillGroup reaches a process the program left
// behind: a background sleep holding the program's standard output open
// must be gone, so the pipe reaches its end, soon after the kill.
func TestKillGroup(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(sh, "-c", "sleep 60 & echo started; wait")
	cmd.Stdout = w
	NewGroup(cmd)
	if err := cmd.Start(); err != nil {
		w.Close()
		t.Fatal(err)
	}
	w.Close()
	buf := make([]byte, len("started\n"))
	r.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(r, buf); err != nil {
		KillGroup(cmd.Process)
		t.Fatalf("reading the program's first line: %v", err)
	}
	if err := KillGroup(cmd.Process); err != nil {
		t.Errorf("KillGroup: %v", err)
	}
	r.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := r.Read(buf); !errors.Is(err, io.EOF) {
		t.Errorf("after KillGroup, read = %d, %v; want EOF (the background sleep still holds the pipe)", n, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if err := KillGroup(cmd.Process); err != nil {
		t.Errorf("second KillGroup of a gone group: %v", err)
	}
	if err := KillGroup(nil); err != nil {
		t.Errorf("KillGroup(nil): %v", err)
	}
}
