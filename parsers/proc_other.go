//go:build !unix

package parsers

import (
	"os"
	"os/exec"
)

// newGroup does nothing where process groups are not available.
func newGroup(*exec.Cmd) {}

// killGroup kills p alone where process groups are not available.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	return p.Kill()
}
