//go:build !unix

package crawl

import (
	"os"
	"os/exec"
)

func newGroup(*exec.Cmd) {}

// killGroup kills p alone where process groups are not available.
func killGroup(p *os.Process) {
	if p != nil {
		p.Kill()
	}
}
