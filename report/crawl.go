package report

import (
	_ "embed"
	"strconv"

	"github.com/reptest/reptest/result"
)

//go:embed html/crawl.html.tmpl
var crawlTemplate string

// crawlView is what the timeline template renders.
type crawlView struct {
	ID   string // the anchor
	Run  result.CrawlRun
	Rows []result.CrawlRequest
}

// crawlViews lays out the document's crawler runs for the HTML report.
func crawlViews(d *result.Document) []crawlView {
	var out []crawlView
	for i, r := range d.Crawls {
		out = append(out, crawlView{ID: "crawl-" + strconv.Itoa(i), Run: r, Rows: r.Requests})
	}
	return out
}
