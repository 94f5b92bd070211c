package cases

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// refParser is a minimal parser on the reference, with every capability.
type refParser struct {
	fetchers map[string]*reference.Fetcher
	now      time.Time
}

func (p *refParser) Info() result.Info {
	return result.Info{Name: "ref", Capabilities: []result.Capability{result.CapParse, result.CapStatus, result.CapFetch, result.CapClock}}
}

func (p *refParser) Check(ctx context.Context, req Request) (result.Verdict, error) {
	d, err := p.decide(ctx, req)
	if err != nil {
		return "", err
	}
	return verdictOf(d), nil
}

func verdictOf(d reference.Decision) result.Verdict {
	if d.Allowed {
		return result.Allow
	}
	return result.Disallow
}

func (p *refParser) decide(ctx context.Context, req Request) (d reference.Decision, err error) {
	switch req.Kind() {
	case result.CapFetch:
		f := &reference.Fetcher{Client: req.Client, Options: reference.RFC()}
		if req.Session != "" {
			if p.fetchers == nil {
				p.fetchers = map[string]*reference.Fetcher{}
			}
			if p.fetchers[req.Session] == nil {
				p.fetchers[req.Session] = &reference.Fetcher{Client: req.Client, Options: reference.RFC(), Now: func() time.Time { return p.now }}
			}
			f = p.fetchers[req.Session]
			p.now = req.Now
		}
		d, err = f.Decide(ctx, req.Agent, req.URL)
	case result.CapStatus:
		d, err = reference.FromStatus(req.Status, req.Robots, reference.RFC()).Decide(req.Agent, req.URL)
	default:
		d, err = reference.Parse(req.Robots, reference.RFC()).Decide(req.Agent, req.URL)
	}
	return d, err
}

// funcParser answers with a function; it takes parse requests only.
type funcParser struct {
	name string
	fn   func(Request) (result.Verdict, error)
}

func (p funcParser) Info() result.Info {
	return result.Info{Name: p.name, Capabilities: []result.Capability{result.CapParse}}
}
func (p funcParser) Check(_ context.Context, req Request) (result.Verdict, error) {
	return p.fn(req)
}

func outcomes(rep Report) map[string][]result.Outcome {
	m := map[string][]result.Outcome{}
	for _, r := range rep.Results {
		m[r.Parser] = append(m[r.Parser], r.Outcome)
	}
	return m
}

