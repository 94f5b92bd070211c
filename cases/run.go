package cases

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// Tracer is implemented by parsers that can say which line decided a
// verdict and why (the reference does). The runner uses it to check a
// case's `rule:` and to explain failures of other parsers.
type Tracer interface {
	Trace(ctx context.Context, req Request) (Explanation, error)
}

// Explanation is a Tracer's account of one request.
type Explanation struct {
	Verdict result.Verdict
	// Line is the 1-based line of the deciding rule, 0 when no rule
	// decided.
	Line int
	// Ties lists the lines of other rules that decide the same way (same
	// kind and length, also matching); a case's rule: may name any of
	// them.
	Ties []int
	// Text explains the decision in one line.
	Text string
	// Fetch says how a fetching tracer obtained the file; nil otherwise.
	Fetch *reference.FetchInfo
}

// ExplainDecision turns a reference decision into an Explanation.
func ExplainDecision(d reference.Decision) Explanation {
	e := Explanation{Verdict: result.VerdictOf(d.Allowed), Text: d.String(), Fetch: d.Fetch}
	if d.Reason == reference.RuleMatched {
		e.Line, e.Ties = d.Rule.Line, d.Ties
	}
	return e
}

// decidedAt reports whether the explanation's deciding rule, or one that
// ties with it, is at line.
func (e *Explanation) decidedAt(line int) bool {
	return e.Line == line || slices.Contains(e.Ties, line)
}

// RunOptions configures Run. The zero value is usable.
type RunOptions struct {
	// Strict makes deviations count against conformance.
	Strict bool
	// Timeout bounds each check (default 10 s). A parser that does not
	// answer in time gets an error outcome and no further checks.
	Timeout time.Duration
	// FetchTimeout is the HTTP client timeout of fetches from the test
	// server in a case (or timeline step) whose server stalls on purpose,
	// with a fault "timeout" or a delayed body (DefaultFetchTimeout): the
	// stall costs this long. Other fetches may take up to a quarter of
	// Timeout, so that a loaded machine does not turn them into timeouts.
	FetchTimeout time.Duration
	// Workers is the number of cases run at once when every parser is
	// Concurrent (DefaultWorkers when 0); 1 runs them one by one.
	Workers int
	// Explain, when set, explains each failed check with the expected
	// verdict's trace (normally the reference).
	Explain Tracer
	// Progress, when set, is called after each case with the number of
	// cases done and the total.
	Progress func(done, total int)
}

// Report is what Run returns: one Result per check per parser, in case
// order, then check order, then parser order; and one Summary per parser.
type Report struct {
	Results   []result.Result
	Summaries []result.Summary
}

