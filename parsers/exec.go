package parsers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// DefaultTimeout bounds each check of an external program when no timeout
// is set.
const DefaultTimeout = 5 * time.Second

// DefaultStartTimeout bounds the start of an external program (up to its
// hello) when no start timeout is set. Interpreters can be slow to start
// on a busy machine, so it is longer than a check's.
const DefaultStartTimeout = 20 * time.Second

// maxFailedStarts is how many starts in a row may fail before Exec stops
// trying and fails each check at once.
const maxFailedStarts = 3

// maxStalls is how many inputs in a row may go unanswered within the
// timeout before Exec stops asking the program and fails each check at
// once: a program that hangs on every input costs a few timeouts, not one
// per check. Checks in a row on one input (a case's several checks of one
// pathological body) count once, so that one input cannot end the
// program's run.
const maxStalls = 3

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
	// Either must pass ValidName.
	Name string
	// Timeout bounds each check (sending the request and reading the
	// answer); 0 means DefaultTimeout. A batch request of n questions gets
	// BatchTimeout(Timeout, n), the sum of its questions' timeouts.
	Timeout time.Duration
	// StartTimeout bounds each start, up to the hello's answer; 0 means
	// DefaultStartTimeout, or Timeout when that is longer.
	StartTimeout time.Duration
	// Dir is the program's working directory; empty means the current one.
	Dir string
	// Env is added to the program's environment.
	Env []string
	// Procs is the most copies of the program run at once, for callers
	// that call Check and CheckBatch from several goroutines; 0 means 1.
	// A copy is started only when that many checks are in flight. A
	// program with the capability clock runs once, since its sessions live
	// in its cache.
	Procs int
	// MaxStalls is how many inputs in a row may go unanswered within the
	// timeout before Exec stops asking the program: 0 means 3, a negative
	// number never.
	MaxStalls int
}

// Exec is a parser run as a long-lived external program that speaks the
// reptest/1 protocol over its standard input and output: a hello line,
// then one JSON request per line, each answered by one JSON line, in
// order (see peers/README.md).
//
// The program runs as "sh -c COMMAND" in a process group of its own. When
// it exits, stays silent past the timeout, answers a line that is not JSON,
// answers another request's id or a line longer than MaxLine, the check is
// an error that quotes the end of its standard error, the whole process
// group is killed and reaped, and the next check starts the program
// afresh: one bad input costs one check. An answer that repeats the id of
// an earlier request is dropped, so a duplicate is not taken for the next
// check's answer. An {"id":…,"error":…} answer or an unknown verdict is an
// error of that check alone. After three failed starts in a row, or three
// inputs in a row without an answer within the timeout (MaxStalls), Exec stops
// starting or asking the program and fails each later check at once with
// that reason, so a run always completes.
//
// Exec is safe for concurrent use. With ExecOptions.Procs above 1,
// concurrent checks go to separate copies of the program; otherwise they
// wait for each other.
type Exec struct {
	command string
	opts    ExecOptions
	info    result.Info
	batch   bool // the hello announced CapBatch

	// tail is the standard error of the program used last; it is read
	// without mu, so that a report never waits for a stuck check.
	tail   atomic.Pointer[tailBuffer]
	nextID atomic.Uint64
	slots  chan struct{} // a token per check in flight, at most Procs
	stop   func() bool   // ends the watch on NewExec's context

	mu          sync.Mutex
	idle        []*process
	busy        map[*process]bool
	starts      int // programs started, for tests
	failedRun   int // failed starts in a row
	lastFailure error
	stalls      int    // inputs in a row without an answer in time
	stallInput  uint64 // inputKey of the last of them
	lastStall   error
	closed      bool
}

// NewExec starts command and reads its hello, bounded by ctx and the
// start timeout. It returns an error when the program does not start or
// does not answer the hello. When ctx is done later the programs are
// stopped as by Close, so that a cancelled run leaves none behind; Close
// the parser to stop them otherwise.
func NewExec(ctx context.Context, command string, opts ExecOptions) (*Exec, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("exec: empty command")
	}
	if opts.Name != "" {
		if err := ValidName(opts.Name); err != nil {
			return nil, fmt.Errorf("exec: %w", err)
		}
	}
	label := opts.Name
	if label == "" {
		label = "exec"
	}
	e := &Exec{command: command, opts: opts, slots: make(chan struct{}, max(1, opts.Procs)), busy: map[*process]bool{}}
	p, info, batch, err := e.startOnce(ctx, label)
	if err != nil {
		return nil, err
	}
	e.info, e.batch, e.starts = info, batch, 1
	if info.Has(result.CapClock) {
		// Sessions live in one program's cache: no copies.
		e.slots = make(chan struct{}, 1)
	}
	e.idle = []*process{p}
	e.tail.Store(p.stderr)
	e.stop = context.AfterFunc(ctx, func() { e.Close() })
	return e, nil
}

