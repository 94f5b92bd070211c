//go:build unix

package crawl

import (
	"os"
	"os/exec"
	"syscall"
)

// newGroup makes the crawler lead a process group of its own, so that a
// stop reaches every process it started.
func newGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the process group that p leads.
func killGroup(p *os.Process) {
	if p != nil {
		syscall.Kill(-p.Pid, syscall.SIGKILL)
	}
}
