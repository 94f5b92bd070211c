package cases

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/reptest/reptest/reference"
)

// Tracer is implemented by parsers that can say which line decided a
// verdict and why (the reference does). The runner uses it to check a
// case's `rule:` and to explain failures of other parsers.
type Tracer interface {
	Trace(ctx context.Context, req Request) (Explanation, error)
}

// Explanation is a Tracer's account of one request.
type Explanation struct {
	Verdict Verdict
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
	e := Explanation{Verdict: Disallow, Text: d.String(), Fetch: d.Fetch}
	if d.Allowed {
		e.Verdict = Allow
	}
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
	// server (default 1 s): a fault "timeout" costs this long.
	FetchTimeout time.Duration
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
	Results   []Result
	Summaries []Summary
}

// Run runs every check of every case against every parser (CASES.md §2).
// It never stops because a parser crashed, hung or answered nonsense: such
// checks end in the error outcome and the run goes on. It returns early
// only when ctx is cancelled, with the results so far and ctx's error.
func Run(ctx context.Context, cs []Case, parsers []Parser, opts RunOptions) (Report, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.FetchTimeout <= 0 {
		opts.FetchTimeout = time.Second
	}
	r := &runner{opts: opts, parsers: make([]*parserState, len(parsers))}
	for i, p := range parsers {
		r.parsers[i] = &parserState{Parser: p, info: p.Info()}
	}
	var srv *Server
	defer func() {
		if srv != nil {
			srv.Close()
		}
	}()
	for i := range cs {
		if err := ctx.Err(); err != nil {
			return r.report(), err
		}
		c := &cs[i]
		if (len(c.Fetch) > 0 || len(c.Timeline) > 0) && srv == nil {
			srv = NewServer()
			r.client = srv.Client(opts.FetchTimeout)
		}
		r.srv = srv
		r.runCase(ctx, c)
		if opts.Progress != nil {
			opts.Progress(i+1, len(cs))
		}
	}
	return r.report(), nil
}

type runner struct {
	opts    RunOptions
	parsers []*parserState
	srv     *Server
	client  *http.Client
	results []Result
	// sessions counts timeline sessions started.
	sessions int
}

type parserState struct {
	Parser
	info Info
	// dead is set once a check hung: the parser may still be running it,
	// and must not be called again.
	dead string
}

func (r *runner) report() Report {
	rep := Report{Results: r.results}
	for _, p := range r.parsers {
		s := Summary{Name: p.info.Name, Version: p.info.Version, Runtime: p.info.Runtime}
		for _, res := range r.results {
			if res.Parser == p.info.Name {
				s.Add(res.Outcome)
			}
		}
		s.Judge(r.opts.Strict)
		rep.Summaries = append(rep.Summaries, s)
	}
	return rep
}

// runCase runs one case on every parser.
func (r *runner) runCase(ctx context.Context, c *Case) {
	switch {
	case len(c.Timeline) > 0:
		r.runTimeline(ctx, c)
	case len(c.Fetch) > 0:
		if err := r.srv.Serve(c.Fetch); err != nil {
			r.failCase(c, 0, err)
			return
		}
		for i, chk := range c.Checks {
			ex := r.explainFetch(ctx, c, &chk)
			for _, p := range r.parsers {
				req, skip := r.fetchRequest(ctx, c, &chk, p)
				r.check(ctx, c, i, &chk, p, req, skip, "", ex)
			}
		}
	default:
		for i, chk := range c.Checks {
			ex := r.explain(ctx, Request{Case: c.ID, Profile: c.Profile, Agent: chk.Agent, URL: chk.URL, Robots: c.Robots})
			for _, p := range r.parsers {
				req := Request{Case: c.ID, Profile: c.Profile, Agent: chk.Agent, URL: chk.URL, Robots: c.Robots}
				skip := ""
				switch {
				case p.info.Has(CapParse):
				case p.info.Has(CapStatus):
					req.Status = http.StatusOK
				default:
					skip = "the parser takes neither a body (parse) nor a status and body (status)"
				}
				r.check(ctx, c, i, &chk, p, req, skip, "", ex)
			}
		}
	}
}

