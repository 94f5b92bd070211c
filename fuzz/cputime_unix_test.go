//go:build unix

package fuzz

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system: a
// measure of work that, unlike the wall clock, does not grow when other
// processes share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
