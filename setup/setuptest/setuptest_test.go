package setuptest

import (
	"os/exec"
	"testing"
)

// FakePath puts the programs, and sh for them, alone on PATH.
func TestFakePath(t *testing.T) {
	FakePath(t, map[string]string{"hello": `echo "hi $1"`})
	if out, err := exec.Command("hello", "there").Output(); err != nil || string(out) != "hi there\n" {
		t.Errorf("hello there: %q, %v; want %q", out, err, "hi there\n")
	}
	if err := exec.Command("sh", "-c", "exit 0").Run(); err != nil {
		t.Errorf("sh on the fake PATH: %v", err)
	}
	if _, err := exec.LookPath("ls"); err == nil {
		t.Error("ls is found on the fake PATH; want only the fake programs")
	}
}
