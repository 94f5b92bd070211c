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
//	flood          request the start URL again and again, with new queries
//
// Usage: testcrawler -agent TOKEN -ua HEADER [-mode M] [-variant ID+ID] [-max N] [-proxy HOST:PORT] START-URL
package main

import (
	"context"
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
	mode := flag.String("mode", "obey", "obey, before-robots, 5xx-allow, first-match, ignore-ports or flood")
	variant := flag.String("variant", "", "misreadings to make, joined by +: see reptest variants")
	max := flag.Int("max", 200, "the most pages to fetch")
	proxy := flag.String("proxy", "", "an HTTP proxy, host:port (default: $http_proxy)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: testcrawler -agent TOKEN -ua HEADER [-mode M] START-URL")
		os.Exit(2)
	}
	ids, ok := modes[*mode]
	if !ok {
		fmt.Fprintf(os.Stderr, "testcrawler: unknown mode %q\n", *mode)
		os.Exit(2)
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
	c := &crawler{agent: *agent, opts: opts, robots: map[string]*reference.Result{},
		client:      &http.Client{Timeout: 3 * time.Second, Transport: &uaTransport{ua: *ua, proxy: *proxy}},
		robotClient: &http.Client{Timeout: 3 * time.Second, Transport: &uaTransport{ua: robotsUA, proxy: *proxy}}}
	if *mode == "flood" {
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
	"flood":         nil,
}

type crawler struct {
	agent string
	// opts are the reference's options with the misreadings applied; the
	// crawl ones (Misread.PortIgnored...) are the crawler's to make.
	opts                reference.Options
	client, robotClient *http.Client
	robots              map[string]*reference.Result
}

// uaTransport sets the User-Agent header on every request.
type uaTransport struct{ ua, proxy string }

func (t *uaTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("User-Agent", t.ua)
	if t.proxy != "" {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: t.proxy})
		return tr.RoundTrip(r)
	}
	return http.DefaultTransport.RoundTrip(r)
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

// rules returns u's robots.txt, fetching it the first time.
func (c *crawler) rules(u string) *reference.Result {
	k := c.key(u)
	if res := c.robots[k]; res != nil {
		return res
	}
	robotsURL, err := reference.RobotsURL(u)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res := reference.Fetch(ctx, c.robotClient, robotsURL, c.opts)
	c.robots[k] = res
	return res
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
