package crawl

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/reptest/reptest/cases"
)

// Layout says how a crawl's sites are laid out on the loopback interface.
type Layout string

// The layouts.
const (
	// LayoutAddresses gives each host of a case an address of its own in
	// 127.0.0.0/8 and serves each origin on the case's own port there (80,
	// 443, 8080, …): the start page links http://127.1.2.3/x and
	// https://127.1.2.4/y, default ports left out, as a real site's would.
	LayoutAddresses Layout = "addresses"
	// LayoutPorts serves every origin on a port of its own of 127.0.0.1:
	// the fallback when the low ports cannot be bound.
	LayoutPorts Layout = "ports"
)

// LabOptions configure NewLab.
type LabOptions struct {
	// Layout forces a layout; empty picks LayoutAddresses when reptest
	// can bind a low port, and LayoutPorts otherwise.
	Layout Layout
	// Listen binds a TCP listener; nil means net.Listen. Tests set it to
	// simulate a failure to bind.
	Listen func(network, address string) (net.Listener, error)
}

// A Lab is where one crawl's scenarios are served: the layout of their
// origins on the loopback interface, a supply of disjoint address blocks
// (one per scenario, so that scenarios run at once never share an
// address), and the crawl's test CA, which issues the certificates of
// the https origins and is handed to the crawler. A Lab is safe for use
// by concurrent scenarios.
type Lab struct {
	layout Layout
	note   string
	ca     *testCA
	dir    string
	listen func(network, address string) (net.Listener, error)
	next   atomic.Int64 // the next address block, counted from a random start
}

// Address blocks: block k holds 127.(1+k/256).(k%256).1 to .254, so that
// no block holds 127.0.0.1, where other services listen.
const (
	blockCount = 254 * 256
	blockHosts = 254
	// bindTries bounds how many blocks a scenario tries when an address
	// of a block is in use (by another program on the machine).
	bindTries = 8
)

// NewLab makes a lab: the test CA and its files, and the layout, probed
// by binding port 80 of an address block unless opts forces one.
func NewLab(opts LabOptions) (*Lab, error) {
	l := &Lab{layout: opts.Layout, listen: opts.Listen}
	if l.listen == nil {
		l.listen = net.Listen
	}
	switch l.layout {
	case "", LayoutAddresses, LayoutPorts:
	default:
		return nil, fmt.Errorf("crawl: unknown layout %q (want %s or %s)", l.layout, LayoutAddresses, LayoutPorts)
	}
	l.next.Store(rand.Int64N(blockCount))
	ca, err := newTestCA()
	if err != nil {
		return nil, err
	}
	l.ca = ca
	if l.dir, err = os.MkdirTemp("", "reptest-lab-*"); err != nil {
		return nil, fmt.Errorf("crawl: %w", err)
	}
	if err := l.writeFiles(); err != nil {
		l.Close()
		return nil, err
	}
	if l.layout == "" {
		l.layout, l.note = l.probe()
	}
	return l, nil
}

// writeFiles writes the CA certificate and the configuration files that
// point wget and wget2 at it (they read no environment variable for it).
func (l *Lab) writeFiles() error {
	files := map[string]string{
		"ca.pem":  string(l.ca.pem),
		"wgetrc":  "ca_certificate = " + l.CAFile() + "\n",
		"wget2rc": "ca-certificate = " + l.CAFile() + "\n",
		"README":  "The test CA of one reptest crawl, removed when it ends.\n",
	}
	// Readable by all: a crawler run as root may drop to another user
	// (LinkChecker switches to nobody) and must still read the CA.
	if err := os.Chmod(l.dir, 0o755); err != nil {
		return fmt.Errorf("crawl: %w", err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(l.dir, name), []byte(body), 0o644); err != nil {
			return fmt.Errorf("crawl: %w", err)
		}
	}
	return nil
}

// probe binds port 80 of an address block, to learn whether the address
// layout can run; the note says why it cannot.
func (l *Lab) probe() (Layout, string) {
	var last error
	for range bindTries {
		ip := blockIP(l.block(), 1)
		ln, err := l.listen("tcp", net.JoinHostPort(ip.String(), "80"))
		if err == nil {
			ln.Close()
			return LayoutAddresses, ""
		}
		last = err
		if !errors.Is(err, syscall.EADDRINUSE) {
			break
		}
	}
	why := last.Error()
	if errors.Is(last, syscall.EACCES) || errors.Is(last, syscall.EPERM) {
		why += " (binding a port below 1024 needs root or CAP_NET_BIND_SERVICE)"
	}
	return LayoutPorts, "each origin served on a port of 127.0.0.1: reptest could not bind port 80 of a loopback address: " + why
}

// Layout is the layout the lab's scenarios are served in.
func (l *Lab) Layout() Layout { return l.layout }

// Note says why the lab fell back to LayoutPorts; empty otherwise.
func (l *Lab) Note() string { return l.note }

// CAFile is the PEM file of the test CA's certificate: the {ca} of a
// crawler template.
func (l *Lab) CAFile() string { return filepath.Join(l.dir, "ca.pem") }

// CAEnv returns the environment variables that point common HTTP clients
// at the test CA (see the README's crawl section for which reads which).
func (l *Lab) CAEnv() []string {
	ca := l.CAFile()
	return []string{
		"SSL_CERT_FILE=" + ca,                               // OpenSSL's default paths: Python's ssl, Ruby's net/http, Go's crypto/x509, curl with OpenSSL
		"REQUESTS_CA_BUNDLE=" + ca,                          // Python requests (LinkChecker)
		"CURL_CA_BUNDLE=" + ca,                              // curl, and pycurl users
		"NODE_EXTRA_CA_CERTS=" + ca,                         // Node.js, added to its bundled roots
		"PERL_LWP_SSL_CA_FILE=" + ca, "HTTPS_CA_FILE=" + ca, // Perl LWP
		"WGETRC=" + filepath.Join(l.dir, "wgetrc"),   // GNU Wget (GnuTLS reads no CA variable)
		"WGET2RC=" + filepath.Join(l.dir, "wget2rc"), // GNU Wget2
	}
}

