package crawl

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reptest/reptest/cases"
)

func oneScenario(t *testing.T, id string) *Scenario {
	t.Helper()
	all, err := cases.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	for i := range all {
		if all[i].ID == id {
			return &Scenarios(&all[i])[0]
		}
	}
	t.Fatalf("no case %s", id)
	return nil
}

func newLab(t *testing.T, opts LabOptions) *Lab {
	t.Helper()
	lab, err := NewLab(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lab.Close() })
	return lab
}

// client trusts the lab's CA alone, and follows no redirect.
func client(t *testing.T, lab *Lab) *http.Client {
	t.Helper()
	pem, err := os.ReadFile(lab.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("%s holds no PEM certificate", lab.CAFile())
	}
	return &http.Client{
		Timeout:       5 * time.Second,
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func get(t *testing.T, c *http.Client, u string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

var linkRE = regexp.MustCompile(`href="([^"]*)"`)

// links returns the origins of the start page's links, in order.
func links(t *testing.T, c *http.Client, start string) []string {
	_, page := get(t, c, start)
	var out []string
	for _, m := range linkRE.FindAllStringSubmatch(page, -1) {
		if o := OriginOf(m[1]); o != "" && !contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// In the address layout each host has an address of its own and each
// origin the case's port there, default ports left out of the links;
// https speaks TLS with a certificate of the lab's CA for the address.
func TestAddressLayout(t *testing.T) {
	lab := newLab(t, LabOptions{})
	if lab.Layout() != LayoutAddresses {
		t.Skipf("the address layout needs low ports bound (root or CAP_NET_BIND_SERVICE): %s", lab.Note())
	}
	site, err := NewSite(oneScenario(t, "access/authority-separate-files"), lab, false, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	c := client(t, lab)
	got := links(t, c, site.Start())
	// a.test on http 80, 8080 and https 443 of one address; www.a.test
	// on the next.
	ip := regexp.MustCompile(`^http://(127\.\d+\.\d+\.)(\d+)/`).FindStringSubmatch(site.Start())
	if ip == nil {
		t.Fatalf("start %s: want http://127.x.y.z/ with no port", site.Start())
	}
	a, www := ip[1]+ip[2], fmt.Sprintf("%s%d", ip[1], atoi(ip[2])+1)
	want := []string{"http://" + a, "http://" + a + ":8080", "https://" + a, "http://" + www}
	if !sameSet(got, want) {
		t.Errorf("origins linked: %q; want %q", got, want)
	}
	if _, body := get(t, c, "https://"+a+"/robots.txt"); !strings.Contains(body, "Disallow: /z") {
		t.Errorf("https://%s/robots.txt: %q; want https://a.test's file", a, body)
	}
	if _, body := get(t, c, "http://"+a+":8080/robots.txt"); !strings.Contains(body, "Disallow: /y") {
		t.Errorf("http://%s:8080/robots.txt: %q; want http://a.test:8080's file", a, body)
	}
	log := site.Log()
	if n := len(log); n < 3 || log[n-2].URL != "https://a.test/robots.txt" || log[n-1].URL != "http://a.test:8080/robots.txt" {
		t.Errorf("log %+v; want the case's own URLs", log)
	}
	// Without the CA the certificate is refused, and the site hears of it.
	if _, err := http.Get("https://" + a + "/robots.txt"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a client without the CA: %v; want a certificate error", err)
	}
	waitFor(t, func() bool { return len(site.TLSErrors()) > 0 })
	if e := site.TLSErrors(); !strings.HasPrefix(e[0], "https://a.test: remote error: tls:") {
		t.Errorf("TLS errors %q", e)
	}
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !contains(b, x) {
			return false
		}
	}
	return true
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 100 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("timed out")
}

// Redirects across origins point at the target's address and port.
func TestAddressLayoutRedirect(t *testing.T) {
	lab := newLab(t, LabOptions{})
	if lab.Layout() != LayoutAddresses {
		t.Skipf("the address layout needs low ports bound (root or CAP_NET_BIND_SERVICE): %s", lab.Note())
	}
	site, err := NewSite(oneScenario(t, "access/redirect-4-hops"), lab, false, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	c := client(t, lab)
	resp, _ := get(t, c, OriginOf(site.Start())+"/robots.txt")
	loc := resp.Header.Get("Location")
	if !regexp.MustCompile(`^http://127\.\d+\.\d+\.2:8080/r1$`).MatchString(loc) {
		t.Fatalf("Location %q; want b.test:8080 at the second address of the block, port 8080", loc)
	}
	if resp, _ = get(t, c, loc); resp.StatusCode != http.StatusFound {
		t.Errorf("%s: %d; want the case's 302", loc, resp.StatusCode)
	}
}

// listenFailing is net.Listen, except that ports below 1024 fail as they
// do for a user without CAP_NET_BIND_SERVICE, and the first inUse binds
// of port 80 fail as an address in use does.
func listenFailing(inUse int) func(string, string) (net.Listener, error) {
	return func(network, addr string) (net.Listener, error) {
		_, port, _ := net.SplitHostPort(addr)
		if port == "80" && inUse > 0 {
			inUse--
			return nil, &net.OpError{Op: "listen", Net: network, Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}
		}
		if n := atoi(port); n > 0 && n < 1024 {
			return nil, &net.OpError{Op: "listen", Net: network, Err: os.NewSyscallError("bind", syscall.EACCES)}
		}
		return net.Listen(network, addr)
	}
}

// When the low ports cannot be bound, each origin is a port of
// 127.0.0.1, https still over TLS, and the lab says why. (The probe
// first meets two addresses in use, and moves on past them.)
func TestPortsFallback(t *testing.T) {
	lab := newLab(t, LabOptions{Listen: listenFailing(2)})
	if lab.Layout() != LayoutPorts || !strings.Contains(lab.Note(), "permission denied") || !strings.Contains(lab.Note(), "CAP_NET_BIND_SERVICE") {
		t.Fatalf("layout %s, note %q; want the ports layout and why", lab.Layout(), lab.Note())
	}
	site, err := NewSite(oneScenario(t, "access/authority-separate-files"), lab, false, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	c := client(t, lab)
	got := links(t, c, site.Start())
	if len(got) != 4 {
		t.Fatalf("origins linked: %q; want 4", got)
	}
	for _, o := range got {
		if !regexp.MustCompile(`^https?://127\.0\.0\.1:\d+$`).MatchString(o) {
			t.Errorf("origin %s: want a port of 127.0.0.1", o)
		}
		if strings.HasPrefix(o, "https:") {
			if _, body := get(t, c, o+"/robots.txt"); !strings.Contains(body, "Disallow: /z") {
				t.Errorf("%s/robots.txt: %q; want https://a.test's file", o, body)
			}
		}
	}
}

// An address in use (another program) moves a site to the next block.
func TestAddressInUse(t *testing.T) {
	probes := 0
	lab := newLab(t, LabOptions{Listen: func(network, addr string) (net.Listener, error) {
		if probes++; probes <= 3 {
			return nil, &net.OpError{Op: "listen", Net: network, Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}
		}
		return net.Listen(network, "127.0.0.1:0")
	}})
	if lab.Layout() != LayoutAddresses {
		t.Fatalf("layout %s (%s); want addresses after the blocks in use", lab.Layout(), lab.Note())
	}
	calls := 0
	lab.listen = func(network, addr string) (net.Listener, error) {
		calls++
		if calls <= 2 {
			return nil, &net.OpError{Op: "listen", Net: network, Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}
		}
		return net.Listen(network, "127.0.0.1:0")
	}
	srv := cases.NewServer()
	defer srv.Close()
	if err := lab.serve(srv, []string{"http://a.test", "https://b.test"}, nil); err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Errorf("%d binds; want 2 failed, then 2 in the third block", calls)
	}
}

// A scenario with more hosts than a block holds is an error that says
// so; two schemes on one port of a host too.
func TestLayoutLimits(t *testing.T) {
	lab := newLab(t, LabOptions{Layout: LayoutAddresses, Listen: func(network, _ string) (net.Listener, error) {
		return net.Listen(network, "127.0.0.1:0")
	}})
	var many []string
	for i := range blockHosts + 1 {
		many = append(many, fmt.Sprintf("http://h%d.test", i))
	}
	for _, tc := range []struct {
		origins []string
		want    string
	}{
		{many, "more than 254 hosts"},
		{[]string{"http://a.test:8443", "https://a.test:8443"}, "serves both http and https on port 8443"},
	} {
		srv := cases.NewServer()
		err := lab.serve(srv, tc.origins, nil)
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d origins: %v; want an error saying %q", len(tc.origins), err, tc.want)
		}
	}
}

// The CA is a CA, its file is PEM, and a site's certificate names the
// addresses and chains to it.
func TestTestCA(t *testing.T) {
	lab := newLab(t, LabOptions{})
	b, err := os.ReadFile(lab.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) || !lab.ca.cert.IsCA {
		t.Fatalf("%s: no CA certificate", lab.CAFile())
	}
	ips := []net.IP{net.IPv4(127, 9, 8, 7), net.IPv4(127, 9, 8, 8)}
	cert, err := lab.ca.issue(ips)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, ip := range ips {
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: ip.String()}); err != nil {
			t.Errorf("%s: %v", ip, err)
		}
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"}); err == nil {
		t.Error("the certificate is valid for an address it does not name")
	}
	other, _ := newTestCA()
	otherPool := x509.NewCertPool()
	otherPool.AppendCertsFromPEM(other.pem)
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: otherPool, DNSName: ips[0].String()}); err == nil {
		t.Error("another CA verifies the certificate")
	}
	env := strings.Join(lab.CAEnv(), "\n")
	for _, v := range []string{"SSL_CERT_FILE=", "REQUESTS_CA_BUNDLE=", "CURL_CA_BUNDLE=", "NODE_EXTRA_CA_CERTS="} {
		if !strings.Contains(env, v+lab.CAFile()) {
			t.Errorf("the environment has no %s%s", v, lab.CAFile())
		}
	}
	if errors.Is(lab.Close(), os.ErrNotExist) {
		t.Error("Close")
	}
	if _, err := os.Stat(lab.CAFile()); err == nil {
		t.Error("the CA file outlives the lab")
	}
}
