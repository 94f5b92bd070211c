package cases

import (
	"time"

	"github.com/reptest/reptest/result"
)

// Case is one test case of the corpus (docs/FORMAT.md §1).
type Case struct {
	ID      string       // unique across the loaded files
	Title   string       // one line; says which reading expect holds for open readings
	Req     []string     // requirement IDs (corpus/requirements.yaml)
	Level   result.Level // as written, or the strongest level among Req
	Profile string       // result.ProfileRFC or result.ProfileGoogle
	Tags    []string     // free words, for filtering

	// Robots is the body of the file for plain cases; nil for HTTP and
	// timeline cases.
	Robots []byte
	// Fetch lists the responses served for an HTTP case.
	Fetch []Response
	// Timeline lists the steps of a clocked case.
	Timeline []Step

	// Checks of a plain or HTTP case; timeline checks are in their steps.
	Checks []Check

	// Source is where the case was read from, for messages:
	// "corpus/user-agent/merging.yaml:12".
	Source string
}

// Check is one (agent, URL, expectation) triple.
type Check struct {
	Agent  string
	URL    string // absolute, after resolution against the case's host
	Expect result.Verdict
	Accept []result.Verdict
	// Rule is the expected line of the deciding rule; nil when the case
	// does not say, 0 when no rule should match.
	Rule *int
	// Usage maps usage categories ("train-ai", "search", …; see
	// reference.UsageCategories) to the expected preference: "y", "n" or
	// "unknown" (reference.UsageValues; for "use", a level of use). It is checked for parsers with CapUsage; nil when the
	// case does not say.
	Usage map[string]string
	// Source is the file:line of the check.
	Source string
	// Invalid, when set, says why no parser is asked this check: the
	// loader found it cannot be a conforming crawler's question (an agent
	// that is not a product token, UA-1). The runner records it as
	// skipped with this reason; the rest of the corpus runs.
	Invalid string
}

// Response is one response served for an HTTP case.
type Response struct {
	URL     string // the absolute URL it answers, e.g. http://a.test/robots.txt
	Status  int
	Headers map[string]string
	Body    []byte
	// Gen, when set, generates a large body that is streamed rather than
	// held (body_generate).
	Gen *Generator
	// Fault is "", "reset", "timeout" or "truncated".
	Fault string
	// Delay holds back the first byte of the body by this long: a slow
	// body, past the client's timeout when it is longer.
	Delay time.Duration
}

// Generator describes a large body without holding it: prefix, then repeat
// until the body reaches UntilBytes, then suffix.
type Generator struct {
	Prefix     string
	Repeat     string
	UntilBytes int
	Suffix     string
}

// Step is one step of a timeline: at time At since the first fetch the
// server answers Response, and the checks are made.
type Step struct {
	At       time.Duration
	Response Response
	Checks   []Check
}
