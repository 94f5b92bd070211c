package parsers

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// WorkerEnv is the environment variable that makes a binary a worker:
// ServeWorkerIfAsked then serves the in-process parser it names.
const WorkerEnv = "REPTEST_WORKER"

// DefaultWorkerMemory is the memory a worker may use before it stops
// itself, failing the check it was on.
const DefaultWorkerMemory = 1 << 30

// Bounds of the in-process fast path of an isolated library: checks
// within all of them run in the calling process. The libraries' cost grows
// with the rules times the length of the path, and temoto's with the cube
// of the "*" of a rule that fails to match a long path (0.2 s for 800
// against 3,200 bytes, minutes for 3,000), so a small body with few
// wildcards and a short URL bounds a check; anything else goes to the
// worker.
// BenchmarkFastPathBound measures the worst shapes found at the bounds: at
// most about 30 ms and 21 MB per check (a 256 KiB body of literal rules
// is 18 ms and 5 MB of temoto's parse; 64 "*" against a 2 KiB URL, 5 ms).
// grobotstxt has bounds of its own (Grobotstxt.checkWithin).
const (
	fastBody  = 256 << 10
	fastStars = 64
	fastURL   = 2 << 10
	fastAgent = 1 << 10
)

// ServeWorkerIfAsked makes this process a worker when the environment
// variable WorkerEnv names an in-process library (grobotstxt, temoto): it
// serves that parser over the reptest/1 protocol on standard input and
// output, bounded by the memory the environment gives, and exits. It
// returns at once otherwise. A program that sets Options.Isolate must call
// it first thing in main (and a test binary in TestMain), since the
// workers are that program run again.
func ServeWorkerIfAsked() {
	name := os.Getenv(WorkerEnv)
	if name == "" {
		return
	}
	p := libraries()[name]
	if p == nil {
		fmt.Fprintf(os.Stderr, "reptest worker: %s=%q names no in-process library\n", WorkerEnv, name)
		os.Exit(2)
	}
	limit := int64(DefaultWorkerMemory)
	fmt.Sscan(os.Getenv(WorkerEnv+"_MEMORY"), &limit)
	go watchMemory(limit)
	if err := Serve(context.Background(), &lastBody{lib: p}, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "reptest worker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// libraries returns the in-process libraries a worker can serve.
func libraries() map[string]cases.Parser {
	return map[string]cases.Parser{"grobotstxt": NewGrobotstxt(), "temoto": NewTemoto()}
}

// answerer answers questions about one body the library has read.
type answerer func(cases.Question) (result.Verdict, error)

// answerAll asks a every question.
func answerAll(a answerer, qs []cases.Question) ([]result.Verdict, []error) {
	vs := make([]result.Verdict, len(qs))
	errs := make([]error, len(qs))
	for i, q := range qs {
		vs[i], errs[i] = a(q)
	}
	return vs, errs
}

// preparer is an in-process library that reads a body once for any
// number of questions: prepare returns the answerer of req's questions.
type preparer interface {
	prepare(req cases.Request) answerer
}

// lastBody serves a worker's library: Exec sends a body's questions
// BatchPart at a time, each request with the body again, and lastBody
// answers a batch about the body of the batch before from the same read
// (a 90 KB body with 400 probes was parsed 25 times). It keeps one body,
// the worker's memory bound covers it, and it is used from one goroutine
// (Serve's).
type lastBody struct {
	lib  cases.Parser
	req  cases.Request // the last batch's, of which only the body counts
	last answerer
}

func (l *lastBody) Info() result.Info { return l.lib.Info() }

func (l *lastBody) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	return l.lib.Check(ctx, req)
}

// CheckBatch implements cases.Batcher.
func (l *lastBody) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	p, ok := l.lib.(preparer)
	if !ok {
		return checkBatch(ctx, l.lib, req, qs)
	}
	if l.last == nil || !sameBody(l.req, req) {
		l.req, l.last = req, p.prepare(req)
	}
	return answerAll(l.last, qs)
}

