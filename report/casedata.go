package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// CaseInfo is what a report shows of one case besides its results.
type CaseInfo struct {
	Title   string `json:"title,omitempty"`
	Source  string `json:"source,omitempty"`
	Profile string `json:"profile,omitempty"`
	// Robots is the body of a plain case.
	Robots *Body `json:"robots,omitempty"`
	// Fetch lists the responses served for an HTTP case.
	Fetch []Served `json:"fetch,omitempty"`
	// Timeline lists the steps of a clocked case.
	Timeline []StepInfo `json:"timeline,omitempty"`
	// Checks is indexed like cases.Result.Check.
	Checks []CheckInfo `json:"checks,omitempty"`
}

// Served is one response served for an HTTP case.
type Served struct {
	URL     string            `json:"url,omitempty"`
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    *Body             `json:"body,omitempty"`
	Fault   string            `json:"fault,omitempty"`
	Delay   string            `json:"delay,omitempty"`
}

// StepInfo is one step of a clocked case.
type StepInfo struct {
	At       string `json:"at"`
	Response Served `json:"response"`
}

// CheckInfo is what the reference says about one check.
type CheckInfo struct {
	Agent  string `json:"agent,omitempty"`
	URL    string `json:"url,omitempty"`
	Source string `json:"source,omitempty"`
	// Step is the 1-based timeline step the check belongs to; 0 for
	// checks of plain and HTTP cases.
	Step int `json:"step,omitempty"`
	// Response is the 1-based index of the served response (in Fetch, or
	// the step of Timeline) whose body holds Line; 0 for the case's own
	// body or when no body decided.
	Response int `json:"response,omitempty"`
	// Line is the reference's deciding line; 0 when no rule decided.
	Line int `json:"line,omitempty"`
	// LineText is the deciding line's text, kept when the body is stored
	// only in part.
	LineText string `json:"line_text,omitempty"`
	// Trace is the reference's explanation of its verdict.
	Trace string `json:"trace,omitempty"`
}

// CaseData describes cases for a report: bodies, served responses and,
// for every check, what the runner recorded in results: the explainer's
// deciding line, the response whose body holds it, and its trace. The
// report renders these; it does not decide again.
func CaseData(cs []cases.Case, results []cases.Result) map[string]*CaseInfo {
	type key struct {
		id    string
		check int
	}
	rec := make(map[key]*cases.Result, len(results))
	for i := range results {
		r := &results[i]
		k := key{r.Case, r.Check}
		if old, ok := rec[k]; !ok || old.Trace == "" && r.Trace != "" {
			rec[k] = r
		}
	}
	out := make(map[string]*CaseInfo, len(cs))
	for i := range cs {
		c := &cs[i]
		ci := caseInfo(c)
		steps := make([]int, 0, len(c.Checks))
		for range c.Checks {
			steps = append(steps, 0)
		}
		for s, st := range c.Timeline {
			for range st.Checks {
				steps = append(steps, s+1)
			}
		}
		for j, chk := range c.AllChecks() {
			info := CheckInfo{Agent: chk.Agent, URL: chk.URL, Source: chk.Source, Step: steps[j]}
			if r := rec[key{c.ID, j}]; r != nil {
				info.Trace, info.Line, info.Response = r.Trace, r.Line, r.Response
				info.LineText = recordedLine(c, ci, info.Line, info.Response)
			}
			ci.Checks = append(ci.Checks, info)
		}
		out[c.ID] = ci
	}
	return out
}

// caseInfo describes a case's bodies and responses.
func caseInfo(c *cases.Case) *CaseInfo {
	ci := &CaseInfo{Title: c.Title, Source: c.Source, Profile: c.Profile}
	switch {
	case len(c.Timeline) > 0:
		for _, s := range c.Timeline {
			ci.Timeline = append(ci.Timeline, StepInfo{At: s.At.String(), Response: served(s.Response)})
		}
	case len(c.Fetch) > 0:
		for _, r := range c.Fetch {
			ci.Fetch = append(ci.Fetch, served(r))
		}
	default:
		ci.Robots = newBody(c.Robots)
	}
	return ci
}