func TestRunOutcomes(t *testing.T) {
	one := 1
	c := []Case{{
		ID: "t/one", Level: result.MUST, Req: []string{"MATCH-1"}, Profile: result.ProfileRFC,
		Robots: []byte("User-agent: *\nDisallow: /a\n"),
		Checks: []Check{
			{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Disallow, Rule: &one},
			{Agent: "FooBot", URL: "https://example.com/b", Expect: result.Allow},
		},
	}, {
		ID: "t/should", Level: result.SHOULD, Req: []string{"MATCH-5"}, Profile: result.ProfileRFC,
		Robots: []byte("User-agent: *\nDisallow: /a\n"),
		Checks: []Check{{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Allow, Accept: []result.Verdict{result.Disallow}}},
	}}
	hang := make(chan struct{})
	defer close(hang)
	parsers := []Parser{
		&refParser{},
		funcParser{"always-allow", func(Request) (result.Verdict, error) { return result.Allow, nil }},
		funcParser{"rejects", func(Request) (result.Verdict, error) { return result.Reject, nil }},
		funcParser{"panics", func(Request) (result.Verdict, error) { panic("boom") }},
		funcParser{"hangs", func(Request) (result.Verdict, error) { <-hang; return result.Allow, nil }},
		funcParser{"garbage", func(Request) (result.Verdict, error) { return "maybe", nil }},
	}
	rep, err := Run(context.Background(), c, parsers, RunOptions{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]result.Outcome{
		"ref":          {result.Pass, result.Pass, result.Note},
		"always-allow": {result.Violation, result.Pass, result.Pass},
		"rejects":      {result.Violation, result.Violation, result.Deviation},
		"panics":       {result.Error, result.Error, result.Error},
		"hangs":        {result.Error, result.Error, result.Error},
		"garbage":      {result.Error, result.Error, result.Error},
	}
	if diff := cmp.Diff(want, outcomes(rep)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	conforms := map[string]bool{}
	for _, s := range rep.Summaries {
		conforms[s.Name] = s.Conforms
	}
	if diff := cmp.Diff(map[string]bool{"ref": true, "always-allow": false, "rejects": false, "panics": false, "hangs": false, "garbage": false}, conforms); diff != "" {
		t.Errorf("conforms (-want +got):\n%s", diff)
	}
}

func TestRunRuleLine(t *testing.T) {
	two, four := 2, 4
	c := []Case{{
		ID: "t/rule", Level: result.MUST, Req: []string{"MATCH-4"}, Profile: result.ProfileRFC,
		Robots: []byte("User-agent: *\nDisallow: /a\nDisallow: /ab\n"),
		Checks: []Check{
			{Agent: "FooBot", URL: "/ab", Expect: result.Disallow, Rule: &two},
			{Agent: "FooBot", URL: "/ab", Expect: result.Disallow, Rule: &four},
		},
	}}
	// The tracer says line 3 decided, and line 4 ties with it.
	tr := tracer{line: 3, ties: []int{4}}
	rep, err := Run(context.Background(), c, []Parser{tr}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Results[0]; got.Outcome != result.Violation || !strings.Contains(got.Detail, "line 3") {
		t.Errorf("a wrong deciding line: got %s %q, want a violation naming line 3", got.Outcome, got.Detail)
	}
	if got := rep.Results[1]; got.Outcome != result.Pass {
		t.Errorf("a line that ties with the deciding one: got %s %q, want a pass", got.Outcome, got.Detail)
	}
}

type tracer struct {
	line int
	ties []int
}

func (tracer) Info() result.Info {
	return result.Info{Name: "tracer", Capabilities: []result.Capability{result.CapParse}}
}
func (tracer) Check(context.Context, Request) (result.Verdict, error) {
	return result.Disallow, nil
}
func (t tracer) Trace(context.Context, Request) (Explanation, error) {
	return Explanation{Verdict: result.Disallow, Line: t.line, Ties: t.ties}, nil
}

func TestRunHTTP(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /private\n")
	big := &Generator{Prefix: "User-agent: *\nDisallow: /early\n", Repeat: "# padding padding padding\n", UntilBytes: 50 << 20, Suffix: "Disallow: /late\n"}
	mk := func(id string, fetch []Response, checks ...Check) Case {
		return Case{ID: id, Level: result.MUST, Req: []string{"ACC-2"}, Profile: result.ProfileRFC, Fetch: fetch, Checks: checks}
	}
	chk := func(url string, v result.Verdict) Check { return Check{Agent: "FooBot", URL: url, Expect: v} }
	cs := []Case{
		mk("ok", []Response{{URL: "http://a.test/robots.txt", Status: 200, Body: body}},
			chk("http://a.test/private/x", result.Disallow), chk("http://a.test/public", result.Allow)),
		mk("notfound", nil, chk("http://a.test/private", result.Allow)),
		mk("5xx", []Response{{URL: "http://a.test/robots.txt", Status: 503}}, chk("http://a.test/x", result.Disallow)),
		mk("cross-host", []Response{
			{URL: "http://a.test/robots.txt", Status: 301, Headers: map[string]string{"Location": "http://b.test:8080/rules.txt"}},
			{URL: "http://b.test:8080/rules.txt", Status: 200, Body: body},
		}, chk("http://a.test/private", result.Disallow), chk("http://a.test/public", result.Allow)),
		mk("reset", []Response{{URL: "http://a.test/robots.txt", Fault: "reset"}}, chk("http://a.test/x", result.Disallow)),
		mk("timeout", []Response{{URL: "http://a.test/robots.txt", Fault: "timeout"}}, chk("http://a.test/x", result.Disallow)),
		mk("truncated", []Response{{URL: "http://a.test/robots.txt", Status: 200, Fault: "truncated", Body: []byte("User-agent: *\nAllow: /\n")}}, chk("http://a.test/x", result.Disallow)),
		mk("slow", []Response{{URL: "http://a.test/robots.txt", Status: 200, Delay: 2 * time.Second, Body: body}}, chk("http://a.test/x", result.Disallow)),
		mk("huge", []Response{{URL: "http://a.test/robots.txt", Status: 200, Gen: big}},
			chk("http://a.test/early", result.Disallow), chk("http://a.test/late", result.Allow)),
		// The scheme picks plain HTTP or TLS, whatever the port.
		mk("https-unserved-port", []Response{{URL: "http://a.test/robots.txt", Status: 200, Body: body}},
			chk("https://a.test:8443/private", result.Allow), chk("http://a.test/private", result.Disallow)),
		mk("https-port", []Response{{URL: "https://s.test:8443/robots.txt", Status: 200, Body: body}}, chk("https://s.test:8443/private", result.Disallow)),
		mk("http-port-8443", []Response{{URL: "http://s.test:8443/robots.txt", Status: 200, Body: body}}, chk("http://s.test:8443/private", result.Disallow)),
		mk("http-port-443", []Response{{URL: "http://w.test:443/robots.txt", Status: 200, Body: body}}, chk("http://w.test:443/private", result.Disallow)),
		// A final 1xx is no response a client can use: unreachable.
		mk("status-100", []Response{{URL: "http://a.test/robots.txt", Status: 100, Body: []byte("User-agent: *\nAllow: /\n")}}, chk("http://a.test/x", result.Disallow)),
		mk("status-199", []Response{{URL: "http://a.test/robots.txt", Status: 199, Body: []byte("User-agent: *\nAllow: /\n")}}, chk("http://a.test/x", result.Disallow)),
		// A truncated response keeps the case's headers.
		mk("truncated-redirect", []Response{
			{URL: "http://a.test/robots.txt", Status: 301, Fault: "truncated", Headers: map[string]string{"Location": "/r"}},
			{URL: "http://a.test/r", Status: 200, Body: body},
		}, chk("http://a.test/private", result.Disallow), chk("http://a.test/public", result.Allow)),
		// A Content-Length the case gives is sent as given: a longer one
		// cuts the body short (unreachable), a shorter one sends a prefix.
		mk("content-length-lie", []Response{{URL: "http://a.test/robots.txt", Status: 200, Headers: map[string]string{"Content-Length": "5000"}, Body: body}},
			chk("http://a.test/public", result.Disallow)),
		mk("content-length-short", []Response{{URL: "http://a.test/robots.txt", Status: 200, Headers: map[string]string{"Content-Length": "27"}, Body: []byte("User-agent: *\nDisallow: /a\nDisallow: /\n")}},
			chk("http://a.test/public", result.Allow), chk("http://a.test/a", result.Disallow)),
		mk("content-length-short-generated", []Response{{URL: "http://a.test/robots.txt", Status: 200, Headers: map[string]string{"Content-Length": "27"},
			Gen: &Generator{Prefix: "User-agent: *\nDisallow: /a\n", Repeat: "Disallow: /\n", UntilBytes: 1 << 20}}},
			chk("http://a.test/a", result.Disallow), chk("http://a.test/b", result.Allow)),
	}
	rep, err := Run(context.Background(), cs, []Parser{&refParser{}}, RunOptions{FetchTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Outcome != result.Pass {
			t.Errorf("%s %s: got %s (%s), want %s; %s", r.Case, r.URL, r.Verdict, r.Outcome, r.Expect, r.Detail)
		}
	}
}

func TestRunTimeline(t *testing.T) {
	a := Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /a\n"), URL: "http://example.com/robots.txt"}
	b := Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /b\n"), URL: "http://example.com/robots.txt"}
	down := Response{Status: 503, URL: "http://example.com/robots.txt"}
	chk := func(path string, v result.Verdict) Check {
		return Check{Agent: "FooBot", URL: "http://example.com" + path, Expect: v}
	}
	c := []Case{{
		ID: "cache", Level: result.SHOULD, Req: []string{"CACHE-2"}, Profile: result.ProfileRFC,
		Timeline: []Step{
			{At: 0, Response: a, Checks: []Check{chk("/a", result.Disallow)}},
			{At: 12 * time.Hour, Response: b, Checks: []Check{chk("/a", result.Disallow), chk("/b", result.Allow)}},
			{At: 25 * time.Hour, Response: b, Checks: []Check{chk("/a", result.Allow), chk("/b", result.Disallow)}},
			// Unreachable: complete disallow, the cached copy aside (§2.3.1.4).
			{At: 50 * time.Hour, Response: down, Checks: []Check{chk("/b", result.Disallow), chk("/a", result.Disallow)}},
			{At: 50*time.Hour + 31*24*time.Hour, Response: down, Checks: []Check{chk("/b", result.Allow)}},
		},
	}}
	rep, err := Run(context.Background(), c, []Parser{&refParser{}, funcParser{"parse-only", nil}}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]result.Outcome{
		"ref":        {result.Pass, result.Pass, result.Pass, result.Pass, result.Pass, result.Pass, result.Pass, result.Pass},
		"parse-only": {result.Skipped, result.Skipped, result.Skipped, result.Skipped, result.Skipped, result.Skipped, result.Skipped, result.Skipped},
	}
	if diff := cmp.Diff(want, outcomes(rep)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// TestRunTimelineTrace checks that a failed timeline check is explained by
// an explainer whose cache saw every step, not only the failing one.
func TestRunTimelineTrace(t *testing.T) {
	a := Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /a\n"), URL: "http://example.com/robots.txt"}
	down := Response{Status: 503, URL: "http://example.com/robots.txt"}
	wrong := func(path string) Check {
		// Expect the opposite of the reference, so that the check fails
		// and gets a trace.
		return Check{Agent: "FooBot", URL: "http://example.com" + path, Expect: result.Allow}
	}
	c := []Case{{
		ID: "trace", Level: result.SHOULD, Req: []string{"CACHE-2"}, Profile: result.ProfileRFC,
		Timeline: []Step{
			{At: 0, Response: a, Checks: []Check{{Agent: "FooBot", URL: "http://example.com/a", Expect: result.Disallow}}},
			{At: 25 * time.Hour, Response: down, Checks: []Check{wrong("/b")}},
		},
	}}
	rep, err := Run(context.Background(), c, []Parser{&refParser{}}, RunOptions{Explain: traceParser{&refParser{}}})
	if err != nil {
		t.Fatal(err)
	}
	last := rep.Results[len(rep.Results)-1]
	if last.Outcome != result.Deviation {
		t.Fatalf("outcome %s, want deviation", last.Outcome)
	}
	// Only an explainer that saw the good fetch at 0h knows of a cached
	// copy to set aside.
	if !strings.Contains(last.Trace, "cached copy is not used") {
		t.Errorf("trace %q does not mention the cached copy of the first step", last.Trace)
	}
}

// traceParser makes a parser a Tracer whose trace is the reference's
// decision.
type traceParser struct{ p *refParser }

func (tp traceParser) Trace(ctx context.Context, req Request) (Explanation, error) {
	d, err := tp.p.decide(ctx, req)
	if err != nil {
		return Explanation{}, err
	}
	return ExplainDecision(d), nil
}

// A timeline step's file is served at its host's robots.txt only: the
// cache and the file are per authority.
func TestRunTimelineOrigins(t *testing.T) {
	resp := Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /a\n"), URL: "https://example.com/robots.txt"}
	c := []Case{{
		ID: "origins", Level: result.MUST, Req: []string{"ACC-2"}, Profile: result.ProfileRFC,
		Timeline: []Step{{At: 0, Response: resp, Checks: []Check{
			{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Disallow},
			{Agent: "FooBot", URL: "http://other.test:8080/a", Expect: result.Allow},
			{Agent: "FooBot", URL: "http://example.com/a", Expect: result.Allow},
		}}},
	}}
	rep, err := Run(context.Background(), c, []Parser{&refParser{}}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]result.Outcome{"ref": {result.Pass, result.Pass, result.Pass}}, outcomes(rep)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// A check the loader marked invalid is skipped for every parser, with the
// loader's reason; the other checks run.
func TestRunInvalidCheck(t *testing.T) {
	c := []Case{{
		ID: "invalid", Level: result.MUST, Req: []string{"UA-1"}, Profile: result.ProfileRFC, Robots: []byte("User-agent: *\nDisallow: /\n"),
		Checks: []Check{
			{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Disallow},
			{Agent: "Foo1", URL: "https://example.com/a", Expect: result.Disallow, Invalid: "f.yaml:3:9: not a token"},
		},
	}}
	rep, err := Run(context.Background(), c, []Parser{&refParser{}}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]result.Outcome{"ref": {result.Pass, result.Skipped}}, outcomes(rep)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if got := rep.Results[1].Detail; got != "f.yaml:3:9: not a token" {
		t.Errorf("detail %q, want the loader's reason", got)
	}
}

// A timeline step without checks still has each clocked parser fetch at
// its time: here the outage starts at the checkless step, so that 29 days
// later it has lasted 30 and the file is treated as unavailable.
func TestRunTimelineStepWithoutChecks(t *testing.T) {
	good := Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /a\n"), URL: "http://example.com/robots.txt"}
	down := Response{Status: 503, URL: "http://example.com/robots.txt"}
	day := 24 * time.Hour
	c := []Case{{
		ID: "checkless", Level: result.MAY, Req: []string{"ACC-8"}, Profile: result.ProfileRFC,
		Timeline: []Step{
			{At: 0, Response: good, Checks: []Check{{Agent: "FooBot", URL: "http://example.com/a", Expect: result.Disallow}}},
			{At: 2 * day, Response: down},
			{At: 32 * day, Response: down, Checks: []Check{{Agent: "FooBot", URL: "http://example.com/a", Expect: result.Allow}}},
		},
	}}
	rep, err := Run(context.Background(), c, []Parser{&refParser{}}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]result.Outcome{"ref": {result.Pass, result.Pass}}, outcomes(rep)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// The runner records the explainer's deciding line, the response whose
// body holds it and the trace on every result of a check, so that reports
// render them instead of deciding again.
func TestRunRecordsDecidingLines(t *testing.T) {
	cs := []Case{
		{ID: "plain", Level: result.MUST, Req: []string{"UA-3"}, Profile: result.ProfileRFC,
			Robots: []byte("User-agent: ExampleBot\nDisallow: /foo\n\nUser-agent: examplebot\nDisallow: /baz\n"),
			Checks: []Check{{Agent: "ExampleBot", URL: "https://example.com/baz", Expect: result.Disallow}, {Agent: "ExampleBot", URL: "https://example.com/x", Expect: result.Allow}}},
		{ID: "redirect", Level: result.MUST, Req: []string{"ACC-3"}, Profile: result.ProfileRFC,
			Fetch: []Response{
				{URL: "http://a.test/robots.txt", Status: 301, Headers: map[string]string{"Location": "http://b.test/rules.txt"}},
				{URL: "http://b.test/rules.txt", Status: 200, Body: []byte("User-agent: *\nDisallow: /private\n")},
			},
			Checks: []Check{{Agent: "FooBot", URL: "http://a.test/private/x", Expect: result.Disallow}, {Agent: "FooBot", URL: "http://a.test/public", Expect: result.Allow}}},
		{ID: "refetch", Level: result.SHOULD, Req: []string{"CACHE-2"}, Profile: result.ProfileRFC,
			Timeline: []Step{
				{At: 0, Response: Response{URL: "http://a.test/robots.txt", Status: 200, Body: []byte("User-agent: *\nDisallow: /a\n")},
					Checks: []Check{{Agent: "FooBot", URL: "http://a.test/a", Expect: result.Disallow}}},
				{At: 25 * time.Hour, Response: Response{URL: "http://a.test/robots.txt", Status: 200, Body: []byte("User-agent: *\nDisallow: /b\n")},
					Checks: []Check{{Agent: "FooBot", URL: "http://a.test/a", Expect: result.Allow}, {Agent: "FooBot", URL: "http://a.test/b", Expect: result.Disallow}}},
				{At: 26 * time.Hour, Response: Response{URL: "http://a.test/robots.txt", Status: 503},
					Checks: []Check{{Agent: "FooBot", URL: "http://a.test/b", Expect: result.Disallow}}},
			}},
	}
	rep, err := Run(context.Background(), cs, []Parser{&refParser{}, funcParser{"always", func(Request) (result.Verdict, error) { return result.Allow, nil }}},
		RunOptions{Explain: traceParser{&refParser{}}})
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Case                  string
		Check, Line, Response int
	}
	var got []rec
	for _, r := range rep.Results {
		if r.Trace == "" {
			t.Errorf("%s check %d (%s, %s) has no trace", r.Case, r.Check, r.Parser, r.Outcome)
		}
		got = append(got, rec{r.Case, r.Check, r.Line, r.Response})
	}
	// Every parser's result holds the same record, the skipped ones too.
	want := []rec{
		{"plain", 0, 5, 0}, {"plain", 0, 5, 0}, {"plain", 1, 0, 0}, {"plain", 1, 0, 0},
		// Through the redirect, line 2 of the second response decides.
		{"redirect", 0, 2, 2}, {"redirect", 0, 2, 2}, {"redirect", 1, 0, 0}, {"redirect", 1, 0, 0},
		// At 25h the file is fetched again and step 2's body decides /b.
		{"refetch", 0, 2, 1}, {"refetch", 0, 2, 1}, {"refetch", 1, 0, 0}, {"refetch", 1, 0, 0}, {"refetch", 2, 2, 2}, {"refetch", 2, 2, 2},
		// In the outage at 26h the copy fetched at 25h decides: step 2.
		{"refetch", 3, 2, 2}, {"refetch", 3, 2, 2},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("recorded lines (-want +got):\n%s", d)
	}
}

// versioned is a parser whose Info names a version and a runtime.
type versioned struct{ funcParser }

func (p versioned) Info() result.Info {
	return result.Info{Name: p.name, Version: "1.2.3", Runtime: "CPython 3.11.7", Capabilities: []result.Capability{result.CapParse}}
}

func TestRunSummaryRuntime(t *testing.T) {
	c := []Case{{
		ID: "t/runtime", Level: result.MUST, Req: []string{"MATCH-4"}, Profile: result.ProfileRFC,
		Robots: []byte("User-agent: *\nDisallow: /a\n"),
		Checks: []Check{{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Disallow}},
	}}
	p := versioned{funcParser{"v", func(Request) (result.Verdict, error) { return result.Disallow, nil }}}
	rep, err := Run(context.Background(), c, []Parser{p}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []result.Summary{{Name: "v", Version: "1.2.3", Runtime: "CPython 3.11.7", Checks: 1, Pass: 1, Conforms: true}}
	if diff := cmp.Diff(want, rep.Summaries); diff != "" {
		t.Errorf("summaries (-want +got):\n%s", diff)
	}
}

// Recorded traces name no loopback port: the ports change from run to
// run, and results must not.
func TestRecordDropsLoopbackPorts(t *testing.T) {
	got := record(Explanation{Text: `Get "http://a.test/robots.txt": read tcp 127.0.0.1:40540->127.0.0.1:44001: reset; [::1]:8080`, Line: 3}, nil)
	want := &recorded{trace: `Get "http://a.test/robots.txt": read tcp 127.0.0.1->127.0.0.1: reset; [::1]`, line: 3}
	if *got != *want {
		t.Errorf("record = %+v, want %+v", *got, *want)
	}
}