// Close removes the lab's files.
func (l *Lab) Close() error { return os.RemoveAll(l.dir) }

// block takes the next address block.
func (l *Lab) block() int64 { return (l.next.Add(1) - 1) % blockCount }

// blockIP is the h-th address (1 to blockHosts) of block k.
func blockIP(k int64, h int) net.IP {
	return net.IPv4(127, byte(1+k/256), byte(k%256), byte(h)).To4()
}

// origin is an origin of a scenario, split for binding.
type origin struct {
	name   string // "https://a.test:8443", as OriginOf writes it
	scheme string
	host   string
	port   string // always given: 80 and 443 for the defaults
}

func splitOrigin(o string) (origin, error) {
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return origin{}, fmt.Errorf("crawl: %q is no http or https origin", o)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return origin{name: o, scheme: u.Scheme, host: strings.ToLower(u.Hostname()), port: port}, nil
}

// base is how a crawler reaches the origin at ip: scheme://ip[:port],
// the default port left out.
func (o origin) base(ip net.IP, port string) string {
	if o.scheme == "http" && port == "80" || o.scheme == "https" && port == "443" {
		return o.scheme + "://" + ip.String()
	}
	return o.scheme + "://" + net.JoinHostPort(ip.String(), port)
}

// serve binds a listener for each origin in the lab's layout and serves
// the origin there on srv, over TLS for https with a certificate of the
// lab's CA. watch, when set, gives an origin's error log and connection
// hook.
func (l *Lab) serve(srv *cases.Server, origins []string, watch func(origin string) (io.Writer, func(net.Conn, http.ConnState))) error {
	var ors []origin
	seen := map[string]bool{}
	for _, o := range origins {
		so, err := splitOrigin(o)
		if err != nil {
			return err
		}
		if !seen[so.name] {
			seen[so.name] = true
			ors = append(ors, so)
		}
	}
	var bs []binding
	var err error
	if l.layout == LayoutPorts {
		bs, err = l.bindPorts(ors)
	} else {
		for range bindTries {
			if bs, err = l.bindBlock(ors, l.block()); !errors.Is(err, syscall.EADDRINUSE) {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	var ips []net.IP
	for _, b := range bs {
		if b.origin.scheme == "https" && !slices.ContainsFunc(ips, b.ip.Equal) {
			ips = append(ips, b.ip)
		}
	}
	var cfg *tls.Config
	if len(ips) > 0 {
		if cfg, err = l.ca.serverConfig(ips); err != nil {
			closeAll(bs)
			return err
		}
	}
	for i, b := range bs {
		var c *tls.Config
		if b.origin.scheme == "https" {
			c = cfg
		}
		how := cases.Listening{Base: b.base, TLS: c}
		if watch != nil {
			how.Errors, how.ConnState = watch(b.origin.name)
		}
		if err := srv.ServeListener(b.origin.name, b.ln, how); err != nil {
			closeAll(bs[i:])
			return err
		}
	}
	return nil
}

// binding is one origin's listener.
type binding struct {
	origin origin
	ip     net.IP
	ln     net.Listener
	base   string
}

func closeAll(bs []binding) {
	for _, b := range bs {
		b.ln.Close()
	}
}

// bindBlock binds the origins in address block k: each host its own
// address, each origin its own port there.
func (l *Lab) bindBlock(ors []origin, k int64) ([]binding, error) {
	hosts := map[string]int{}
	scheme := map[string]string{} // ip:port → the scheme served there
	var bs []binding
	for _, o := range ors {
		h, ok := hosts[o.host]
		if !ok {
			h = len(hosts) + 1
			hosts[o.host] = h
		}
		if h > blockHosts {
			closeAll(bs)
			return nil, fmt.Errorf("crawl: the scenario has more than %d hosts, and an address block holds %d addresses of 127.0.0.0/8", blockHosts, blockHosts)
		}
		ip := blockIP(k, h)
		addr := net.JoinHostPort(ip.String(), o.port)
		if s, ok := scheme[addr]; ok {
			closeAll(bs)
			return nil, fmt.Errorf("crawl: %s serves both %s and %s on port %s, and one listener serves one scheme", o.host, s, o.scheme, o.port)
		}
		scheme[addr] = o.scheme
		ln, err := l.listen("tcp", addr)
		if err != nil {
			closeAll(bs)
			return nil, fmt.Errorf("crawl: binding %s for %s: %w", addr, o.name, err)
		}
		bs = append(bs, binding{origin: o, ip: ip, ln: ln, base: o.base(ip, o.port)})
	}
	return bs, nil
}

// bindPorts binds each origin on a port of its own of 127.0.0.1.
func (l *Lab) bindPorts(ors []origin) ([]binding, error) {
	var bs []binding
	ip := net.IPv4(127, 0, 0, 1).To4()
	for _, o := range ors {
		ln, err := l.listen("tcp", "127.0.0.1:0")
		if err != nil {
			closeAll(bs)
			return nil, fmt.Errorf("crawl: binding a port of 127.0.0.1 for %s: %w", o.name, err)
		}
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		bs = append(bs, binding{origin: o, ip: ip, ln: ln, base: o.scheme + "://" + net.JoinHostPort(ip.String(), port)})
	}
	return bs, nil
}
