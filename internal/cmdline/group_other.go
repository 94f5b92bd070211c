//go:build !unix

package cmdline

import (
	"os"
	"os/exec"
)

// NewGroup does nothing where process groups are not available.
func NewGroup(*exec.Cmd) {}

// KillGroup kills p alone where process groups are not available. A nil p
// is not an error.
func KillGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	return p.Kill()
}
