package parsers

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reptest/reptest/cases"
)

// DefaultTimeout bounds each check of an external program when no timeout
// is set.
const DefaultTimeout = 5 * time.Second

// DefaultStartTimeout bounds the start of an external program (up to its
// hello) when no start timeout is set. Interpreters can be slow to start
// on a busy machine, so it is longer than a check's.
const DefaultStartTimeout = 20 * time.Second

// ProtocolHello is the protocol version sent in the hello line.
const ProtocolHello = "reptest/1"

// maxFailedStarts is how many starts in a row may fail before Exec stops
// trying and fails each check at once.
const maxFailedStarts = 3

// Grace periods when stopping a program.
const (
	closeGrace  = 500 * time.Millisecond // for a clean exit after stdin closes
	reapWait    = 5 * time.Second        // for the kernel to reap a killed process
	stderrDrain = time.Second            // for the last stderr bytes to arrive
)

func timeoutOr(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultTimeout
	}
	return d
}

// startTimeoutOr returns the start timeout: start when set, else the
// longer of DefaultStartTimeout and the check timeout.
func startTimeoutOr(start, check time.Duration) time.Duration {
	if start > 0 {
		return start
	}
	return max(DefaultStartTimeout, check)
}

// ExecOptions configures NewExec. The zero value is usable.
type ExecOptions struct {
	// Name, when set, is the parser's name whatever the program's hello
	// says. When empty the hello's name is used, or "exec" if it has none.
	Name string
	// Timeout bounds each check (sending the request and reading the
	// answer); 0 means DefaultTimeout.
	Timeout time.Duration
	// StartTimeout bounds each start, up to the hello's answer; 0 means
	// DefaultStartTimeout, or Timeout when that is longer.
	StartTimeout time.Duration
	// Dir is the program's working directory; empty means the current one.
	Dir string
	// Env is added to the program's environment.
	Env []string
}

// Exec is a parser run as one long-lived external program that speaks the
// reptest/1 protocol (CASES.md §3) over its standard input and output: a
// hello line, then one JSON request per line, each answered by one JSON
// line, in order.
//
// The program runs as "sh -c COMMAND" in a process group of its own. When
// it exits, stays silent past the timeout, answers a line that is not JSON,
// answers another request's id or a line longer than MaxLine, the check is
// an error that quotes the end of its standard error, the whole process
// group is killed and reaped, and the next check starts the program
// afresh. An {"id":…,"error":…} answer or an unknown verdict is an error
// of that check alone. After three failed starts in a row Exec stops
// starting the program and fails each check at once, so a run always
// completes.
type Exec struct {
	command string
	opts    ExecOptions
	info    cases.Info

	// tail is the standard error of the running program; it is read
	// without mu, so that a report never waits for a stuck check.
	tail atomic.Pointer[tailBuffer]

	mu          sync.Mutex
	proc        *process // nil when no program runs
	nextID      uint64
	starts      int // programs started, for tests
	failedRun   int // failed starts in a row
	lastFailure error
	closed      bool
}

// NewExec starts command and reads its hello, bounded by ctx and the
// start timeout; ctx is not used after NewExec returns. It returns an
// error when the program does not start or does not answer the hello.
// Close the parser to stop the program.
func NewExec(ctx context.Context, command string, opts ExecOptions) (*Exec, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("exec: empty command")
	}
	e := &Exec{command: command, opts: opts}
	p, info, err := e.start(ctx)
	if err != nil {
		return nil, err
	}
	e.setProc(p)
	e.info = info
	return e, nil
}

// Info implements cases.Parser; it is what the first hello said.
func (e *Exec) Info() cases.Info {
	info := e.info
	info.Capabilities = append([]cases.Capability(nil), info.Capabilities...)
	return info
}

// StderrTail implements cases.Stderr: the last StderrKeep bytes that the
// running program wrote to standard error. The standard error of a program
// that was stopped after a failure is in that check's error instead, so it
// is reported once.
func (e *Exec) StderrTail() string {
	if t := e.tail.Load(); t != nil {
		return t.String()
	}
	return ""
}

// setProc makes p (nil: none) the running program. The caller holds mu,
// or is NewExec.
func (e *Exec) setProc(p *process) {
	e.proc = p
	if p == nil {
		e.tail.Store(nil)
		return
	}
	e.tail.Store(p.stderr)
}

// Close stops the program: it closes its standard input, gives it a moment
// to exit, then kills its process group and reaps it. Checks after Close
// fail.
func (e *Exec) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	if e.proc != nil {
		e.proc.close()
		e.setProc(nil)
	}
	return nil
}

