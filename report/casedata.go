package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// CaseInfo is what a report shows of one case besides its results.
type CaseInfo struct {
	Title   string `json:"title,omitempty"`
	Source  string `json:"source,omitempty"`
	Profile string `json:"profile,omitempty"`
	// Robots is the body of a plain case.
	Robots *Body `json:"robots,omitempty"`
	// Fetch lists the responses served for an HTTP case.
	Fetch []Served `json:"fetch,omitempty"`
	// Timeline lists the steps of a clocked case.
	Timeline []StepInfo `json:"timeline,omitempty"`
	// Checks is indexed like cases.Result.Check.
	Checks []CheckInfo `json:"checks,omitempty"`
}

// Served is one response served for an HTTP case.
type Served struct {
	URL     string            `json:"url,omitempty"`
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    *Body             `json:"body,omitempty"`
	Fault   string            `json:"fault,omitempty"`
	Delay   string            `json:"delay,omitempty"`
}

// StepInfo is one step of a clocked case.
type StepInfo struct {
	At       string `json:"at"`
	Response Served `json:"response"`
}

// CheckInfo is what the reference says about one check.
type CheckInfo struct {
	Agent  string `json:"agent,omitempty"`
	URL    string `json:"url,omitempty"`
	Source string `json:"source,omitempty"`
	// Step is the 1-based timeline step the check belongs to; 0 for
	// checks of plain and HTTP cases.
	Step int `json:"step,omitempty"`
	// Response is the 1-based index of the served response (in Fetch, or
	// the step of Timeline) whose body holds Line; 0 for the case's own
	// body or when no body decided.
	Response int `json:"response,omitempty"`
	// Line is the reference's deciding line; 0 when no rule decided.
	Line int `json:"line,omitempty"`
	// LineText is the deciding line's text, kept when the body is stored
	// only in part.
	LineText string `json:"line_text,omitempty"`
	// Trace is the reference's explanation of its verdict.
	Trace string `json:"trace,omitempty"`
}

// CaseData describes cases for a report: bodies, served responses and,
// for every check, the reference's deciding line and trace under the
// case's profile. HTTP and clocked cases are decided by the reference's
// fetcher against the case's responses held in memory; nothing touches
// the network.
func CaseData(cs []cases.Case) map[string]*CaseInfo {
	out := make(map[string]*CaseInfo, len(cs))
	for i := range cs {
		out[cs[i].ID] = caseInfo(&cs[i])
	}
	return out
}

func caseInfo(c *cases.Case) *CaseInfo {
	ci := &CaseInfo{Title: c.Title, Source: c.Source, Profile: c.Profile}
	opts, _ := reference.OptionsFor(c.Profile)
	switch {
	case len(c.Timeline) > 0:
		for _, s := range c.Timeline {
			ci.Timeline = append(ci.Timeline, StepInfo{At: s.At.String(), Response: served(s.Response)})
		}
		ci.Checks = timelineChecks(c, opts)
	case len(c.Fetch) > 0:
		for _, r := range c.Fetch {
			ci.Fetch = append(ci.Fetch, served(r))
		}
		srv := &memServer{responses: c.Fetch}
		for _, ch := range c.Checks {
			f := &reference.Fetcher{Client: srv.client(), Options: opts, Now: func() time.Time { return time.Unix(0, 0) }}
			ci.Checks = append(ci.Checks, srv.decide(f, ch, c.Fetch, 0))
		}
	default:
		ci.Robots = newBody(c.Robots)
		rb := reference.Parse(c.Robots, opts)
		for _, ch := range c.Checks {
			info := CheckInfo{Agent: ch.Agent, URL: ch.URL, Source: ch.Source}
			d, err := rb.Decide(ch.Agent, ch.URL)
			if err != nil {
				info.Trace = err.Error()
			} else {
				info.Trace = d.String()
				if d.Reason == reference.RuleMatched {
					info.Line = d.Rule.Line
					if ci.Robots.Partial() {
						info.LineText = lineText(c.Robots, d.Rule.Line)
					}
				}
			}
			ci.Checks = append(ci.Checks, info)
		}
	}
	return ci
}

// timelineChecks decides the checks of a clocked case step by step on a
// fake clock, one fetcher for the whole timeline.
func timelineChecks(c *cases.Case, opts reference.Options) []CheckInfo {
	var out []CheckInfo
	base := time.Unix(0, 0)
	now := base
	srv := &memServer{}
	f := &reference.Fetcher{Client: srv.client(), Options: opts, Now: func() time.Time { return now }}
	var resps []cases.Response
	for _, s := range c.Timeline {
		resps = append(resps, s.Response)
	}
	for i, s := range c.Timeline {
		now = base.Add(s.At)
		srv.responses = []cases.Response{s.Response}
		srv.step = i + 1
		if len(s.Checks) == 0 {
			// The runner fetches at a step without checks; so does this.
			f.Get(context.Background(), s.Response.URL)
		}
		for _, ch := range s.Checks {
			info := srv.decide(f, ch, resps, i+1)
			info.Step = i + 1
			out = append(out, info)
		}
	}
	return out
}

// memServer answers a fetcher's requests from a case's responses, in
// memory. For a clocked case it holds the current step's response, which
// answers any URL.
type memServer struct {
	responses []cases.Response
	step      int // current timeline step (1-based), 0 for HTTP cases
	// last maps a URL to the response (1-based: a Fetch index, or a
	// timeline step) whose successful body was last served for it.
	last map[string]int
}

