package parsers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/reptest/reptest/internal/cmdline"
)

// Grace periods when stopping a program.
const (
	closeGrace  = 500 * time.Millisecond // for a clean exit after stdin closes
	reapWait    = 5 * time.Second        // for the kernel to reap a killed process
	stderrDrain = time.Second            // for the last stderr bytes to arrive
)

// maxStale is how many duplicate answers are dropped before one request's
// answer; more is a protocol failure.
const maxStale = 16

// stallError is a program that did not answer within the timeout.
type stallError struct {
	timeout time.Duration
	doing   string
}

func (e *stallError) Error() string {
	return fmt.Sprintf("no answer within %s (stuck %s)", e.timeout, e.doing)
}

// process is one running program.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // write end
	stdout *os.File // read end
	errR   *os.File // read end of stderr
	out    *bufio.Reader
	stderr *tailBuffer

	exited     chan struct{} // closed when Wait returned
	waitErr    error         // set before exited is closed
	stderrDone chan struct{} // closed when stderr reached EOF
	killOnce   sync.Once
}

// startProcess starts "sh -c command" with pipes whose parent ends support
// deadlines.
func startProcess(command string, opts ExecOptions) (p *process, err error) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = opts.Dir
	if len(opts.Env) > 0 {
		cmd.Env = append(os.Environ(), opts.Env...)
	}
	cmdline.NewGroup(cmd)

	var files []*os.File
	defer func() {
		if err != nil {
			for _, f := range files {
				f.Close()
			}
		}
	}()
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	// The child holds its own copies now.
	inR.Close()
	outW.Close()
	errW.Close()

	p = &process{
		cmd: cmd, stdin: inW, stdout: outR, errR: errR,
		out:        bufio.NewReaderSize(outR, 64<<10),
		stderr:     newTail(StderrKeep),
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	go func() {
		io.Copy(p.stderr, errR) // ends at EOF, or when kill closes errR
		close(p.stderrDone)
	}()
	return p, nil
}

// roundTrip writes one line and reads one line, within timeout and ctx.
// Lines for which stale reports true (duplicate answers) are dropped.
func (p *process) roundTrip(ctx context.Context, line []byte, timeout time.Duration, stale func([]byte) bool) ([]byte, error) {
	deadline := time.Now().Add(timeout)
	callers := false // the deadline is the caller's, not the timeout
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline, callers = d, true
	}
	p.stdin.SetWriteDeadline(deadline)
	p.stdout.SetReadDeadline(deadline)
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		now := time.Now()
		p.stdin.SetWriteDeadline(now)
		p.stdout.SetReadDeadline(now)
	})
	defer func() {
		if !stop() {
			<-fired // the deadlines are ours again before the next request
		}
	}()

	if _, err := p.stdin.Write(line); err != nil {
		return nil, p.explain(ctx, err, timeout, callers, "reading its request")
	}
	for dropped := 0; ; dropped++ {
		out, err := readLine(p.out, MaxLine)
		if err != nil {
			return nil, p.explain(ctx, err, timeout, callers, "answering")
		}
		if stale == nil || !stale(out) {
			return out, nil
		}
		if dropped == maxStale {
			return nil, fmt.Errorf("answered %d duplicates of earlier answers in a row, the last %s", dropped+1, quoteShort(out, 100))
		}
	}
}

// explain turns an I/O error into the reason a check failed.
func (p *process) explain(ctx context.Context, err error, timeout time.Duration, callers bool, doing string) error {
	switch {
	case errors.Is(err, errLineTooLong):
		return err
	case ctx.Err() != nil:
		return fmt.Errorf("stopped while %s: %w", doing, ctx.Err())
	case errors.Is(err, os.ErrDeadlineExceeded) && callers:
		return fmt.Errorf("stopped while %s: %w", doing, context.DeadlineExceeded)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &stallError{timeout, doing}
	}
	// EOF on stdout or a broken stdin: the program has gone, or closed
	// its streams. Give it a moment to be reaped for its exit status.
	select {
	case <-p.exited:
		return fmt.Errorf("the program exited (%v) before %s", exitText(p.waitErr), doing)
	case <-time.After(100 * time.Millisecond):
	}
	return fmt.Errorf("the program closed its pipes before %s: %v", doing, err)
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// kill kills the program's process group, reaps it and returns the end of
// its standard error.
// Only the first call kills: the group's id must not be signalled again
// once the kernel may have reused it.
func (p *process) kill() string {
	p.killOnce.Do(p.killNow)
	return p.stderr.String()
}

func (p *process) killNow() {
	cmdline.KillGroup(p.cmd.Process)
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(reapWait):
	}
	select {
	case <-p.stderrDone:
	case <-time.After(stderrDrain):
	}
	p.errR.Close()
	p.stdout.Close()
}

// close asks the program to exit by closing its standard input, then kills
// what is left of its process group.
func (p *process) close() {
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(closeGrace):
	}
	p.kill()
}
