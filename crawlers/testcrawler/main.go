// Command testcrawler is reptest's own crawler for testing reptest crawl:
// it follows every link of the pages it fetches and, by default, obeys RFC
// 9309 as the reference reads it. With -variant it makes the misreadings
// of the reference's catalogue named there (reptest variants lists them),
// joined by "+": those of a parser through the reference's options, and
// those only a crawler can make (kind crawl) itself:
//
//	port-ignored        share one robots.txt among all ports of a host
//	scheme-ignored      share one robots.txt between http and https
//	robots-after-page   fetch the first page of an authority before its robots.txt
//	robots-other-agent  fetch robots.txt with Go's default User-Agent header
//
// -mode names a few combinations, and one thing that is no misreading:
//
//	obey           no misreading (the default)
//	before-robots  robots-after-page
//	5xx-allow      5xx-allows+unreachable-allows
//	first-match    first-match
//	ignore-ports   port-ignored
//	port-dropped   port-ignored, with robots.txt fetched as scheme://host/robots.txt
//	               (the port left out of its URL: a common hand-written shortcut)
//	flood          request the start URL again and again, with new queries
//	cache-forever  keep the first copy of each robots.txt for the whole run
//	               (otherwise it is fetched again once the copy is over 24 hours old)
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
// Usage: testcrawler -agent TOKEN -ua HEADER [-mode M[,M]] [-variant ID+ID] [-max N] [-ca PEM] [-proxy HOST:PORT] START-URL
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
	mode := flag.String("mode", "obey", "obey, before-robots, 5xx-allow, first-match, ignore-ports, port-dropped, flood or cache-forever, joined by commas")
	variant := flag.String("variant", "", "misreadings to make, joined by +: see reptest variants")
	max := flag.Int("max", 200, "the most pages to fetch")
	proxy := flag.String("proxy", "", "an HTTP proxy, host:port (default: $http_proxy)")
	ca := flag.String("ca", "", "a PEM file of the CA certificates to trust for https (default: the system's)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: testcrawler -agent TOKEN -ua HEADER [-mode M[,M]] [-variant ID+ID] START-URL")
		os.Exit(2)
	}
	var ids []string
	set := map[string]bool{}
	for _, m := range strings.Split(*mode, ",") {
		more, ok := modes[m]
		if !ok {
			fmt.Fprintf(os.Stderr, "testcrawler: unknown mode %q\n", m)
			os.Exit(2)
		}
		ids = append(ids, more...)
		set[m] = true
	}
	if *variant != "" {
		ids = append(ids, strings.Split(*variant, "+")...)
	}
	opts, err := reference.WithMisreadings(reference.RFC(), ids...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcrawler:", err)
		os.Exit(2)
	}
	if *ua == "" {
		*ua = *agent
	}
	robotsUA := *ua
	if opts.RobotsOtherAgent {
		robotsUA = "Go-http-client/1.1"
	}
	tr, err := transport(*proxy, *ca)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcrawler:", err)
		os.Exit(2)
	}
	c := &crawler{agent: *agent, opts: opts, portDropped: set["port-dropped"], cacheForever: set["cache-forever"], robots: map[string]*copyOf{},
		client:      &http.Client{Timeout: 3 * time.Second, Transport: &uaTransport{ua: *ua, base: tr}},
		robotClient: &http.Client{Timeout: 3 * time.Second, Transport: &uaTransport{ua: robotsUA, base: tr}}}
	if set["flood"] {
		for i := 0; ; i++ {
			c.fetch(fmt.Sprintf("%s?n=%d", flag.Arg(0), i))
		}
	}
	c.crawl(flag.Arg(0), *max)
}

// modes maps each -mode to the misreadings it makes.
var modes = map[string][]string{
	"obey":          nil,
	"before-robots": {"robots-after-page"},
	"5xx-allow":     {"5xx-allows", "unreachable-allows"},
	"first-match":   {"first-match"},
	"ignore-ports":  {"port-ignored"},
	"port-dropped":  {"port-ignored"},
	"flood":         nil,
	"cache-forever": nil,
}

type crawler struct {
	agent string
	// opts are the reference's options with the misreadings applied; the
	// crawl ones (Misread.PortIgnored...) are the crawler's to make.
	opts reference.Options
	// portDropped fetches robots.txt without the URL's port (mode
	// port-dropped), where port-ignored alone fetches it from the first
	// port of the host met.
	portDropped bool
	// cacheForever keeps each first copy for the whole run (mode
	// cache-forever).
	cacheForever        bool
	client, robotClient *http.Client
	robots              map[string]*copyOf
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
		if c.opts.RobotsAfterPage && c.robots[c.key(u)] == nil {
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

// key is the cache key of u's robots.txt: its origin, without the port
// and the scheme when the misreadings ignore them.
func (c *crawler) key(u string) string {
	o, err := reference.Origin(u)
	if err != nil {
		return u
	}
	p, err := url.Parse(o)
	if err != nil || !c.opts.PortIgnored && !c.opts.SchemeIgnored {
		return o
	}
	k := p.Host
	if c.opts.PortIgnored {
		k = p.Hostname()
	}
	if !c.opts.SchemeIgnored {
		k = p.Scheme + "://" + k
	}
	return k
}

// rules returns u's robots.txt, fetching it the first time and, unless
// the mode is cache-forever, again once the copy is over 24 hours old.
func (c *crawler) rules(u string) *reference.Result {
	k := c.key(u)
	if cp := c.robots[k]; cp != nil && (c.cacheForever || now().Sub(cp.at) <= maxAge) {
		return cp.res
	}
	robotsURL, err := reference.RobotsURL(u)
	if err != nil {
		return nil
	}
	if p, err := url.Parse(robotsURL); err == nil && c.portDropped {
		// The hand-written shortcut: scheme://host/robots.txt.
		robotsURL = p.Scheme + "://" + p.Hostname() + "/robots.txt"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res := reference.Fetch(ctx, c.robotClient, robotsURL, c.opts)
	if res.Info.Access == reference.NotReachable {
		fmt.Fprintf(os.Stderr, "testcrawler: %s: %s\n", robotsURL, res.Info.Why)
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
