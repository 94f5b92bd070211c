package cases

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server serves the responses of HTTP cases on the loopback interface.
// Every host a case names (a.test, b.test:8080, ...) is served by one
// httptest server routed by the Host header; Client returns an HTTP client
// whose dialer reaches it whatever the host, so nothing leaves the
// machine. External programs, which cannot use that dialer, get a loopback
// port per host instead (see External). Faults are real socket behaviour:
// a reset closes the connection unanswered, a timeout never answers, a
// truncated body promises more bytes than it sends.
type Server struct {
	plain, secure *httptest.Server

	// hold bounds how long a timeout fault or a delayed body keeps a
	// connection waiting when the client does not give up first.
	hold time.Duration

	mu        sync.Mutex
	routes    map[string]Response // normalised URL → response
	listeners map[string]*external
	closing   chan struct{}
	observe   func(Hit)
}

// Hit is one request the server received, as Observe reports it.
type Hit struct {
	Time      time.Time
	Method    string
	URL       string    // the absolute URL asked for, on the case's origin
	UserAgent string    // the User-Agent header
	Response  *Response // what is served; nil for a 404
}

// Observe makes the server call f with every request it receives, before
// answering it; reptest crawl records a crawler's requests this way.
func (s *Server) Observe(f func(Hit)) {
	s.mu.Lock()
	s.observe = f
	s.mu.Unlock()
}

// ProxyAddr is the loopback address of the Host-routed plain HTTP server.
// It also works as an HTTP proxy for every served http origin: a request
// in absolute form ("GET http://a.test/x") is routed by its host.
func (s *Server) ProxyAddr() string { return s.plain.Listener.Addr().String() }

// external is a loopback listener that stands for one origin.
type external struct {
	origin string // e.g. "http://a.test"
	srv    *http.Server
	// base is how a fetcher reaches the origin: "http://127.0.0.1:41234",
	// or "https://127.4.2.3" for a listener of ServeListener.
	base string
}

// NewServer starts a server with no routes: every URL answers 404.
func NewServer() *Server {
	s := &Server{
		hold:      30 * time.Second,
		routes:    map[string]Response{},
		listeners: map[string]*external{},
		closing:   make(chan struct{}),
	}
	// The faults provoke the server's own complaints (TLS handshakes cut
	// short, bodies shorter than promised); they are expected, not news.
	quiet := log.New(io.Discard, "", 0)
	s.plain = httptest.NewUnstartedServer(s.handler(""))
	s.plain.Config.ErrorLog = quiet
	s.plain.Start()
	s.secure = httptest.NewUnstartedServer(s.handler(""))
	s.secure.Config.ErrorLog = quiet
	s.secure.StartTLS()
	return s
}

// Close stops the server and every loopback listener.
func (s *Server) Close() {
	close(s.closing)
	s.mu.Lock()
	for _, l := range s.listeners {
		l.srv.Close()
	}
	s.mu.Unlock()
	s.plain.CloseClientConnections()
	s.secure.CloseClientConnections()
	s.plain.Close()
	s.secure.Close()
}

// Serve replaces the routes with the given responses.
func (s *Server) Serve(responses []Response) error {
	routes := make(map[string]Response, len(responses))
	for _, r := range responses {
		key, err := routeKey(r.URL)
		if err != nil {
			return err
		}
		routes[key] = r
	}
	s.mu.Lock()
	s.routes = routes
	s.mu.Unlock()
	return nil
}

// routeKey normalises a URL to the form routes are stored under:
// scheme://host[:port]/path?query, default ports dropped, host in lower
// case.
func routeKey(raw string) (string, error) {
	origin, rest, err := splitURL(raw)
	return origin + rest, err
}

// splitURL splits a URL into its normalised origin and the rest
// (path and query).
func splitURL(raw string) (origin, rest string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", fmt.Errorf("cases: bad URL %q: %w", raw, err)
	}
	scheme := strings.ToLower(u.Scheme)
	secure := scheme == "https"
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" {
		port = "80"
		if secure {
			port = "443"
		}
	}
	authority := host
	if !(port == "80" && !secure || port == "443" && secure) {
		authority = net.JoinHostPort(host, port)
	}
	rest = u.EscapedPath()
	if rest == "" {
		rest = "/"
	}
	if u.RawQuery != "" {
		rest += "?" + u.RawQuery
	}
	return scheme + "://" + authority, rest, nil
}

// Client returns an HTTP client that reaches the server for every host,
// with the given overall timeout per request. It follows no redirects
// itself unless the caller's code does. The URL's scheme picks the
// server, whatever the port: http to the plain one, https to the TLS one.
func (s *Server) Client(timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: timeout}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, s.plain.Listener.Addr().String())
		},
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, network, s.secure.Listener.Addr().String())
			if err != nil {
				return nil, err
			}
			host, _, _ := net.SplitHostPort(addr)
			// The test server's certificate cannot name every test host.
			tc := tls.Client(conn, &tls.Config{ServerName: host, InsecureSkipVerify: true})
			if err := tc.HandshakeContext(ctx); err != nil {
				conn.Close()
				return nil, err
			}
			return tc, nil
		},
		DisableKeepAlives: true,
	}
	return &http.Client{Transport: tr, Timeout: timeout}
}

