// Command testcrawler is reptest's own crawler for testing reptest crawl:
// it follows every link of the pages it fetches and, with -mode obey,
// obeys RFC 9309 as the reference reads it. The other modes break one
// thing on purpose, so that tests can show that reptest crawl catches
// each:
//
//	obey           fetch each authority's robots.txt first and obey it
//	before-robots  fetch the first page of an authority before its robots.txt
//	5xx-allow      take an unreachable robots.txt (5xx, network error) as allow all
//	first-match    decide by the first matching rule of the group, not the longest
//	ignore-ports   share one robots.txt among all ports of a host
//	port-dropped   fetch scheme://host/robots.txt for every port of a host
//	               (the port left out of the robots.txt URL), and share it
//	flood          request the start URL again and again, with new queries
//	cache-forever  keep the first copy of each robots.txt for the whole run
//	               (obey fetches it again once the copy is over 24 hours old)
//
// Modes combine, separated by commas: -mode port-dropped,first-match.
//
// https URLs are verified against the system's roots, which Go reads
// from $SSL_CERT_FILE when it is set, or against the PEM file given
// with -ca.
//
// Its clock is the real one moved by the offset in the file that
// $FAKETIME_TIMESTAMP_FILE names, as libfaketime would move it: a Go
// program reads the clock without libc, so LD_PRELOAD cannot reach it,
// and the test crawler reads libfaketime's setting itself.
//
// Usage: testcrawler -agent TOKEN -ua HEADER [-mode M[,M]] [-max N] [-ca PEM] [-proxy HOST:PORT] START-URL
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/reptest/reptest/reference"
)

func main() {
	agent := flag.String("agent", "TestCrawler", "the product token")
	ua := flag.String("ua", "", "the User-Agent header (default: the token)")
	mode := flag.String("mode", "obey", "obey, before-robots, 5xx-allow, first-match or ignore-ports")
	max := flag.Int("max", 200, "the most pages to fetch")
	proxy := flag.String("proxy", "", "an HTTP proxy, host:port (default: $http_proxy)")
	ca := flag.String("ca", "", "a PEM file of the CA certificates to trust for https (default: the system's)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: testcrawler -agent TOKEN -ua HEADER [-mode M[,M]] START-URL")
		os.Exit(2)
	}
	modes := map[string]bool{}
	for _, m := range strings.Split(*mode, ",") {
		switch m {
		case "obey", "before-robots", "5xx-allow", "first-match", "ignore-ports", "port-dropped", "flood", "cache-forever":
			modes[m] = true
		default:
			fmt.Fprintf(os.Stderr, "testcrawler: unknown mode %q\n", m)
			os.Exit(2)
		}
	}
	if *ua == "" {
		*ua = *agent
	}
	tr, err := transport(*proxy, *ca)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcrawler:", err)
		os.Exit(2)
	}
	c := &crawler{agent: *agent, ua: *ua, mode: modes, robots: map[string]*copyOf{},
		client: &http.Client{Timeout: 3 * time.Second, Transport: &uaTransport{ua: *ua, base: tr}}}
	if modes["flood"] {
		for i := 0; ; i++ {
			c.fetch(fmt.Sprintf("%s?n=%d", flag.Arg(0), i))
		}
	}
	c.crawl(flag.Arg(0), *max)
}

type crawler struct {
	agent, ua string
	mode      map[string]bool
	client    *http.Client
	robots    map[string]*copyOf
}

// copyOf is a fetched robots.txt and when it was fetched.
type copyOf struct {
	res *reference.Result
	at  time.Time
}

// maxAge is how long a copy is used (RFC 9309 §2.4: SHOULD NOT use a
// cached copy for more than 24 hours).
const maxAge = 24 * time.Hour

// transport is the HTTP transport: through the proxy when one is given,
// trusting the CA file when one is given.
func transport(proxy, caFile string) (*http.Transport, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if proxy != "" {
		tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: proxy})
	}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: no PEM certificate", caFile)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	}
	return tr, nil
}

