package report

import (
	_ "embed"
	"strconv"
)

// CrawlRun is one crawler run of reptest crawl, as the HTML report's
// request timeline shows it: every request in order with how the grader
// judged it.
type CrawlRun struct {
	Crawler string `json:"crawler"`
	Case    string `json:"case"`
	Agent   string `json:"agent"`
	Start   string `json:"start"`
	// Failure says why the run does not count, when it does not.
	Failure  string         `json:"failure,omitempty"`
	Requests []CrawlRequest `json:"requests"`
}

// CrawlRequest is one request of a CrawlRun.
type CrawlRequest struct {
	At        string `json:"at"` // since the run's first request, "+0.003s"
	Method    string `json:"method"`
	URL       string `json:"url"`
	UserAgent string `json:"user_agent"`
	Status    string `json:"status"` // the status code, or the fault served
	// Answer says the same in words: "503 Service Unavailable",
	// "connection closed before any response".
	Answer string `json:"answer,omitempty"`
	// Tier is the grader's tier (robots, allowed, grace, violation) and
	// Judged its account, with the rules in force at that moment.
	Tier   string `json:"tier"`
	Judged string `json:"judged"`
}

//go:embed html/crawl.html.tmpl
var crawlTemplate string

// crawlView is what the timeline template renders.
type crawlView struct {
	ID   string // the anchor
	Run  CrawlRun
	Rows []CrawlRequest
}

// crawlViews lays out the document's crawler runs for the HTML report.
func crawlViews(d *Document) []crawlView {
	var out []crawlView
	for i, r := range d.Crawls {
		out = append(out, crawlView{ID: "crawl-" + strconv.Itoa(i), Run: r, Rows: r.Requests})
	}
	return out
}
