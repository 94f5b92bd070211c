package diff

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/textproto"
	"strings"

	"github.com/reptest/reptest/warc"
)

// CrawlShares are the shares (in percent) of the kinds of response
// WriteCrawl writes, after those of Common Crawl's robots.txt captures:
// most fetches succeed, about one in eight redirects (http to https, to
// the www host), and a sixth have no file (404 and friends) or fail.
var CrawlShares = struct {
	Success, Redirect, Unavailable, Unreachable int
	// Copies is the share of successes whose body is one of a few
	// hundred common ones (a hosting platform's default file, the same
	// site under several host names).
	Copies int
}{Success: 70, Redirect: 12, Unavailable: 15, Unreachable: 3, Copies: 35}

// Body sizes of successes are log-normal with a median of 1.2 KB and a
// 90th percentile of 24 KB, cut to 20 bytes .. 1 MiB: what the robots.txt
// files of a crawl look like (a few hundred bytes to a few KB for most,
// a long tail of generated lists of rules).
const (
	crawlMedianBytes = 1200
	crawlP90Bytes    = 24000
	crawlMaxBytes    = 1 << 20
	crawlCommon      = 400 // bodies shared by many hosts
)

// WriteCrawl writes a WARC.gz file of responses robots.txt fetches, as a
// crawl's robots.txt subset holds them: for each, a request record and a
// response record, of the kinds and body sizes above (CrawlShares). The
// file depends only on seed and responses; the bodies of a seed are the
// same in every file written with it, so files of one seed share their
// common bodies as a crawl's segments do.
func WriteCrawl(w io.Writer, seed uint64, first, responses int) error {
	wr := warc.NewWriter(w, true)
	for i := first; i < first+responses; i++ {
		r := rand.New(rand.NewPCG(seed, uint64(i)))
		host := fmt.Sprintf("site%d.example", i)
		head, body := crawlResponse(r, seed, host)
		uri := "http://" + host + "/robots.txt"
		if err := crawlRecord(wr, "request", uri, "GET /robots.txt HTTP/1.1\r\nHost: "+host+"\r\n\r\n"); err != nil {
			return err
		}
		msg := "HTTP/1.1 " + head + "\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
		if err := crawlRecord(wr, "response", uri, msg); err != nil {
			return err
		}
	}
	return nil
}

func crawlRecord(wr *warc.Writer, typ, uri, block string) error {
	h := textproto.MIMEHeader{}
	h.Set("WARC-Type", typ)
	h.Set("WARC-Target-URI", uri)
	h.Set("Content-Type", "application/http; msgtype="+typ)
	return wr.Write(h, []byte(block))
}

// crawlResponse returns one response's status line and header, and its
// body.
func crawlResponse(r *rand.Rand, seed uint64, host string) (string, string) {
	s := CrawlShares
	switch k := r.IntN(100); {
	case k < s.Redirect:
		return "301 Moved Permanently\r\nLocation: https://www." + host + "/robots.txt", ""
	case k < s.Redirect+s.Unavailable:
		return []string{"404 Not Found", "404 Not Found", "404 Not Found", "403 Forbidden", "410 Gone"}[r.IntN(5)] +
			"\r\nContent-Type: text/html", "<html><body>Not found</body></html>"
	case k < s.Redirect+s.Unavailable+s.Unreachable:
		return []string{"500 Internal Server Error", "503 Service Unavailable"}[r.IntN(2)], ""
	}
	head := "200 OK\r\nContent-Type: text/plain"
	if r.IntN(100) < s.Copies {
		// A few common bodies are most of the copies (Zipf-like).
		k := int(math.Floor(math.Pow(float64(crawlCommon), r.Float64()))) - 1
		return head, CrawlBody(rand.New(rand.NewPCG(seed, uint64(1<<40+k))))
	}
	return head, CrawlBody(r)
}

// CrawlBody returns a robots.txt body of a size drawn from the crawl's
// distribution: groups for "*" and named crawlers, rules with
// directories, files, wildcards, "$", queries and percent escapes,
// sitemaps, comments, and now and then one of Generate's hostile files.
func CrawlBody(r *rand.Rand) string {
	sigma := math.Log(crawlP90Bytes/crawlMedianBytes) / 1.2816
	size := int(math.Exp(math.Log(crawlMedianBytes) + sigma*r.NormFloat64()))
	size = min(max(size, 20), crawlMaxBytes)
	var b strings.Builder
	if r.IntN(100) < 10 {
		b.Write(GenerateFile(r.Uint64(), r.IntN(1000)))
	}
	agents := []string{"*", "Googlebot", "Bingbot", "GPTBot", "AhrefsBot", "Baiduspider", "YandexBot", "CCBot", "MJ12bot", "SemrushBot"}
	dirs := []string{"admin", "cart", "checkout", "search", "wp-admin", "cgi-bin", "private", "tmp", "account", "api", "tag", "catalog", "%7Euser", "caf%C3%A9", "print"}
	for b.Len() < size {
		if r.IntN(100) < 30 {
			fmt.Fprintf(&b, "# %s\n", strings.Repeat("section ", 1+r.IntN(4)))
		}
		fmt.Fprintf(&b, "User-agent: %s\n", agents[r.IntN(len(agents))])
		if r.IntN(4) == 0 {
			fmt.Fprintf(&b, "User-agent: %s\n", agents[r.IntN(len(agents))])
		}
		for n := 1 + r.IntN(40); n > 0 && b.Len() < size; n-- {
			rule := "Disallow"
			if r.IntN(6) == 0 {
				rule = "Allow"
			}
			path := "/" + dirs[r.IntN(len(dirs))] + "/"
			switch r.IntN(8) {
			case 0:
				path += "*.php$"
			case 1:
				path += "*?sort="
			case 2:
				path += fmt.Sprintf("page-%d.html", r.IntN(10000))
			case 3:
				path = "/*?" + dirs[r.IntN(len(dirs))] + "="
			}
			fmt.Fprintf(&b, "%s: %s\n", rule, path)
		}
		if r.IntN(3) == 0 {
			fmt.Fprintf(&b, "Crawl-delay: %d\n", 1+r.IntN(10))
		}
		b.WriteString("\n")
	}
	if r.IntN(2) == 0 {
		b.WriteString("Sitemap: https://example.com/sitemap.xml\n")
	}
	return b.String()
}