// uaTransport sets the User-Agent header on every request.
type uaTransport struct {
	ua   string
	base http.RoundTripper
}

func (t *uaTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("User-Agent", t.ua)
	return t.base.RoundTrip(r)
}

func (c *crawler) crawl(start string, max int) {
	queue := []string{start}
	seen := map[string]bool{start: true}
	for len(queue) > 0 && max > 0 {
		u := queue[0]
		queue = queue[1:]
		var links []string
		if c.mode["before-robots"] && c.robots[c.key(u)] == nil {
			links = c.fetch(u)
			max--
			c.rules(u)
		} else {
			if !c.allowed(u) {
				continue
			}
			links = c.fetch(u)
			max--
		}
		for _, l := range links {
			if !seen[l] {
				seen[l] = true
				queue = append(queue, l)
			}
		}
	}
}

// key is the cache key of u's robots.txt: its origin, or its scheme and
// host alone when ports are ignored or dropped.
func (c *crawler) key(u string) string {
	o, err := reference.Origin(u)
	if err != nil {
		return u
	}
	if c.mode["ignore-ports"] || c.mode["port-dropped"] {
		p, err := url.Parse(o)
		if err == nil {
			return p.Scheme + "://" + p.Hostname()
		}
	}
	return o
}

// rules returns u's robots.txt, fetching it the first time and, unless
// the mode is cache-forever, again once the copy is over 24 hours old.
func (c *crawler) rules(u string) *reference.Result {
	k := c.key(u)
	if cp := c.robots[k]; cp != nil && (c.mode["cache-forever"] || now().Sub(cp.at) <= maxAge) {
		return cp.res
	}
	robotsURL, err := reference.RobotsURL(u)
	if err != nil {
		return nil
	}
	if c.mode["port-dropped"] {
		// The hand-written shortcut: scheme://host/robots.txt.
		robotsURL = k + "/robots.txt"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res := reference.Fetch(ctx, c.client, robotsURL, reference.RFC())
	if res.Info.Access == reference.NotReachable {
		fmt.Fprintf(os.Stderr, "testcrawler: %s: %s\n", robotsURL, res.Info.Why)
	}
	if c.mode["5xx-allow"] && res.Info.Access == reference.NotReachable {
		res = reference.FromStatus(http.StatusNotFound, nil, reference.RFC())
	}
	c.robots[k] = &copyOf{res: res, at: now()}
	return res
}

// now is the clock as libfaketime would show it to a C program run with
// the same environment: the real time moved by the offset ("+90000",
// "-5", in seconds) in $FAKETIME_TIMESTAMP_FILE, read afresh each time.
func now() time.Time {
	t := time.Now()
	name := os.Getenv("FAKETIME_TIMESTAMP_FILE")
	if name == "" {
		return t
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return t
	}
	var secs int64
	if _, err := fmt.Sscanf(strings.TrimSpace(string(b)), "%d", &secs); err != nil {
		return t
	}
	return t.Add(time.Duration(secs) * time.Second)
}

func (c *crawler) allowed(u string) bool {
	res := c.rules(u)
	if res == nil {
		return false
	}
	if c.mode["first-match"] && res.Robots != nil {
		return firstMatch(res.Robots, c.agent, u)
	}
	d, err := res.Decide(c.agent, u)
	return err == nil && d.Allowed
}

var href = regexp.MustCompile(`href="([^"]*)"`)

// fetch gets u and returns the links of an HTML page.
func (c *crawler) fetch(u string) []string {
	resp, err := c.client.Get(u)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcrawler:", err)
		return nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		return nil
	}
	base, err := url.Parse(u)
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range href.FindAllStringSubmatch(string(body), -1) {
		if l, err := base.Parse(html.UnescapeString(m[1])); err == nil {
			out = append(out, l.String())
		}
	}
	return out
}
