//go:build unix

package cmdline

import (
	"os"
	"os/exec"
	"syscall"
)

// NewGroup makes cmd start in a process group of its own, so that
// KillGroup reaches every process it starts. Call it before cmd.Start.
func NewGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// KillGroup kills, with SIGKILL, the process group that p leads. A nil p,
// or a group already gone, is not an error.
func KillGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if err == syscall.ESRCH {
		return nil
	}
	return err
}