// sameBody reports whether two requests ask about the same body in the
// same way: a library's reading depends on nothing else.
func sameBody(a, b cases.Request) bool {
	return a.Kind() == b.Kind() && a.Status == b.Status && a.Profile == b.Profile && bytes.Equal(a.Robots, b.Robots)
}

// watchMemory stops the worker when the memory the Go runtime holds passes
// limit: the soft limit makes the collector work harder first, the exit
// fails the check that was running, and the adapter starts a new worker
// for the next one.
func watchMemory(limit int64) {
	debug.SetMemoryLimit(limit * 3 / 4)
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	for range time.Tick(20 * time.Millisecond) {
		metrics.Read(sample)
		if used := sample[0].Value.Uint64(); used > uint64(limit) {
			fmt.Fprintf(os.Stderr, "reptest worker: memory limit exceeded: %d MiB in use, the limit is %d MiB\n", used>>20, limit>>20)
			os.Exit(3)
		}
	}
}

// Isolated runs an in-process library so that a check's timeout is real
// and its memory bounded: checks on large bodies, many wildcards or long
// URLs go to a worker process (the running binary started again, see
// ServeWorkerIfAsked) over the reptest/1 protocol, and a worker that runs
// past the timeout or its memory is killed, failing that check only; the
// next starts a new worker. Small checks, whose cost is bounded, run in
// process. Verdicts are the library's either way.
//
// Isolated is safe for concurrent use; it runs up to Options.Procs
// workers at once.
type Isolated struct {
	lib     cases.Parser
	command string
	opts    ExecOptions
	life    context.Context // bounds the workers' lives (see New)

	mu     sync.Mutex
	worker *Exec
	err    error // the worker's failure to start
}

// newIsolated returns the isolated form of lib.
func newIsolated(ctx context.Context, lib cases.Parser, opts Options) (*Isolated, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("%s: finding this program to run its worker: %w", lib.Info().Name, err)
	}
	mem := opts.WorkerMemory
	if mem <= 0 {
		mem = DefaultWorkerMemory
	}
	name := lib.Info().Name
	return &Isolated{lib: lib, command: "exec " + shellQuote(exe), life: ctx, opts: ExecOptions{
		Name: name, Timeout: opts.Timeout, StartTimeout: opts.StartTimeout, Procs: opts.Procs, MaxStalls: -1,
		Env: []string{WorkerEnv + "=" + name, fmt.Sprintf("%s_MEMORY=%d", WorkerEnv, mem)},
	}}, nil
}

// Info implements cases.Parser: the library's.
func (i *Isolated) Info() result.Info { return i.lib.Info() }

// Check implements cases.Parser.
func (i *Isolated) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	if _, ok := i.lib.(splitter); ok {
		vs, errs := i.CheckBatch(ctx, req, []cases.Question{{Agent: req.Agent, URL: req.URL}})
		return vs[0], errs[0]
	}
	if fast(req, nil) {
		return i.lib.Check(ctx, req)
	}
	w, err := i.start()
	if err != nil {
		return "", err
	}
	return w.Check(ctx, req)
}

// CheckBatch implements cases.Batcher.
func (i *Isolated) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	if s, ok := i.lib.(splitter); ok {
		vs, errs, rest := s.checkWithin(ctx, req, qs)
		if len(rest) == 0 {
			return vs, errs
		}
		sub := make([]cases.Question, len(rest))
		for k, n := range rest {
			sub[k] = qs[n]
		}
		wvs, werrs := i.inWorker(ctx, req, sub)
		for k, n := range rest {
			vs[n], errs[n] = wvs[k], werrs[k]
		}
		return vs, errs
	}
	if fast(req, qs) {
		return checkBatch(ctx, i.lib, req, qs)
	}
	return i.inWorker(ctx, req, qs)
}