// recordedLine returns the text of a deciding line that the stored part
// of its body leaves out, "" when the stored part holds it. A generated
// body is read only up to maxLineSearch bytes, never made whole.
func recordedLine(c *cases.Case, ci *CaseInfo, line, response int) string {
	if line == 0 {
		return ""
	}
	var r cases.Response
	switch {
	case response == 0:
		if !ci.Robots.Partial() {
			return ""
		}
		return lineText(c.Robots, line)
	case len(c.Fetch) > 0 && response <= len(c.Fetch):
		r = c.Fetch[response-1]
	case len(c.Timeline) > 0 && response <= len(c.Timeline):
		r = c.Timeline[response-1].Response
	default:
		return ""
	}
	switch {
	case r.Gen != nil:
		head, _ := io.ReadAll(io.LimitReader(genReader(r.Gen), maxLineSearch))
		return lineText(head, line)
	case len(r.Body) > maxStoredBody:
		return lineText(r.Body, line)
	}
	return ""
}

// maxLineSearch bounds how far into a generated body a deciding line is
// looked for; one past it is shown by its number and trace alone.
const maxLineSearch = 1 << 20

// served converts a response for the document.
func served(r cases.Response) Served {
	s := Served{URL: r.URL, Status: r.Status, Headers: r.Headers, Fault: r.Fault}
	if r.Delay > 0 {
		s.Delay = r.Delay.String()
	}
	switch {
	case r.Gen != nil:
		s.Body = &Body{Size: r.Gen.Size(),
			Generated: fmt.Sprintf("prefix %s, then %s repeated up to %d bytes, then %s",
				strconv.Quote(clip(r.Gen.Prefix, 200)), strconv.Quote(clip(r.Gen.Repeat, 200)), r.Gen.UntilBytes, strconv.Quote(clip(r.Gen.Suffix, 200)))}
		if head := materialiseHead(r.Gen, storedHead); len(head) > 0 {
			b := newBody(head)
			s.Body.Text, s.Body.B64 = b.Text, b.B64
		}
	case r.Body != nil || r.Status/100 == 2:
		s.Body = newBody(r.Body)
	}
	return s
}

// clip cuts s to at most n bytes.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// genReader streams a generated body without holding it.
func genReader(g *cases.Generator) io.Reader {
	return &generated{g: g}
}

type generated struct {
	g     *cases.Generator
	pos   int    // bytes produced
	buf   []byte // pending bytes
	phase int    // 0 prefix, 1 repeat, 2 suffix, 3 done
}

// Read fills p from the prefix, the repeats and the suffix, copying as
// many bytes as fit on each call.
func (r *generated) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.buf) == 0 && !r.next() {
			break
		}
		k := copy(p[n:], r.buf)
		r.buf = r.buf[k:]
		r.pos += k
		n += k
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// next loads the next part of the body into buf; false at the end.
func (r *generated) next() bool {
	for len(r.buf) == 0 {
		switch r.phase {
		case 0:
			r.buf, r.phase = []byte(r.g.Prefix), 1
		case 1:
			if rep := len(r.g.Repeat); rep > 0 && r.pos < r.g.UntilBytes {
				// Whole repeats, as many as are left or fit in 4 KiB.
				k := min((r.g.UntilBytes-r.pos+rep-1)/rep, max(1, 4096/rep))
				r.buf = []byte(strings.Repeat(r.g.Repeat, k))
			} else {
				r.phase = 2
			}
		case 2:
			r.buf, r.phase = []byte(r.g.Suffix), 3
		default:
			return false
		}
	}
	return true
}

// materialiseHead returns the first lines of a generated body within n
// bytes.
func materialiseHead(g *cases.Generator, n int) []byte {
	p, _ := io.ReadAll(io.LimitReader(genReader(g), int64(n)))
	if len(p) == n {
		if k := bytes.LastIndexAny(p, "\r\n"); k >= 0 {
			p = p[:k+1]
		}
	}
	return p
}

// lineText returns line n (1-based, CR, LF and CRLF ending lines) of body.
func lineText(body []byte, n int) string {
	lines := reference.SplitLines(string(body))
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
