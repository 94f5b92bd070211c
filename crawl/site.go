package crawl

import (
	"context"
	"crypto/tls"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// Site serves one scenario on loopback and records every request.
//
// Origins are reached in one of two ways. By default each origin of the
// case (http://a.test, http://b.test:8080, https://a.test) is served
// where the lab's layout puts it: on the case's own port of an address
// of its host (http://127.1.2.1, http://127.1.2.2:8080, https://127.1.2.1)
// or, in the fallback, on a port of its own of 127.0.0.1. The start page
// links those URLs, https origins speak TLS with a certificate of the
// lab's CA, and absolute redirects are rewritten to the target's address.
// Distinct hosts, ports and schemes stay distinct authorities, each with
// its own robots.txt. With a proxy, the start page links the case's own
// URLs (http://a.test/x) and the crawler reaches them through reptest's
// HTTP proxy; https origins cannot be proxied (no CONNECT) and are
// skipped then.
type Site struct {
	srv    *cases.Server
	proxy  bool
	start  string
	layout Layout
	tls    tlsErrors

	versions []Version

	// The clock of a timeline scenario: its offset file's folder, the
	// step playing, and an error moving it.
	sc       *Scenario
	base     []cases.Response // all but the timeline's robots.txt
	clock    *fakeClock
	clockDir string
	stepMu   sync.Mutex
	step     int
	clockErr error

	mu     sync.Mutex
	log    []Request
	budget int
	over   chan struct{} // closed when the budget is spent
}

// NewSite starts the site of sc in the lab. budget bounds the requests
// recorded; the one past it closes Over.
func NewSite(sc *Scenario, lab *Lab, proxy bool, budget int) (*Site, error) {
	if sc.Skip != "" {
		return nil, fmt.Errorf("crawl: scenario %s/%s: %s", sc.Case.ID, sc.Agent, sc.Skip)
	}
	s := &Site{sc: sc, srv: cases.NewServer(), proxy: proxy, budget: budget, over: make(chan struct{}), layout: lab.Layout()}
	if !proxy {
		if err := lab.serve(s.srv, sc.servedOrigins(), s.tls.watch); err != nil {
			s.Close()
			return nil, fmt.Errorf("crawl: scenario %s/%s: %w", sc.Case.ID, sc.Agent, err)
		}
	}
	var pages []cases.Response
	var err error
	if sc.Steps != nil {
		pages, err = sc.pages(s.URL)
	} else {
		var page cases.Response
		page, err = linkPage(sc.Start, sc.LinkURLs(), s.URL)
		pages = []cases.Response{page}
	}
	if err == nil {
		s.start, err = s.URL(sc.Start)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	s.base = append(append([]cases.Response{}, sc.Responses...), pages...)
	if sc.Steps != nil {
		err = s.startClock()
	} else {
		err = s.srv.Serve(s.base)
		s.versions = fetchVersions(s.srv, sc, sc.Origins)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	s.srv.Observe(s.record)
	return s, nil
}

// linkPage is an HTML page at u that links each of links, as the
// crawler reaches them.
func linkPage(u string, links []string, link func(string) (string, error)) (cases.Response, error) {
	var b strings.Builder
	b.WriteString("<!doctype html>\n<title>reptest crawl</title>\n<ul>\n")
	for _, l := range links {
		lu, err := link(l)
		if err != nil {
			return cases.Response{}, err
		}
		fmt.Fprintf(&b, "<li><a href=\"%s\">%s</a>\n", html.EscapeString(lu), html.EscapeString(l))
	}
	b.WriteString("</ul>\n")
	return cases.Response{URL: u, Status: http.StatusOK,
		Headers: map[string]string{"Content-Type": "text/html; charset=utf-8"}, Body: []byte(b.String())}, nil
}

// startClock starts a timeline scenario's clock at its first step.
func (s *Site) startClock() error {
	dir, err := os.MkdirTemp("", "reptest-clock-*")
	if err != nil {
		return err
	}
	s.clockDir = dir
	// Readable by a crawler that drops root privileges (as LinkChecker does).
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	if s.clock, err = newFakeClock(dir); err != nil {
		return err
	}
	if err := s.playStep(0); err != nil {
		return err
	}
	// The clock origin's file, fetched once its route is served.
	s.versions = fetchVersions(s.srv, s.sc, s.sc.Origins[1:])
	return nil
}

// playStep moves the clock to step k and serves its robots.txt.
func (s *Site) playStep(k int) error {
	st := s.sc.Steps[k]
	if err := s.srv.Serve(append(append([]cases.Response{}, s.base...), st.Robots)); err != nil {
		return err
	}
	s.step = k
	return s.clock.moveTo(st.At)
}

// pace moves the clock when the crawler asks for the page of a later
// step than the one playing: after stepPause, so that requests the
// crawler makes at the same time as this one still count for the step
// before.
func (s *Site) pace(u string) {
	s.stepMu.Lock()
	defer s.stepMu.Unlock()
	for k := s.step + 1; k < len(s.sc.Steps); k++ {
		if routeOf(s.sc.Steps[k].Page) == routeOf(u) {
			time.Sleep(stepPause)
			if err := s.playStep(k); err != nil {
				s.clockErr = err
			}
			return
		}
	}
}

// fetchTimeout bounds the reference's fetches of the scenario's files.
const fetchTimeout = 2 * time.Second

// fetchVersions fetches each origin's robots.txt as the reference does
// (redirects followed, faults seen): the files in force for the grader.
func fetchVersions(srv *cases.Server, sc *Scenario, origins []string) []Version {
	opts, _ := reference.OptionsFor(sc.Case.Profile)
	client := srv.Client(fetchTimeout)
	var out []Version
	for _, o := range origins {
		res := reference.Fetch(context.Background(), client, o+"/robots.txt", opts)
		out = append(out, Version{Origin: o, Status: res.Info.Status, Label: o + "/robots.txt", res: res})
	}
	return out
}

// Versions returns the robots.txt files in force, per origin, as the
// reference fetched them before the crawler started; for a timeline, the
// case origin's file of each step, from the step's fake time on.
func (s *Site) Versions() []Version {
	if s.clock != nil {
		return append(s.sc.timelineVersions(s.clock.zero), s.versions...)
	}
	return s.versions
}

// ClockEnv returns the environment that runs the crawler on the site's
// fake clock under libfaketime lib; base for a scenario without a
// timeline.
func (s *Site) ClockEnv(base []string, lib string) []string {
	if s.clock == nil {
		return base
	}
	return s.clock.env(base, lib)
}

// ClockError returns an error of moving the clock, if there was one.
func (s *Site) ClockError() error {
	s.stepMu.Lock()
	defer s.stepMu.Unlock()
	return s.clockErr
}

// URL returns the URL under which the crawler reaches u.
func (s *Site) URL(u string) (string, error) {
	if s.proxy {
		if strings.HasPrefix(strings.ToLower(u), "https:") {
			return "", fmt.Errorf("crawl: %s: https cannot be reached through the proxy", u)
		}
		return u, nil
	}
	return s.srv.External(u)
}

// Layout is the layout the site is served in.
func (s *Site) Layout() Layout { return s.layout }

// TLSErrors returns the TLS handshakes of the site's https origins that
// the crawler broke off with an alert, such as a certificate it refused:
// "https://a.test: remote error: tls: unknown certificate authority".
func (s *Site) TLSErrors() []string { return s.tls.list() }

// Start is the start URL as the crawler is given it.
func (s *Site) Start() string { return s.start }

// ProxyAddr is the proxy's host:port.
func (s *Site) ProxyAddr() string { return s.srv.ProxyAddr() }

// Over is closed once the crawler has made more requests than the budget.
func (s *Site) Over() <-chan struct{} { return s.over }

// Log returns the requests recorded so far, in order.
func (s *Site) Log() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// Close stops the site.
func (s *Site) Close() {
	s.srv.Close()
	if s.clockDir != "" {
		os.RemoveAll(s.clockDir)
	}
}

func (s *Site) record(h cases.Hit) {
	t := h.Time
	if s.clock != nil {
		t = s.clock.fake(t)
		s.pace(h.URL)
	}
	r := Request{Time: t, Method: h.Method, URL: h.URL, UserAgent: h.UserAgent, Status: http.StatusNotFound}
	if resp := h.Response; resp != nil {
		r.Status, r.Fault = resp.Status, resp.Fault
		if r.Fault == "reset" || r.Fault == "timeout" && r.Status == 0 {
			r.Status = 0
		}
		for k, v := range resp.Headers {
			if strings.EqualFold(k, "Location") {
				r.Location = resolveRef(h.URL, v)
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.log) >= s.budget {
		select {
		case <-s.over:
		default:
			close(s.over)
		}
		return
	}
	s.log = append(s.log, r)
}

// resolveRef resolves a Location header against the URL it answered.
func resolveRef(base, loc string) string {
	b, err := url.Parse(base)
	if err != nil {
		return loc
	}
	l, err := url.Parse(strings.TrimSpace(loc))
	if err != nil {
		return loc
	}
	return b.ResolveReference(l).String()
}

// since formats t as an offset from the first request of a log.
func since(t, first time.Time) string {
	if d := t.Sub(first); d >= time.Hour {
		// On a timeline's fake clock: hours and days.
		return "+" + d.Round(time.Millisecond).String()
	}
	return fmt.Sprintf("+%.3fs", t.Sub(first).Seconds())
}

// tlsErrors collects what shows that a crawler refused an https
// origin's certificate: handshakes it broke off with an alert (net/http
// reports them in its error log only), and handshakes it completed but
// sent no request over, on an origin it then never asked anything of
// (GNU Wget checks the certificate after the handshake and just closes).
type tlsErrors struct {
	mu       sync.Mutex
	alerts   []string
	silent   map[string]int  // origin → connections with a handshake and no request
	asked    map[string]bool // origins that got a request
	requests map[net.Conn]bool
}

// watch returns the error log writer and the connection hook of one
// origin's server.
func (t *tlsErrors) watch(origin string) (io.Writer, func(net.Conn, http.ConnState)) {
	log := writerFunc(func(p []byte) (int, error) {
		for _, line := range strings.Split(string(p), "\n") {
			// "http: TLS handshake error from 127.0.0.1:5678: remote error: tls: bad certificate"
			_, msg, ok := strings.Cut(line, "TLS handshake error from ")
			if !ok {
				continue
			}
			if _, msg, ok = strings.Cut(msg, ": "); ok && strings.Contains(msg, "remote error") {
				t.mu.Lock()
				t.alerts = append(t.alerts, origin+": "+msg)
				t.mu.Unlock()
			}
		}
		return len(p), nil
	})
	hook := func(c net.Conn, st http.ConnState) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.requests == nil {
			t.requests, t.silent, t.asked = map[net.Conn]bool{}, map[string]int{}, map[string]bool{}
		}
		switch st {
		case http.StateActive:
			t.requests[c] = true
			t.asked[origin] = true
		case http.StateClosed, http.StateHijacked:
			tc, ok := c.(*tls.Conn)
			if ok && !t.requests[c] && tc.ConnectionState().HandshakeComplete {
				t.silent[origin]++
			}
			delete(t.requests, c)
		}
	}
	return log, hook
}

// list says what the crawler refused.
func (t *tlsErrors) list() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.alerts...)
	for o, n := range t.silent {
		if !t.asked[o] {
			out = append(out, fmt.Sprintf("%s: %d TLS connection(s) closed after the handshake without a request, and nothing of the origin was requested", o, n))
		}
	}
	slices.Sort(out[len(t.alerts):])
	return out
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