// inWorker asks the worker, starting it if need be.
func (i *Isolated) inWorker(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	w, err := i.start()
	if err != nil {
		errs := make([]error, len(qs))
		fillErr(errs, err)
		return make([]result.Verdict, len(qs)), errs
	}
	return w.CheckBatch(ctx, req, qs)
}

// splitter is an in-process library that can bound the cost of each
// question once it has read the body, which costs no more than a
// linear pass over a body of bounded size: it answers the questions
// within its bounds and leaves the others (their indexes in rest) to the
// worker.
type splitter interface {
	checkWithin(ctx context.Context, req cases.Request, qs []cases.Question) (vs []result.Verdict, errs []error, rest []int)
}

// Bounds of grobotstxt in process. Its parse is one pass over the body
// and its matching of one question, with the adapter's match strategy,
// costs at most the path's length (three octets per octet of the URL,
// for the library's escaping, plus one) times the wildcard weight of the
// file (parseEvents.wildcardWeight), plus prefix tests; so a body up to
// grobotBody is read in process, and a question whose matching bound
// passes grobotSteps goes to the worker.
// BenchmarkGrobotstxtBound measures the worst shapes at these bounds.
const (
	grobotBody  = 1 << 20
	grobotSteps = 1 << 25
)

// checkWithin implements splitter.
func (g *Grobotstxt) checkWithin(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error, []int) {
	if req.Kind() != result.CapParse {
		vs, errs := eachCheck(ctx, g, req, qs) // the capability's error
		return vs, errs, nil
	}
	vs := make([]result.Verdict, len(qs))
	errs := make([]error, len(qs))
	if len(req.Robots) > grobotBody {
		rest := make([]int, len(qs))
		for n := range rest {
			rest[n] = n
		}
		return vs, errs, rest
	}
	events, err := recordParse(string(req.Robots))
	if err != nil {
		fillErr(errs, err)
		return vs, errs, nil
	}
	var rest []int
	weight := events.wildcardWeight()
	for n, q := range qs {
		if weight > 0 && weight*(3*len(q.URL)+1) > grobotSteps {
			rest = append(rest, n)
			continue
		}
		vs[n], errs[n] = events.decide(q.Agent, q.URL)
	}
	return vs, errs, rest
}

// StderrTail implements cases.Stderr: the worker's.
func (i *Isolated) StderrTail() string {
	i.mu.Lock()
	w := i.worker
	i.mu.Unlock()
	if w == nil {
		return ""
	}
	return w.StderrTail()
}

// Close stops the workers.
func (i *Isolated) Close() error {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.worker != nil {
		i.worker.Close()
	}
	i.err = fmt.Errorf("%s: the parser is closed", i.lib.Info().Name)
	return nil
}

// start returns the worker adapter, started on first use.
func (i *Isolated) start() (*Exec, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.worker != nil || i.err != nil {
		return i.worker, i.err
	}
	w, err := NewExec(i.life, i.command, i.opts)
	if err != nil {
		i.err = fmt.Errorf("%s: starting its worker: %w", i.lib.Info().Name, err)
		return nil, i.err
	}
	i.worker = w
	return w, nil
}

// fast reports whether a check (or a batch, with qs) is within the bounds
// of the in-process fast path.
func fast(req cases.Request, qs []cases.Question) bool {
	if len(req.Robots) > fastBody || bytes.Count(req.Robots, []byte("*")) > fastStars {
		return false
	}
	if qs == nil {
		return len(req.URL) <= fastURL && len(req.Agent) <= fastAgent
	}
	for _, q := range qs {
		if len(q.URL) > fastURL || len(q.Agent) > fastAgent {
			return false
		}
	}
	return true
}

// Concurrent implements cases.Concurrent: small checks run in process,
// which keeps no state, and the others on up to Options.Procs workers.
func (i *Isolated) Concurrent() bool { return true }