// request is one protocol request line.
type request struct {
	ID        string  `json:"id"`
	RobotsB64 *string `json:"robots_b64,omitempty"`
	Agent     string  `json:"agent"`
	URL       string  `json:"url"`
	Status    int     `json:"status,omitempty"`
	RobotsURL string  `json:"robots_url,omitempty"`
	Profile   string  `json:"profile,omitempty"`
	Session   string  `json:"session,omitempty"`
	Now       string  `json:"now,omitempty"`
	// Usage asks a program with the capability usage for the usage
	// preferences of these categories (the aipref profile).
	Usage []string `json:"usage,omitempty"`
}

// answer is one protocol answer line.
type answer struct {
	ID      json.RawMessage `json:"id"`
	Verdict *string         `json:"verdict"`
	Error   *string         `json:"error"`
	// Usage answers a request's usage categories: "y", "n" or "unknown".
	Usage map[string]string `json:"usage"`
}

// hello is the program's first answer.
type hello struct {
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	Runtime      string   `json:"runtime"`
	Capabilities []string `json:"capabilities"`
}

// Check implements cases.Parser.
func (e *Exec) Check(ctx context.Context, req cases.Request) (cases.Verdict, error) {
	a, id, out, err := e.call(ctx, req, nil)
	if err != nil {
		return "", err
	}
	name := e.info.Name
	if a.Verdict == nil {
		return "", fmt.Errorf("%s: request %s: the answer has neither verdict nor error: %s", name, id, quoteShort(out, 200))
	}
	switch v := cases.Verdict(*a.Verdict); v {
	case cases.Allow, cases.Disallow, cases.Reject:
		return v, nil
	default:
		return "", fmt.Errorf("%s: request %s: %q is not a verdict (allow, disallow or reject)", name, id, *a.Verdict)
	}
}

// Usage implements cases.UsageReporter for a program with the capability
// usage: the request carries "usage", the categories, and the answer
// holds "usage", an object of category to "y", "n" or "unknown".
func (e *Exec) Usage(ctx context.Context, req cases.Request, categories []string) (map[string]string, error) {
	if !e.info.Has(cases.CapUsage) {
		return nil, fmt.Errorf("%s: %w: usage", e.info.Name, errCapability)
	}
	a, id, out, err := e.call(ctx, req, categories)
	if err != nil {
		return nil, err
	}
	if a.Usage == nil {
		return nil, fmt.Errorf("%s: request %s: the answer has no usage: %s", e.info.Name, id, quoteShort(out, 200))
	}
	return a.Usage, nil
}

// call sends one request and reads its answer, checking its id and
// turning an error answer into an error. It returns the request's id and
// the answer line for messages.
func (e *Exec) call(ctx context.Context, req cases.Request, usage []string) (answer, string, []byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	name := e.info.Name
	if e.closed {
		return answer{}, "", nil, fmt.Errorf("%s: the parser is closed", name)
	}
	kind := req.Kind()
	if !e.info.Has(kind) || req.Session != "" && !e.info.Has(cases.CapClock) {
		return answer{}, "", nil, fmt.Errorf("%s: %w: %s", name, errCapability, kind)
	}
	if e.proc == nil {
		if e.failedRun >= maxFailedStarts {
			return answer{}, "", nil, fmt.Errorf("%s: not restarted after %d failed starts: %w", name, e.failedRun, e.lastFailure)
		}
		p, _, err := e.start(ctx)
		if err != nil {
			return answer{}, "", nil, err
		}
		e.setProc(p)
	}
	e.nextID++
	id := strconv.FormatUint(e.nextID, 10)
	line, err := encodeRequest(id, req, usage)
	if err != nil {
		return answer{}, "", nil, fmt.Errorf("%s: request %s: %w", name, id, err)
	}
	timeout := timeoutOr(e.opts.Timeout)
	out, err := e.proc.roundTrip(ctx, line, timeout)
	if err != nil {
		return answer{}, "", nil, e.fail(fmt.Sprintf("request %s", id), err)
	}
	var a answer
	if err := json.Unmarshal(out, &a); err != nil {
		return answer{}, "", nil, e.fail(fmt.Sprintf("request %s", id), fmt.Errorf("answered a line that is not a JSON object: %s", quoteShort(out, 200)))
	}
	if got, ok := answerID(a.ID); !ok || got != id {
		return answer{}, "", nil, e.fail(fmt.Sprintf("request %s", id), fmt.Errorf("answered id %s to request %q", quoteShort(a.ID, 60), id))
	}
	if a.Error != nil {
		return answer{}, "", nil, fmt.Errorf("%s: request %s: the parser answered an error: %s", name, id, *a.Error)
	}
	return a, id, out, nil
}