// Info implements cases.Parser; it is what the first hello said.
func (e *Exec) Info() result.Info {
	info := e.info
	info.Capabilities = append([]result.Capability(nil), info.Capabilities...)
	return info
}

// StderrTail implements cases.Stderr: the last StderrKeep bytes that the
// program used last wrote to standard error. The standard error of a
// program that was stopped after a failure is in that check's error
// instead, so it is reported once.
func (e *Exec) StderrTail() string {
	if t := e.tail.Load(); t != nil {
		return t.String()
	}
	return ""
}

// Close stops the programs: it closes their standard input, gives them a
// moment to exit, then kills their process groups and reaps them. A check
// in flight fails; checks after Close fail.
func (e *Exec) Close() error {
	e.mu.Lock()
	e.closed = true
	idle, busy := e.idle, make([]*process, 0, len(e.busy))
	e.idle = nil
	for p := range e.busy {
		busy = append(busy, p)
	}
	e.mu.Unlock()
	if e.stop != nil {
		e.stop()
	}
	for _, p := range busy {
		p.kill()
	}
	for _, p := range idle {
		p.close()
	}
	return nil
}

// Check implements cases.Parser.
func (e *Exec) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	v, _, err := e.CheckDetail(ctx, req)
	return v, err
}

// CheckDetail implements cases.Detailer: Check, and the program's
// "detail" of a reject or an error answer.
func (e *Exec) CheckDetail(ctx context.Context, req cases.Request) (result.Verdict, string, error) {
	if err := e.accepts(req); err != nil {
		return "", "", err
	}
	a, raw, id, err := e.exchange(ctx, req, nil)
	if err != nil {
		return "", "", err
	}
	v, err := verdictOf(a.Verdict, a.Error, a.Detail, raw)
	if err != nil {
		return "", a.Detail, fmt.Errorf("%s: request %s: %w", e.info.Name, id, err)
	}
	if v != result.Reject {
		return v, "", nil
	}
	return v, a.Detail, nil
}

// accepts returns an error for a request the program cannot take.
func (e *Exec) accepts(req cases.Request) error {
	kind := req.Kind()
	if !e.info.Has(kind) || req.Session != "" && !e.info.Has(result.CapClock) {
		return fmt.Errorf("%s: %w: %s", e.info.Name, errCapability, kind)
	}
	return nil
}

// exchange sends one request (a batch when qs is not nil) and reads its
// answer, restarting, killing and counting failures as the type's comment
// says.
func (e *Exec) exchange(ctx context.Context, req cases.Request, qs []cases.Question, usage ...string) (answer, []byte, string, error) {
	id := strconv.FormatUint(e.nextID.Add(1), 10)
	line, err := encodeRequest(id, req, qs, usage...)
	if err != nil {
		return answer{}, nil, id, fmt.Errorf("%s: request %s: %w", e.info.Name, id, err)
	}
	p, err := e.acquire(ctx)
	if err != nil {
		return answer{}, nil, id, err
	}
	e.tail.Store(p.stderr)
	what := "request " + id
	out, err := p.roundTrip(ctx, line, BatchTimeout(timeoutOr(e.opts.Timeout), len(qs)), staleAnswer(id))
	if err != nil {
		return answer{}, nil, id, e.fail(ctx, p, what, err, inputKey(req))
	}
	var a answer
	if err := json.Unmarshal(out, &a); err != nil {
		return answer{}, nil, id, e.fail(ctx, p, what, fmt.Errorf("answered a line that is not a JSON object: %s", quoteShort(out, 200)), 0)
	}
	if got, ok := answerID(a.ID); !ok || got != id {
		return answer{}, nil, id, e.fail(ctx, p, what, fmt.Errorf("answered id %s to request %s", shortID(a.ID), id), 0)
	}
	e.release(p, true)
	return a, out, id, nil
}

// BatchTimeout is the time n questions about one body get together when
// each check gets timeout: the sum of their timeouts, whether they are
// sent in one batch request or one by one under a shared deadline. A
// parser that answers every question within the per-check timeout thus
// never overruns a batch, however busy the machine; one that hangs on a
// body costs up to n timeouts before its error. n below 1 counts as 1; a
// sum past the largest Duration is that.
func BatchTimeout(timeout time.Duration, n int) time.Duration {
	n = max(n, 1)
	if timeout > math.MaxInt64/time.Duration(n) {
		return math.MaxInt64
	}
	return timeout * time.Duration(n)
}

// shortID shows an answer's raw JSON id as it was written.
func shortID(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(none)"
	}
	if len(raw) > 60 {
		return string(raw[:60]) + "…"
	}
	return string(raw)
}

// staleAnswer returns the test for an answer line that repeats the id of
// a request before id: a duplicate answer, to be dropped.
func staleAnswer(id string) func([]byte) bool {
	cur, _ := strconv.ParseUint(id, 10, 64)
	return func(line []byte) bool {
		var a struct{ ID json.RawMessage }
		if json.Unmarshal(line, &a) != nil {
			return false
		}
		s, ok := answerID(a.ID)
		if !ok {
			return false
		}
		n, err := strconv.ParseUint(s, 10, 64)
		return err == nil && n > 0 && n < cur
	}
}