// recorded is what the explainer said of one check, as results record it.
type recorded struct {
	trace          string
	line, response int
}

// explain asks the explainer about a check once, for every parser's
// result; nil when there is no explainer.
func (r *runner) explain(ctx context.Context, req Request) *recorded {
	if r.opts.Explain == nil {
		return nil
	}
	e, err := r.opts.Explain.Trace(ctx, req)
	if err != nil {
		return &recorded{trace: err.Error()}
	}
	return &recorded{trace: e.Text, line: e.Line}
}

// explainFetch explains a check of an HTTP case, fetching from the test
// server, and finds the served response whose body decided.
func (r *runner) explainFetch(ctx context.Context, c *Case, chk *Check) *recorded {
	if r.opts.Explain == nil {
		return nil
	}
	req := Request{Case: c.ID, Profile: c.Profile, Agent: chk.Agent, URL: chk.URL, Client: r.client}
	robotsURL, err := reference.RobotsURL(chk.URL)
	if err == nil {
		req.RobotsURL, err = r.srv.External(robotsURL)
	}
	if err != nil {
		return &recorded{trace: err.Error()}
	}
	e, err := r.opts.Explain.Trace(ctx, req)
	if err != nil {
		return &recorded{trace: err.Error()}
	}
	rec := &recorded{trace: e.Text, line: e.Line}
	if e.Line > 0 && e.Fetch != nil && len(e.Fetch.Hops) > 0 {
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

// failCase records an error for every check of c from index from on.
func (r *runner) failCase(c *Case, from int, err error) {
	for i, chk := range c.AllChecks() {
		if i < from {
			continue
		}
		for _, p := range r.parsers {
			r.add(c, i, chk, p.info.Name, "", Error, "case could not be served: "+err.Error(), "")
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
	req := Request{Case: c.ID, Profile: c.Profile, Agent: chk.Agent, URL: chk.URL}
	robotsURL, err := reference.RobotsURL(chk.URL)
	if err != nil {
		return req, "the check's URL has no robots.txt: " + err.Error()
	}
	switch {
	case p.info.Has(CapFetch):
		// In-process parsers use the client and the check's URL; external
		// programs fetch the loopback URL.
		ext, err := r.srv.External(robotsURL)
		if err != nil {
			return req, err.Error()
		}
		req.Client, req.RobotsURL = r.client, ext
		return req, ""
	case p.info.Has(CapStatus):
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
		if err := r.srv.Serve([]Response{st.Response}); err != nil {
			r.failCase(c, idx, err)
			return
		}
		if len(st.Checks) == 0 {
			r.fetchOnly(ctx, c, session, start.Add(st.At), st.Response.URL)
		}
		for i := range st.Checks {
			chk := &st.Checks[i]
			base := Request{Case: c.ID, Profile: c.Profile, Agent: chk.Agent, URL: chk.URL,
				Client: r.client, Now: start.Add(st.At)}
			u, err := reference.RobotsURL(chk.URL)
			if err == nil {
				base.RobotsURL, err = r.srv.External(u)
			}
			// The explainer keeps a session of its own and is asked at
			// every step, so that its cache has seen the same fetches as
			// the parsers' when it explains a failure.
			var ex *recorded
			if r.opts.Explain != nil && err == nil {
				ereq := base
				ereq.Session = session + "/explain"
				if e, terr := r.opts.Explain.Trace(ctx, ereq); terr == nil {
					ex = &recorded{trace: e.Text, line: e.Line}
					if e.Line > 0 && e.Fetch != nil {
						ex.response = stepAt(c, start, e.Fetch.FetchedAt)
					}
				}
			}
			for _, p := range r.parsers {
				req := base
				req.Session = session + "/" + p.info.Name
				skip := ""
				if !p.info.Has(CapClock) || !p.info.Has(CapFetch) {
					skip = "a timeline case needs a parser that fetches and caches on the runner's clock (capabilities fetch and clock)"
				} else if err != nil {
					skip = err.Error()
				}
				r.check(ctx, c, idx, chk, p, req, skip, formatAt(st.At), ex)
			}
			idx++
		}
	}
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
	base := Request{Case: c.ID, Profile: c.Profile, Agent: "reptest", URL: origin + "/", Client: r.client, Now: now}
	if base.RobotsURL, err = r.srv.External(origin + "/robots.txt"); err != nil {
		return
	}
	for _, p := range r.parsers {
		if p.dead == "" && p.info.Has(CapClock) && p.info.Has(CapFetch) {
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

func formatAt(d time.Duration) string {
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

// check puts one request to one parser and records the outcome with ex,
// the explainer's account of the check (nil when there is none).
func (r *runner) check(ctx context.Context, c *Case, idx int, chk *Check, p *parserState, req Request, skip, step string, rec *recorded) {
	// Every path below adds exactly one result; it records rec.
	defer func() {
		if rec != nil {
			res := &r.results[len(r.results)-1]
			res.Trace, res.Line, res.Response = rec.trace, rec.line, rec.response
		}
	}()
	name := p.info.Name
	if chk.Invalid != "" {
		skip = chk.Invalid
	}
	if skip != "" {
		r.add(c, idx, chk, name, "", Skipped, skip, step)
		return
	}
	if p.dead != "" {
		r.add(c, idx, chk, name, "", Error, p.dead, step)
		return
	}
	v, ex, err := r.ask(ctx, p, req)
	if err != nil {
		detail := err.Error()
		if se, ok := p.Parser.(Stderr); ok {
			if tail := se.StderrTail(); tail != "" {
				detail += "\nstderr:\n" + tail
			}
		}
		r.add(c, idx, chk, name, "", Error, detail, step)
		return
	}
	if v != Allow && v != Disallow && v != Reject {
		r.add(c, idx, chk, name, v, Error, fmt.Sprintf("the answer %q is not a verdict", v), step)
		return
	}
	out := OutcomeOf(c.Level, chk.Expect, chk.Accept, v)
	detail := ""
	if out == Pass && chk.Rule != nil && ex != nil && !ex.decidedAt(*chk.Rule) {
		out = OutcomeOf(c.Level, chk.Expect, nil, "")
		detail = fmt.Sprintf("right verdict, but %s; the case expects %s", decidedBy(ex.Line), decidedBy(*chk.Rule))
	}
	r.add(c, idx, chk, name, v, out, detail, step)
}

// ask calls the parser with the per-check timeout, recovering from a
// panic. The explanation is nil when the parser is not a Tracer.
func (r *runner) ask(ctx context.Context, p *parserState, req Request) (Verdict, *Explanation, error) {
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	type answer struct {
		v   Verdict
		ex  *Explanation
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		defer func() {
			if x := recover(); x != nil {
				ch <- answer{err: fmt.Errorf("the parser panicked: %v\n%s", x, firstLines(string(debug.Stack()), 12))}
			}
		}()
		if t, ok := p.Parser.(Tracer); ok {
			ex, err := t.Trace(ctx, req)
			ch <- answer{ex.Verdict, &ex, err}
			return
		}
		v, err := p.Check(ctx, req)
		ch <- answer{v, nil, err}
	}()
	select {
	case a := <-ch:
		return a.v, a.ex, a.err
	case <-ctx.Done():
		p.dead = fmt.Sprintf("the parser did not answer within %s on an earlier check and was not called again", r.opts.Timeout)
		return "", nil, fmt.Errorf("no answer within %s", r.opts.Timeout)
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func (r *runner) add(c *Case, idx int, chk *Check, parser string, v Verdict, o Outcome, detail, step string) *Result {
	r.results = append(r.results, Result{
		Case: c.ID, Check: idx, Parser: parser, Agent: chk.Agent, URL: chk.URL,
		Expect: chk.Expect, Accept: chk.Accept, Verdict: v, Outcome: o, Level: c.Level,
		Req: c.Req, Profile: c.Profile, Title: c.Title, Rule: chk.Rule, Detail: detail, Step: step,
	})
	return &r.results[len(r.results)-1]
}
