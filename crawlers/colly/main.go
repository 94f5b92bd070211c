// Command colly-crawler drives colly (github.com/gocolly/colly/v2), a Go
// crawling framework whose robots.txt support uses temoto/robotstxt, for
// reptest crawl: it visits the start URL and follows every link of the
// pages it fetches, with colly's robots.txt handling on (IgnoreRobotsTxt
// false), as a crawler built on colly would.
//
// Usage: colly-crawler -ua HEADER [-depth N] START-URL
//
// It lives in a Go module of its own so that reptest's module does not
// depend on colly.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/gocolly/colly/v2"
)

func main() {
	ua := flag.String("ua", "", "the User-Agent header")
	depth := flag.Int("depth", 2, "the most links followed from the start URL")
	flag.Parse()
	if flag.NArg() != 1 || *ua == "" {
		fmt.Fprintln(os.Stderr, "usage: colly-crawler -ua HEADER [-depth N] START-URL")
		os.Exit(2)
	}
	c := colly.NewCollector(colly.UserAgent(*ua), colly.MaxDepth(*depth))
	c.IgnoreRobotsTxt = false
	c.SetRequestTimeout(5 * time.Second)
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		e.Request.Visit(e.Attr("href"))
	})
	c.OnError(func(r *colly.Response, err error) {
		fmt.Fprintf(os.Stderr, "colly: %s: %v\n", r.Request.URL, err)
	})
	if err := c.Visit(flag.Arg(0)); err != nil {
		fmt.Fprintf(os.Stderr, "colly: %s: %v\n", flag.Arg(0), err)
	}
	c.Wait()
}