func (s *memServer) client() *http.Client {
	return &http.Client{Transport: s, Timeout: 10 * time.Second}
}

// RoundTrip implements http.RoundTripper.
func (s *memServer) RoundTrip(req *http.Request) (*http.Response, error) {
	u := req.URL.String()
	idx := -1
	for i, r := range s.responses {
		if s.step > 0 && r.URL == "" || sameURL(r.URL, u) {
			idx = i
			break
		}
	}
	if idx < 0 {
		return &http.Response{StatusCode: http.StatusNotFound, Body: http.NoBody, Header: http.Header{}, Request: req}, nil
	}
	r := s.responses[idx]
	switch {
	case r.Fault != "":
		return nil, fmt.Errorf("fault %q", r.Fault)
	case r.Delay > 0:
		return nil, errors.New("slow response")
	}
	h := http.Header{}
	for k, v := range r.Headers {
		h.Set(k, v)
	}
	var body io.Reader = bytes.NewReader(r.Body)
	if r.Gen != nil {
		body = genReader(r.Gen)
	}
	if r.Status >= 200 && r.Status < 300 {
		if s.last == nil {
			s.last = map[string]int{}
		}
		if s.step > 0 {
			s.last[u] = s.step
		} else {
			s.last[u] = idx + 1
		}
	}
	return &http.Response{StatusCode: r.Status, Header: h, Body: io.NopCloser(body), Request: req}, nil
}

// sameURL compares a response's URL with a request's, ignoring a
// trailing difference in the default form of the path.
func sameURL(a, b string) bool {
	return a == b || strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// decide runs one check through the fetcher and records the reference's
// deciding line and the response whose body holds it.
func (s *memServer) decide(f *reference.Fetcher, ch cases.Check, resps []cases.Response, step int) CheckInfo {
	info := CheckInfo{Agent: ch.Agent, URL: ch.URL, Source: ch.Source}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := f.Decide(ctx, ch.Agent, ch.URL)
	if err != nil {
		info.Trace = err.Error()
		return info
	}
	info.Trace = d.String()
	if d.Reason != reference.RuleMatched || d.Fetch == nil || len(d.Fetch.Hops) == 0 {
		return info
	}
	final := d.Fetch.Hops[len(d.Fetch.Hops)-1].URL
	n := s.last[final]
	if n == 0 || n > len(resps) {
		return info
	}
	info.Response = n
	info.Line = d.Rule.Line
	r := resps[n-1]
	if r.Gen != nil || len(r.Body) > maxStoredBody {
		info.LineText = lineText(materialise(r), d.Rule.Line)
	}
	return info
}

// served converts a response for the document.
func served(r cases.Response) Served {
	s := Served{URL: r.URL, Status: r.Status, Headers: r.Headers, Fault: r.Fault}
	if r.Delay > 0 {
		s.Delay = r.Delay.String()
	}
	switch {
	case r.Gen != nil:
		s.Body = &Body{Size: r.Gen.Size(),
			Generated: fmt.Sprintf("prefix %s, then %s repeated up to %d bytes, then %s",
				strconv.Quote(clip(r.Gen.Prefix, 200)), strconv.Quote(clip(r.Gen.Repeat, 200)), r.Gen.UntilBytes, strconv.Quote(clip(r.Gen.Suffix, 200)))}
		if head := materialiseHead(r.Gen, storedHead); len(head) > 0 {
			b := newBody(head)
			s.Body.Text, s.Body.B64 = b.Text, b.B64
		}
	case r.Body != nil || r.Status/100 == 2:
		s.Body = newBody(r.Body)
	}
	return s
}

// clip cuts s to at most n bytes.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// genReader streams a generated body without holding it.
func genReader(g *cases.Generator) io.Reader {
	return &generated{g: g}
}

type generated struct {
	g     *cases.Generator
	pos   int    // bytes produced
	buf   []byte // pending bytes
	phase int    // 0 prefix, 1 repeat, 2 suffix, 3 done
}

func (r *generated) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		switch r.phase {
		case 0:
			r.buf, r.phase = []byte(r.g.Prefix), 1
		case 1:
			if r.g.Repeat != "" && r.pos < r.g.UntilBytes {
				r.buf = []byte(r.g.Repeat)
			} else {
				r.phase = 2
			}
		case 2:
			r.buf, r.phase = []byte(r.g.Suffix), 3
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	r.pos += n
	return n, nil
}

// materialise returns a response's whole body, generating it when needed
// (at most 64 MiB).
func materialise(r cases.Response) []byte {
	if r.Gen == nil {
		return r.Body
	}
	p, _ := io.ReadAll(io.LimitReader(genReader(r.Gen), 64<<20))
	return p
}

// materialiseHead returns the first lines of a generated body within n
// bytes.
func materialiseHead(g *cases.Generator, n int) []byte {
	p, _ := io.ReadAll(io.LimitReader(genReader(g), int64(n)))
	if len(p) == n {
		if k := bytes.LastIndexAny(p, "\r\n"); k >= 0 {
			p = p[:k+1]
		}
	}
	return p
}

// lineText returns line n (1-based, CR, LF and CRLF ending lines) of body.
func lineText(body []byte, n int) string {
	lines := reference.SplitLines(string(body))
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