// answerID reads an answer's id: a JSON string, or a number written as
// the request's decimal id.
func answerID(raw json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, true
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), true
	}
	return "", false
}

// fail stops the program after a protocol failure and returns the check's
// error with the end of the program's standard error.
func (e *Exec) fail(what string, err error) error {
	tail := e.proc.kill()
	e.setProc(nil)
	return fmt.Errorf("%s: %s: %w%s", e.info.Name, what, err, stderrNote(tail))
}

func stderrNote(tail string) string {
	if tail == "" {
		return " (nothing on stderr)"
	}
	return "; stderr:\n" + tail
}

// encodeRequest returns the request line for req, newline included.
func encodeRequest(id string, req cases.Request, usage []string) ([]byte, error) {
	r := request{ID: id, Agent: req.Agent, URL: req.URL, Profile: req.Profile, Usage: usage}
	switch req.Kind() {
	case cases.CapFetch:
		r.RobotsURL = req.RobotsURL
		r.Session = req.Session
		if r.Session != "" {
			r.Now = req.Now.UTC().Format(time.RFC3339)
		}
	default:
		b64 := base64.StdEncoding.EncodeToString(req.Robots)
		r.RobotsB64 = &b64
		r.Status = req.Status
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// start starts the program and reads its hello. It records failed starts.
func (e *Exec) start(ctx context.Context) (*process, cases.Info, error) {
	label := e.opts.Name
	if label == "" {
		label = e.info.Name
	}
	if label == "" {
		label = "exec"
	}
	p, info, err := e.startOnce(ctx, label)
	if err != nil {
		e.failedRun++
		e.lastFailure = err
		return nil, info, err
	}
	e.failedRun, e.lastFailure = 0, nil
	e.starts++
	return p, info, nil
}

func (e *Exec) startOnce(ctx context.Context, label string) (*process, cases.Info, error) {
	p, err := startProcess(e.command, e.opts)
	if err != nil {
		return nil, cases.Info{}, fmt.Errorf("%s: starting %q: %w", label, e.command, err)
	}
	line, err := json.Marshal(map[string]string{"hello": ProtocolHello})
	if err != nil {
		return nil, cases.Info{}, err
	}
	out, err := p.roundTrip(ctx, append(line, '\n'), startTimeoutOr(e.opts.StartTimeout, e.opts.Timeout))
	if err != nil {
		tail := p.kill()
		return nil, cases.Info{}, fmt.Errorf("%s: hello: %w%s", label, err, stderrNote(tail))
	}
	info, err := parseHello(out, e.opts.Name)
	if err != nil {
		tail := p.kill()
		return nil, cases.Info{}, fmt.Errorf("%s: hello: %w%s", label, err, stderrNote(tail))
	}
	return p, info, nil
}

// parseHello reads the program's hello. Unknown capabilities are ignored,
// so that programs can announce newer ones; at least one known one is
// needed.
func parseHello(line []byte, name string) (cases.Info, error) {
	var h hello
	if err := json.Unmarshal(line, &h); err != nil {
		return cases.Info{}, fmt.Errorf("answered a line that is not a hello object: %s", quoteShort(line, 200))
	}
	if name == "" {
		name = h.Name
	}
	if name == "" {
		name = "exec"
	}
	info := cases.Info{Name: name, Version: h.Version, Runtime: h.Runtime}
	for _, c := range h.Capabilities {
		switch cp := cases.Capability(c); cp {
		case cases.CapParse, cases.CapStatus, cases.CapFetch, cases.CapClock, cases.CapUsage:
			if !info.Has(cp) {
				info.Capabilities = append(info.Capabilities, cp)
			}
		}
	}
	if len(info.Capabilities) == 0 {
		return cases.Info{}, fmt.Errorf("the hello names no known capability (parse, status, fetch, clock): %s", quoteShort(line, 200))
	}
	return info, nil
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
}

// startProcess starts "sh -c command" with pipes whose parent ends support
// deadlines.
func startProcess(command string, opts ExecOptions) (p *process, err error) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = opts.Dir
	if len(opts.Env) > 0 {
		cmd.Env = append(os.Environ(), opts.Env...)
	}
	newGroup(cmd)

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
func (p *process) roundTrip(ctx context.Context, line []byte, timeout time.Duration) ([]byte, error) {
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
	out, err := readLine(p.out, MaxLine)
	if err != nil {
		return nil, p.explain(ctx, err, timeout, callers, "answering")
	}
	return out, nil
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
		return fmt.Errorf("no answer within %s (stuck %s)", timeout, doing)
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
func (p *process) kill() string {
	killGroup(p.cmd.Process)
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
	return p.stderr.String()
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