// External returns a loopback URL that serves the same response as raw
// does, for programs that fetch by themselves. Each origin gets its own
// port; absolute Location headers that name a served origin are rewritten
// to that origin's port.
func (s *Server) External(raw string) (string, error) {
	origin, rest, err := splitURL(raw)
	if err != nil {
		return "", err
	}
	base, err := s.listen(origin)
	if err != nil {
		return "", err
	}
	return base + rest, nil
}

func (s *Server) listen(origin string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.listeners[origin]; l != nil {
		return l.base, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("cases: loopback listener for %s: %w", origin, err)
	}
	l := s.startExternal(origin, ln, Listening{Base: "http://" + ln.Addr().String(), Errors: io.Discard})
	return l.base, nil
}

// Listening is how ServeListener serves an origin.
type Listening struct {
	// Base is the scheme://host[:port] under which a fetcher reaches the
	// listener; External maps the origin's URLs to it.
	Base string
	// TLS, when set, makes the connections TLS.
	TLS *tls.Config
	// Errors receives the server's complaints about its connections (TLS
	// handshakes a client broke off, say), one a line; nil drops them.
	Errors io.Writer
	// ConnState, when set, is called as each connection changes state
	// (http.Server.ConnState).
	ConnState func(net.Conn, http.ConnState)
}

// ServeListener serves origin (scheme://host[:port] of the case) on ln, a
// listener the caller bound. It is an error to serve an origin twice.
func (s *Server) ServeListener(origin string, ln net.Listener, how Listening) error {
	o, _, err := splitURL(origin + "/")
	if err != nil {
		return err
	}
	if how.Errors == nil {
		how.Errors = io.Discard
	}
	how.Base = strings.TrimSuffix(how.Base, "/")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listeners[o] != nil {
		return fmt.Errorf("cases: %s is served already", o)
	}
	s.startExternal(o, ln, how)
	return nil
}

// startExternal serves origin on ln; s.mu is held.
func (s *Server) startExternal(origin string, ln net.Listener, how Listening) *external {
	srv := &http.Server{Handler: s.handler(origin), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: log.New(how.Errors, "", 0), ConnState: how.ConnState}
	l := &external{origin: origin, srv: srv, base: how.Base}
	s.listeners[origin] = l
	if how.TLS != nil {
		srv.TLSConfig = how.TLS
		ln = tls.NewListener(ln, how.TLS)
	}
	go srv.Serve(ln)
	return l
}

// handler serves routes. origin is fixed for a loopback listener and
// empty for the Host-routed servers.
func (s *Server) handler(origin string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o := origin
		if o == "" {
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			o = scheme + "://" + r.Host
		}
		key, err := routeKey(o + r.URL.RequestURI())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		resp, ok := s.routes[key]
		observe := s.observe
		s.mu.Unlock()
		if observe != nil {
			h := Hit{Time: time.Now(), Method: r.Method, URL: key, UserAgent: r.UserAgent()}
			if ok {
				h.Response = &resp
			}
			observe(h)
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		s.respond(w, r, resp, origin != "")
	})
}

// respond serves resp: one of the faults (a reset, a timeout, a truncated
// body), a final 1xx, or a response with its status, headers and body.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, resp Response, external bool) {
	switch {
	case resp.Fault == "reset":
		if conn := s.hijack(w); conn != nil {
			if tc, ok := conn.(*net.TCPConn); ok {
				tc.SetLinger(0) // an RST rather than an orderly close
			}
			conn.Close()
		}
	case resp.Fault == "timeout":
		s.takeOver(w, func(conn net.Conn) { s.stall(conn, resp, external) })
	case resp.Fault == "truncated":
		s.takeOver(w, func(conn net.Conn) { s.truncate(conn, resp, external) })
	case resp.Status >= 100 && resp.Status < 200:
		// net/http sends a 1xx as an interim response and a 200 after
		// it; the case wants a final 1xx, which no client can take as a
		// response. Send the status line and headers alone, then close.
		s.takeOver(w, func(conn net.Conn) { sendHead(conn, resp.Status, s.headers(resp, external)) })
	default:
		s.serve(w, r, resp, external)
	}
}

// stall answers a timeout fault on a taken-over connection, so that
// nothing net/http does when the request ends (finishing a chunked body,
// or answering an empty 200 for a handler that wrote nothing) can reach
// the client: it gets the status line and headers when the case gives a
// status, then silence until it gives up. The headers promise at least
// one byte, so that a case without a body is no complete empty response.
func (s *Server) stall(conn net.Conn, resp Response, external bool) {
	if resp.Status != 0 {
		h := s.headers(resp, external)
		if h.Get("Content-Length") == "" {
			h.Set("Content-Length", strconv.Itoa(max(resp.bodySize(), 1)))
		}
		sendHead(conn, resp.Status, h)
	}
	s.holdConn(conn)
}