// acquire returns a program for one request, started when none is idle,
// and holds a slot until release.
func (e *Exec) acquire(ctx context.Context) (*process, error) {
	select {
	case e.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: waiting for a free program: %w", e.info.Name, ctx.Err())
	}
	p, err := e.take(ctx)
	if err != nil {
		<-e.slots
	}
	return p, err
}

func (e *Exec) take(ctx context.Context) (*process, error) {
	e.mu.Lock()
	if err := e.refusal(); err != nil {
		e.mu.Unlock()
		return nil, err
	}
	if n := len(e.idle); n > 0 {
		p := e.idle[n-1]
		e.idle = e.idle[:n-1]
		e.busy[p] = true
		e.mu.Unlock()
		return p, nil
	}
	e.mu.Unlock()
	p, _, _, err := e.startOnce(ctx, e.info.Name)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		if ctx.Err() == nil { // a cancelled start is not the program's failure
			e.failedRun++
			e.lastFailure = err
		}
		return nil, err
	}
	e.failedRun, e.lastFailure = 0, nil
	e.starts++
	if e.closed {
		p.kill()
		return nil, e.refusal()
	}
	e.busy[p] = true
	return p, nil
}

// refusal returns why no request may be sent, or nil. The caller holds mu.
func (e *Exec) refusal() error {
	name := e.info.Name
	switch {
	case e.closed:
		return fmt.Errorf("%s: the parser is closed", name)
	case e.failedRun >= maxFailedStarts:
		return fmt.Errorf("%s: not restarted after %d failed starts: %w", name, e.failedRun, e.lastFailure)
	case e.stalls >= e.maxStalls():
		return fmt.Errorf("%s: not asked again after %d inputs in a row without an answer: %w", name, e.stalls, e.lastStall)
	}
	return nil
}

func (e *Exec) maxStalls() int {
	switch n := e.opts.MaxStalls; {
	case n < 0:
		return int(^uint(0) >> 1)
	case n == 0:
		return maxStalls
	default:
		return n
	}
}

// release gives a program back after a request; an answered one (ok)
// becomes idle and ends a run of stalls, any other has been killed.
func (e *Exec) release(p *process, ok bool) {
	e.mu.Lock()
	delete(e.busy, p)
	if ok {
		e.stalls, e.lastStall = 0, nil
		if e.closed {
			defer p.close()
		} else {
			e.idle = append(e.idle, p)
		}
	}
	e.mu.Unlock()
	<-e.slots
}

// fail stops a program after a protocol failure and returns the check's
// error with the end of the program's standard error. A timeout of the
// program's own (not the caller's) counts towards maxStalls, unless it is
// on the same input (inputKey) as the stall before it.
func (e *Exec) fail(ctx context.Context, p *process, what string, err error, input uint64) error {
	tail := p.kill()
	e.tail.CompareAndSwap(p.stderr, nil)
	var st *stallError
	if errors.As(err, &st) && ctx.Err() == nil {
		e.mu.Lock()
		if e.stalls == 0 || input != e.stallInput {
			e.stalls++
		}
		e.stallInput = input
		e.lastStall = err
		e.mu.Unlock()
	}
	e.release(p, false)
	return fmt.Errorf("%s: %s: %w%s", e.info.Name, what, err, stderrNote(tail))
}

func stderrNote(tail string) string {
	if tail == "" {
		return " (nothing on stderr)"
	}
	return "; stderr:\n" + tail
}

// startOnce starts the program and reads its hello.
func (e *Exec) startOnce(ctx context.Context, label string) (*process, result.Info, bool, error) {
	p, err := startProcess(e.command, e.opts)
	if err != nil {
		return nil, result.Info{}, false, fmt.Errorf("%s: starting %q: %w", label, e.command, err)
	}
	line, err := json.Marshal(map[string]string{"hello": ProtocolHello})
	if err != nil {
		return nil, result.Info{}, false, err
	}
	out, err := p.roundTrip(ctx, append(line, '\n'), startTimeoutOr(e.opts.StartTimeout, e.opts.Timeout), nil)
	if err != nil {
		tail := p.kill()
		return nil, result.Info{}, false, fmt.Errorf("%s: hello: %w%s", label, err, stderrNote(tail))
	}
	info, batch, err := parseHello(out, e.opts.Name)
	if err != nil {
		tail := p.kill()
		return nil, result.Info{}, false, fmt.Errorf("%s: hello: %w%s", label, err, stderrNote(tail))
	}
	return p, info, batch, nil
}

// inputKey identifies the input of a request (its body, status and
// robots.txt URL) for counting stalls.
func inputKey(req cases.Request) uint64 {
	h := fnv.New64a()
	h.Write(req.Robots)
	fmt.Fprintf(h, "\x00%d\x00%s", req.Status, req.RobotsURL)
	return h.Sum64()
}
