package diagnose

import (
	"cmp"

	"github.com/reptest/reptest/result"
)

// Evidence is what the fitter reads: robots.txt responses, the questions
// asked of them and each parser's (or crawler's) verdict, and for
// crawlers the requests they made. It is plain data: run, crawl and diff
// results are turned into it (FromResults, and the diff engine's probes).
type Evidence struct {
	// Parsers names the parsers or crawlers, in the order of
	// Question.Verdicts.
	Parsers []string
	// Bodies are the responses the questions are asked of.
	Bodies []Body
	// Questions are the verdicts, one column per parser.
	Questions []Question
	// Requests are crawlers' requests, for the misreadings of kind
	// KindCrawl; empty for parsers.
	Requests []Request
	// ReferenceColumns, when set, names by profile a parser of Parsers
	// that is the reference itself under that profile's options, as the
	// fitter would read the bodies of that profile (status 200): the
	// fitter takes its allow and disallow verdicts as the reference's
	// instead of deciding them again. Optional; a speed-up only.
	ReferenceColumns map[string]int
}

// Body is one robots.txt response.
type Body struct {
	// Robots is the body.
	Robots []byte
	// Status is the response's status code (200 for a file read as
	// such); 0 stands for no response (a network fault), which the
	// reference reads as unreachable.
	Status int
	// Profile chooses the reference the body is judged by
	// (result.ProfileRFC when empty, result.ProfileGoogle).
	Profile string
	// Source names where the body came from: a file's path, "gen/S/I" for
	// a generated file, "case:ID" for a corpus case. Behaviours count the
	// distinct sources of what they explain.
	Source string
}

// Question is one (agent, URL) asked of one body, with every parser's
// verdict. A verdict other than allow or disallow (an error, a reject, a
// check not asked: "") is no evidence either way.
type Question struct {
	Body     int
	Agent    string
	URL      string
	Verdicts []result.Verdict
	// Key identifies the question where crawl requests must find it
	// (Request.Key): "run/URL". Empty for parsers.
	Key string
}

// Request is one request a crawler made in one run, as the crawl grader
// judged it.
type Request struct {
	// Parser is the crawler's index in Evidence.Parsers.
	Parser int
	// Run numbers the crawler's runs; requests of one run are in time
	// order.
	Run       int
	URL       string
	Origin    string // scheme://host[:port] of URL
	UserAgent string
	// Robots is set for a robots.txt fetch.
	Robots bool
	// Before is set for a page requested before any robots.txt of its
	// origin was (ACC-10).
	Before bool
	// Start is set for the run's start URL: the user's choice, not the
	// crawler's, so requesting it before robots.txt says nothing of the
	// crawler (as for ACC-10).
	Start bool
	// Key is the question this request answers ("run/URL"); empty for
	// control links and robots.txt.
	Key string
}

// profileOf returns a body's profile, result.ProfileRFC when empty.
func (b *Body) profileOf() string { return cmp.Or(b.Profile, result.ProfileRFC) }

// known reports whether v says allow or disallow.
func known(v result.Verdict) bool { return v == result.Allow || v == result.Disallow }