// Run runs every check of every case against every parser (docs/FORMAT.md §2).
// It never stops because a parser crashed, hung or answered nonsense: such
// checks end in the error outcome and the run goes on. It returns early
// only when ctx is cancelled, with the results so far and ctx's error.
//
// When every parser (and the explainer) is Concurrent, cases run in
// parallel (RunOptions.Workers), each worker with a test server of its
// own; the results are in case order all the same.
func Run(ctx context.Context, cs []Case, parsers []Parser, opts RunOptions) (Report, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.FetchTimeout <= 0 {
		opts.FetchTimeout = DefaultFetchTimeout
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = DefaultWorkers
	}
	if !concurrent(parsers, opts.Explain) {
		workers = 1
	}
	workers = max(1, min(workers, len(cs)))
	results := make([][]result.Result, len(cs))
	next := make(chan int)
	var (
		mu   sync.Mutex
		done int
		wg   sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newRunner(parsers, opts)
			defer r.close()
			for i := range next {
				if ctx.Err() != nil {
					continue
				}
				results[i] = r.runOne(ctx, &cs[i])
				mu.Lock()
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(cs))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range cs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	err := ctx.Err()
	r := newRunner(parsers, opts)
	for _, res := range results {
		r.results = append(r.results, res...)
	}
	return r.report(), err
}

// DefaultFetchTimeout is the HTTP client timeout of fetches from the test
// server when RunOptions.FetchTimeout is 0.
const DefaultFetchTimeout = 300 * time.Millisecond

// DefaultWorkers is the number of cases run at once, when the parsers
// allow it and RunOptions.Workers is 0. Most of a parallel case's time is
// spent waiting out a timeout, not computing, so it is more than the
// number of cores.
const DefaultWorkers = 8

// concurrent reports whether every parser, and the explainer, may be
// asked from several goroutines at once.
func concurrent(parsers []Parser, explain Tracer) bool {
	for _, p := range parsers {
		if c, ok := p.(Concurrent); !ok || !c.Concurrent() {
			return false
		}
	}
	if explain != nil {
		if c, ok := explain.(Concurrent); !ok || !c.Concurrent() {
			return false
		}
	}
	return true
}

// newRunner returns a runner of its own for one worker: parser states, a
// test server started when a case needs one.
func newRunner(parsers []Parser, opts RunOptions) *runner {
	r := &runner{opts: opts, parsers: make([]*parserState, len(parsers))}
	for i, p := range parsers {
		r.parsers[i] = &parserState{Parser: p, info: p.Info()}
	}
	return r
}

// runOne runs one case and returns its results.
func (r *runner) runOne(ctx context.Context, c *Case) []result.Result {
	if (len(c.Fetch) > 0 || len(c.Timeline) > 0) && r.srv == nil {
		r.srv = NewServer()
		// The server holds a timed-out connection for half the check
		// timeout: longer than the runner's own client waits, shorter
		// than a parser that waits the server out may take to answer.
		r.srv.hold = max(r.opts.Timeout/2, 2*r.opts.FetchTimeout)
		r.hasty = r.srv.Client(r.opts.FetchTimeout)
		r.patient = r.srv.Client(r.srv.hold / 2)
	}
	r.results = nil
	r.runCase(ctx, c)
	return r.results
}

// clientFor returns the client for fetches of the responses: the hasty
// one when one of them stalls (a timeout fault, a delayed body), so that
// the stall costs FetchTimeout; the patient one otherwise.
func (r *runner) clientFor(rs ...Response) *http.Client {
	for _, resp := range rs {
		if resp.Fault == "timeout" || resp.Delay > 0 {
			return r.hasty
		}
	}
	return r.patient
}

func (r *runner) close() {
	if r.srv != nil {
		r.srv.Close()
	}
}

type runner struct {
	opts    RunOptions
	parsers []*parserState
	srv     *Server
	client  *http.Client
	// hasty gives up after FetchTimeout, for cases whose server stalls
	// on purpose; patient waits longer, so that on a loaded machine no
	// ordinary fetch is taken for a timeout. client is the one in use.
	hasty, patient *http.Client
	results        []result.Result
	// sessions counts timeline sessions started.
	sessions int
}

type parserState struct {
	Parser
	info result.Info
	// dead is set once a check hung: the parser may still be running it,
	// and must not be called again.
	dead string
}

func (r *runner) report() Report {
	rep := Report{Results: r.results}
	for _, p := range r.parsers {
		rep.Summaries = append(rep.Summaries, result.Summarize(result.Summary{Name: p.info.Name, Version: p.info.Version, Runtime: p.info.Runtime}, r.results, r.opts.Strict))
	}
	return rep
}

// runCase runs one case on every parser.
func (r *runner) runCase(ctx context.Context, c *Case) {
	switch {
	case len(c.Timeline) > 0:
		r.runTimeline(ctx, c)
	case len(c.Fetch) > 0:
		r.client = r.clientFor(c.Fetch...)
		if err := r.srv.Serve(c.Fetch); err != nil {
			r.failCase(c, 0, err)
			return
		}
		for i := range c.Checks {
			rec := r.explainFetch(ctx, c, &c.Checks[i])
			for _, p := range r.parsers {
				cr := checkRun{c: c, idx: i, chk: &c.Checks[i], rec: rec}
				cr.req, cr.skip = r.fetchRequest(ctx, c, cr.chk, p)
				r.check(ctx, p, cr)
			}
		}
	default:
		for i := range c.Checks {
			ereq := c.request(c.Checks[i].Agent, c.Checks[i].URL)
			ereq.Robots = c.Robots
			rec := r.explain(ctx, ereq)
			for _, p := range r.parsers {
				cr := checkRun{c: c, idx: i, chk: &c.Checks[i], rec: rec}
				cr.req = c.request(cr.chk.Agent, cr.chk.URL)
				cr.req.Robots = c.Robots
				switch {
				case p.info.Has(result.CapParse):
				case p.info.Has(result.CapStatus):
					cr.req.Status = http.StatusOK
				default:
					cr.skip = "the parser takes neither a body (parse) nor a status and body (status)"
				}
				r.check(ctx, p, cr)
			}
		}
	}
}

// recorded is what the explainer said of one check, as results record it.
type recorded struct {
	trace          string
	line, response int
}

// loopbackPort matches the test server's and the client's loopback
// addresses, which differ from run to run.
var loopbackPort = regexp.MustCompile(`(\b127\.0\.0\.1|\[::1\]):[0-9]+\b`)

// record keeps an explanation, or its error, for the results. Loopback
// ports are left out of the text, so that a run's results are the same
// each time.
func record(e Explanation, err error) *recorded {
	text := e.Text
	if err != nil {
		text, e = err.Error(), Explanation{}
	}
	return &recorded{trace: loopbackPort.ReplaceAllString(text, "$1"), line: e.Line}
}

// explain asks the explainer about a check once, for every parser's
// result; nil when there is no explainer.
func (r *runner) explain(ctx context.Context, req Request) *recorded {
	if r.opts.Explain == nil {
		return nil
	}
	return record(r.opts.Explain.Trace(ctx, req))
}

// explainFetch explains a check of an HTTP case, fetching from the test
// server, and finds the served response whose body decided.
func (r *runner) explainFetch(ctx context.Context, c *Case, chk *Check) *recorded {
	if r.opts.Explain == nil {
		return nil
	}
	req := c.request(chk.Agent, chk.URL)
	req.Client = r.client
	robotsURL, err := reference.RobotsURL(chk.URL)
	if err == nil {
		req.RobotsURL, err = r.srv.External(robotsURL)
	}
	if err != nil {
		return record(Explanation{}, err)
	}
	e, err := r.opts.Explain.Trace(ctx, req)
	rec := record(e, err)
	if err == nil && e.Line > 0 && e.Fetch != nil && len(e.Fetch.Hops) > 0 {
		final := e.Fetch.Hops[len(e.Fetch.Hops)-1].URL
		for i, resp := range c.Fetch {
			if strings.TrimSuffix(resp.URL, "/") == strings.TrimSuffix(final, "/") {
				rec.response = i + 1
				break
			}
		}
	}
	return rec
}

// stepAt returns the 1-based timeline step whose response was fetched at
// t: the last step at or before it (0 for none).
func stepAt(c *Case, start, t time.Time) int {
	n := 0
	for i, st := range c.Timeline {
		if !start.Add(st.At).After(t) {
			n = i + 1
		}
	}
	return n
}

// failCase records an error for every check of c from index from on.
func (r *runner) failCase(c *Case, from int, err error) {
	for i, chk := range c.AllChecks() {
		if i < from {
			continue
		}
		for _, p := range r.parsers {
			r.add(checkRun{c: c, idx: i, chk: chk}, p.info.Name, "", result.Error, "case could not be served: "+err.Error())
		}
	}
}

// AllChecks returns the case's checks, timeline steps included, in the
// order the runner numbers them (Result.Check).
func (c *Case) AllChecks() []*Check {
	var out []*Check
	for i := range c.Checks {
		out = append(out, &c.Checks[i])
	}
	for s := range c.Timeline {
		for i := range c.Timeline[s].Checks {
			out = append(out, &c.Timeline[s].Checks[i])
		}
	}
	return out
}

// fetchRequest builds the request of an HTTP check for parser p, or says
// why p cannot take it.
func (r *runner) fetchRequest(ctx context.Context, c *Case, chk *Check, p *parserState) (Request, string) {
	req := c.request(chk.Agent, chk.URL)
	robotsURL, err := reference.RobotsURL(chk.URL)
	if err != nil {
		return req, "the check's URL has no robots.txt: " + err.Error()
	}
	switch {
	case p.info.Has(result.CapFetch):
		// In-process parsers use the client and the check's URL; external
		// programs fetch the loopback URL.
		ext, err := r.srv.External(robotsURL)
		if err != nil {
			return req, err.Error()
		}
		req.Client, req.RobotsURL = r.client, ext
		return req, ""
	case p.info.Has(result.CapStatus):
		status, body, why := resolve(ctx, r.client, robotsURL)
		if why != "" {
			return req, "the parser cannot fetch (capability fetch) and " + why
		}
		req.Status, req.Robots = status, body
		return req, ""
	}
	return req, "the case is served over HTTP and the parser has neither the fetch nor the status capability"
}

// resolve fetches robotsURL for a parser that takes a status and a body:
// redirects are followed as the RFC asks (five at most), and the final
// status and body are returned. why is set when no status can be given:
// a network fault or too many redirects, which only a fetching parser
// can be tested on.
func resolve(ctx context.Context, client *http.Client, robotsURL string) (status int, body []byte, why string) {
	c := *client
	hops := 0
	c.CheckRedirect = func(*http.Request, []*http.Request) error {
		hops++
		if hops > 5 {
			return errTooManyRedirects
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
	if err != nil {
		return 0, nil, err.Error()
	}
	resp, err := c.Do(req)
	if err != nil {
		if errors.Is(err, errTooManyRedirects) {
			return 0, nil, "the file is behind more than five redirects"
		}
		return 0, nil, "the response is a network fault"
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, reference.KiB500+1))
	if err != nil {
		return 0, nil, "the body is cut short or too slow"
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return 0, nil, "the redirect cannot be followed"
	}
	return resp.StatusCode, body, ""
}

var errTooManyRedirects = errors.New("too many redirects")

// runTimeline runs a clocked case: at each step the server answers the
// step's response and the checks are made at the step's time, on one
// session per parser so that its cache carries over.
func (r *runner) runTimeline(ctx context.Context, c *Case) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	idx := 0
	// Case ids are unique, so the id names the session; the counter keeps
	// two runs of one case in one runner apart.
	r.sessions++
	session := fmt.Sprintf("%s#%d", c.ID, r.sessions)
	defer r.endSessions(session)
	for s := range c.Timeline {
		st := &c.Timeline[s]
		r.client = r.clientFor(st.Response)
		if err := r.srv.Serve([]Response{st.Response}); err != nil {
			r.failCase(c, idx, err)
			return
		}
		if len(st.Checks) == 0 {
			r.fetchOnly(ctx, c, session, start.Add(st.At), st.Response.URL)
		}
		for i := range st.Checks {
			chk := &st.Checks[i]
			base := c.request(chk.Agent, chk.URL)
			base.Client, base.Now = r.client, start.Add(st.At)
			u, err := reference.RobotsURL(chk.URL)
			if err == nil {
				base.RobotsURL, err = r.srv.External(u)
			}
			// The explainer keeps a session of its own and is asked at
			// every step, so that its cache has seen the same fetches as
			// the parsers' when it explains a failure.
			var rec *recorded
			if r.opts.Explain != nil && err == nil {
				ereq := base
				ereq.Session = session + "/explain"
				if e, terr := r.opts.Explain.Trace(ctx, ereq); terr == nil {
					rec = record(e, nil)
					if e.Line > 0 && e.Fetch != nil {
						rec.response = stepAt(c, start, e.Fetch.FetchedAt)
					}
				}
			}
			for _, p := range r.parsers {
				req := base
				req.Session = session + "/" + p.info.Name
				skip := ""
				if !p.info.Has(result.CapClock) || !p.info.Has(result.CapFetch) {
					skip = "a timeline case needs a parser that fetches and caches on the runner's clock (capabilities fetch and clock)"
				} else if err != nil {
					skip = err.Error()
				}
				r.check(ctx, p, checkRun{c: c, idx: idx, chk: chk, req: req, skip: skip, step: FormatAt(st.At), rec: rec})
			}
			idx++
		}
	}
}

// fetchOnly serves a timeline step without checks: every parser that
// keeps a clocked cache, and the explainer, is asked about the root of the
// step's origin, so that it fetches the file at the step's time (an
// outage that starts there is then seen to start there). The answers are
// not results.
func (r *runner) fetchOnly(ctx context.Context, c *Case, session string, now time.Time, robotsURL string) {
	origin, err := reference.Origin(robotsURL)
	if err != nil {
		return
	}
	base := c.request("reptest", origin+"/")
	base.Client, base.Now = r.client, now
	if base.RobotsURL, err = r.srv.External(origin + "/robots.txt"); err != nil {
		return
	}
	for _, p := range r.parsers {
		if p.dead == "" && p.info.Has(result.CapClock) && p.info.Has(result.CapFetch) {
			req := base
			req.Session = session + "/" + p.info.Name
			r.ask(ctx, p, req)
		}
	}
	if r.opts.Explain != nil {
		req := base
		req.Session = session + "/explain"
		r.opts.Explain.Trace(ctx, req)
	}
}

// endSessions ends a timeline case's sessions: each parser's and the
// explainer's.
func (r *runner) endSessions(session string) {
	for _, p := range r.parsers {
		if se, ok := p.Parser.(SessionEnder); ok {
			se.EndSession(session + "/" + p.info.Name)
		}
	}
	if se, ok := r.opts.Explain.(SessionEnder); ok {
		se.EndSession(session + "/explain")
	}
}

// decidedBy describes a deciding line as a case's rule: key gives it.
func decidedBy(line int) string {
	if line == 0 {
		return "no rule matched (rule: 0)"
	}
	return fmt.Sprintf("decided by line %d", line)
}

// FormatAt formats a timeline step's time as the corpus writes it:
// "25h", "7d", "24h0m1s".
func FormatAt(d time.Duration) string {
	if d%(24*time.Hour) == 0 && d != 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	s := d.String()
	s = strings.TrimSuffix(s, "0s")
	s = strings.TrimSuffix(s, "0m")
	if s == "" {
		return "0h"
	}
	return s
}

// request returns the request of a check of the case: its identity and
// the check's agent and URL. The caller adds what the parser is given (a
// body, a status, a URL to fetch, a client, a clock).
func (c *Case) request(agent, url string) Request {
	return Request{Case: c.ID, Profile: c.Profile, Agent: agent, URL: url}
}

// checkRun is one check of one case as put to a parser: the request, and
// what the runner records beside the answer.
type checkRun struct {
	c    *Case
	idx  int // the check's index among the case's (Result.Check)
	chk  *Check
	req  Request
	skip string // why the parser is not asked; "" to ask it
	step string // the timeline step's time; "" outside timelines
	// rec is the explainer's account of the check, recorded on every
	// parser's result; nil when there is no explainer.
	rec *recorded
}

// check puts one request to one parser and records the outcome.
func (r *runner) check(ctx context.Context, p *parserState, cr checkRun) {
	name := p.info.Name
	if cr.chk.Invalid != "" {
		cr.skip = cr.chk.Invalid
	}
	if cr.skip != "" {
		r.add(cr, name, "", result.Skipped, cr.skip)
		return
	}
	if p.dead != "" {
		r.add(cr, name, "", result.Error, p.dead)
		return
	}
	v, ex, said, err := r.ask(ctx, p, cr.req)
	// Every path below records one result; the parser's detail goes on it.
	defer func() {
		if said != "" {
			r.results[len(r.results)-1].ParserDetail = said
		}
	}()
	if err != nil {
		detail := err.Error()
		if se, ok := p.Parser.(Stderr); ok {
			if tail := se.StderrTail(); tail != "" {
				detail += "\nstderr:\n" + tail
			}
		}
		r.add(cr, name, "", result.Error, detail)
		return
	}
	if v != result.Allow && v != result.Disallow && v != result.Reject {
		r.add(cr, name, v, result.Error, fmt.Sprintf("the answer %q is not a verdict", v))
		return
	}
	c, chk := cr.c, cr.chk
	out := result.OutcomeOf(c.Level, chk.Expect, chk.Accept, v)
	detail := ""
	if out == result.Pass && chk.Rule != nil && ex != nil && !ex.decidedAt(*chk.Rule) {
		out = result.OutcomeOf(c.Level, chk.Expect, nil, "")
		detail = fmt.Sprintf("right verdict, but %s; the case expects %s", decidedBy(ex.Line), decidedBy(*chk.Rule))
	}
	var usage map[string]string
	out, detail, usage = r.checkUsage(ctx, c, chk, p, cr.req, out, detail)
	res := r.add(cr, name, v, out, detail)
	res.ExpectUsage, res.Usage = chk.Usage, usage
}

// ask calls the parser with the per-check timeout, recovering from a
// panic. The explanation is nil when the parser is not a Tracer; said is
// the parser's own detail when it is a Detailer.
func (r *runner) ask(run context.Context, p *parserState, req Request) (v result.Verdict, ex *Explanation, said string, err error) {
	ctx, cancel := context.WithTimeout(run, r.opts.Timeout)
	defer cancel()
	ch := make(chan answer, 1)
	go func() {
		defer func() {
			if x := recover(); x != nil {
				ch <- answer{err: fmt.Errorf("the parser panicked: %v\n%s", x, firstLines(string(debug.Stack()), 12))}
			}
		}()
		if t, ok := p.Parser.(Tracer); ok {
			ex, err := t.Trace(ctx, req)
			ch <- answer{ex.Verdict, &ex, "", err}
			return
		}
		if d, ok := p.Parser.(Detailer); ok {
			v, said, err := d.CheckDetail(ctx, req)
			ch <- answer{v, nil, said, err}
			return
		}
		v, err := p.Check(ctx, req)
		ch <- answer{v, nil, "", err}
	}()
	select {
	case a := <-ch:
		return a.v, a.ex, a.said, a.err
	case <-ctx.Done():
		if run.Err() != nil {
			return r.interrupted(run, p, ch)
		}
		p.dead = fmt.Sprintf("the parser did not answer within %s on an earlier check and was not called again", r.opts.Timeout)
		return "", nil, "", fmt.Errorf("no answer within %s", r.opts.Timeout)
	}
}

// answer is what a parser said to one request.
type answer struct {
	v    result.Verdict
	ex   *Explanation
	said string
	err  error
}

// interruptWait bounds how long an interrupted check may take to end (a
// --command kills its processes and removes its temporary file).
const interruptWait = 2 * time.Second

// interrupted records a check that the run's end cut short: it was not
// timed out, so it says so, and the parser is not asked again in this run.
// The parser gets a moment to end its work, so that nothing it would clean
// up is left behind when the process exits.
func (r *runner) interrupted(run context.Context, p *parserState, answered <-chan answer) (result.Verdict, *Explanation, string, error) {
	select {
	case <-answered:
	case <-time.After(interruptWait):
	}
	why := fmt.Sprintf("the run was interrupted (%v)", context.Cause(run))
	p.dead = "not asked: " + why
	return "", nil, "", errors.New(why)
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// add records the result of a check for the named parser.
func (r *runner) add(cr checkRun, parser string, v result.Verdict, o result.Outcome, detail string) *result.Result {
	c, chk := cr.c, cr.chk
	r.results = append(r.results, result.Result{
		Case: c.ID, Check: cr.idx, Parser: parser, Agent: chk.Agent, URL: chk.URL,
		Expect: chk.Expect, Accept: chk.Accept, Verdict: v, Outcome: o, Level: c.Level,
		Req: c.Req, Profile: c.Profile, Title: c.Title, Rule: chk.Rule, Detail: detail, Step: cr.step,
	})
	res := &r.results[len(r.results)-1]
	if cr.rec != nil {
		res.Trace, res.Line, res.Response = cr.rec.trace, cr.rec.line, cr.rec.response
	}
	return res
}