// truncate answers a truncated fault on a taken-over connection: it
// promises twice the body (at least 1 KiB more), sends all of it, then
// closes. The body is streamed: it may be large.
func (s *Server) truncate(conn net.Conn, resp Response, external bool) {
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	h := s.headers(resp, external)
	h.Set("Content-Length", strconv.Itoa(2*resp.bodySize()+1024))
	s.writeRaw(conn, status, h, resp)
}

// serve answers with the case's status, headers and body, after its
// delay. A Content-Length the case gives is sent as it is, even when it
// does not match the body: a longer one makes the body end early, a
// shorter one sends that many bytes of the body.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, resp Response, external bool) {
	h := w.Header()
	for k, v := range s.headers(resp, external) {
		h[k] = v
	}
	size := resp.bodySize()
	if cl := h.Get("Content-Length"); cl == "" {
		h.Set("Content-Length", strconv.Itoa(size))
	} else if n, err := strconv.Atoi(cl); err != nil || n < 0 {
		// net/http would drop a Content-Length that is no length and
		// send the body chunked: send it as given, the body whole, and
		// close the connection to end it.
		s.takeOver(w, func(conn net.Conn) { s.writeRaw(conn, resp.Status, h, resp) })
		return
	} else if n < size {
		size = n
	}
	w.WriteHeader(resp.Status)
	if resp.Delay > 0 {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		if !s.wait(r.Context(), resp.Delay) {
			return
		}
	}
	if resp.Gen != nil {
		resp.Gen.WriteTo(&limitWriter{w: w, n: size})
		return
	}
	w.Write(resp.Body[:min(size, len(resp.Body))])
}

// writeHead writes a status line and header fields, and the blank line
// that ends them.
func writeHead(w *bufio.Writer, status int, h http.Header) {
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	h.Write(w)
	w.WriteString("\r\n")
}

// sendHead writes a status line and header fields alone on a taken-over
// connection.
func sendHead(conn net.Conn, status int, h http.Header) {
	bw := bufio.NewWriter(conn)
	writeHead(bw, status, h)
	bw.Flush()
}

// writeRaw writes a whole response on a hijacked connection: status line,
// h as given with "Connection: close", and the body, streamed.
func (s *Server) writeRaw(conn net.Conn, status int, h http.Header, resp Response) {
	h.Set("Connection", "close")
	bw := bufio.NewWriter(conn)
	writeHead(bw, status, h)
	if resp.Gen != nil {
		resp.Gen.WriteTo(bw)
	} else {
		bw.Write(resp.Body)
	}
	bw.Flush()
}

// holdConn keeps a hijacked connection open, reading and dropping what
// the client sends, until the client closes it, its deadline (the hold)
// passes or the server closes.
func (s *Server) holdConn(conn net.Conn) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-s.closing:
			conn.Close()
		case <-done:
		}
	}()
	io.Copy(io.Discard, conn)
}

// limitWriter writes at most n bytes to w and drops the rest.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if len(p) > l.n {
		k, err := l.w.Write(p[:l.n])
		l.n -= k
		if err == nil {
			err = io.ErrShortWrite // stops the generator
		}
		return k, err
	}
	k, err := l.w.Write(p)
	l.n -= k
	return k, err
}

// headers returns the response's header fields, with a Content-Type of
// text/plain unless the case gives one, and absolute Locations on served
// origins rewritten for an external fetcher.
func (s *Server) headers(resp Response, external bool) http.Header {
	h := make(http.Header, len(resp.Headers)+1)
	for k, v := range resp.Headers {
		if external && strings.EqualFold(k, "Location") {
			v = s.rewriteLocation(v)
		}
		h.Set(k, v)
	}
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", "text/plain; charset=utf-8")
	}
	return h
}

// bodySize is the length of the response's body, generated or not.
func (r Response) bodySize() int {
	if r.Gen != nil {
		return r.Gen.Size()
	}
	return len(r.Body)
}

// wait sleeps for d unless the request ends or the server closes first; it
// reports whether the whole time passed.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-s.closing:
	}
	return false
}

// rewriteLocation maps an absolute redirect target on a served origin to
// that origin's loopback port.
func (s *Server) rewriteLocation(loc string) string {
	u, err := url.Parse(loc)
	if err != nil || !u.IsAbs() {
		return loc
	}
	ext, err := s.External(loc)
	if err != nil {
		return loc
	}
	return ext
}

// takeOver hijacks the connection of w for f, and closes it when f
// returns; nothing is done when the connection cannot be taken.
func (s *Server) takeOver(w http.ResponseWriter, f func(conn net.Conn)) {
	conn := s.hijack(w)
	if conn == nil {
		return
	}
	defer conn.Close()
	f(conn)
}

// hijack takes over the connection of w. Server.Close does not close
// hijacked connections, so a deadline bounds how long one can be held by
// a client that stops reading.
func (s *Server) hijack(w http.ResponseWriter) net.Conn {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return nil
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return nil
	}
	conn.SetDeadline(time.Now().Add(s.hold))
	return conn
}
