package cases

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// CaseData describes cases for a report: bodies, served responses and,
// for every check, what the runner recorded in results: the explainer's
// deciding line, the response whose body holds it, and its trace. The
// report renders these; it does not decide again.
func CaseData(cs []Case, results []result.Result) map[string]*result.CaseInfo {
	type key struct {
		id    string
		check int
	}
	rec := make(map[key]*result.Result, len(results))
	for i := range results {
		r := &results[i]
		k := key{r.Case, r.Check}
		if old, ok := rec[k]; !ok || old.Trace == "" && r.Trace != "" {
			rec[k] = r
		}
	}
	out := make(map[string]*result.CaseInfo, len(cs))
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
			info := result.CheckInfo{Agent: chk.Agent, URL: chk.URL, Source: chk.Source, Step: steps[j]}
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
func caseInfo(c *Case) *result.CaseInfo {
	ci := &result.CaseInfo{Title: c.Title, Source: c.Source, Profile: c.Profile}
	switch {
	case len(c.Timeline) > 0:
		for _, s := range c.Timeline {
			ci.Timeline = append(ci.Timeline, result.StepInfo{At: s.At.String(), Response: served(s.Response)})
		}
	case len(c.Fetch) > 0:
		for _, r := range c.Fetch {
			ci.Fetch = append(ci.Fetch, served(r))
		}
	default:
		ci.Robots = result.NewBody(c.Robots)
	}
	return ci
}

// recordedLine returns the text of a deciding line that the stored part
// of its body leaves out, "" when the stored part holds it. A generated
// body is read only up to maxLineSearch bytes, never made whole.
func recordedLine(c *Case, ci *result.CaseInfo, line, response int) string {
	if line == 0 {
		return ""
	}
	var r Response
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
	case len(r.Body) > result.MaxStoredBody:
		return lineText(r.Body, line)
	}
	return ""
}

// maxLineSearch bounds how far into a generated body a deciding line is
// looked for; one past it is shown by its number and trace alone.
const maxLineSearch = 1 << 20

// served converts a response for the document.
func served(r Response) result.Served {
	s := result.Served{URL: r.URL, Status: r.Status, Headers: r.Headers, Fault: r.Fault}
	if r.Delay > 0 {
		s.Delay = r.Delay.String()
	}
	switch {
	case r.Gen != nil:
		s.Body = &result.Body{Size: r.Gen.Size(),
			Generated: fmt.Sprintf("prefix %s, then %s repeated up to %d bytes, then %s",
				strconv.Quote(clip(r.Gen.Prefix, 200)), strconv.Quote(clip(r.Gen.Repeat, 200)), r.Gen.UntilBytes, strconv.Quote(clip(r.Gen.Suffix, 200)))}
		if head := materialiseHead(r.Gen, result.StoredHead); len(head) > 0 {
			b := result.NewBody(head)
			s.Body.Text, s.Body.B64 = b.Text, b.B64
		}
	case r.Body != nil || r.Status/100 == 2:
		s.Body = result.NewBody(r.Body)
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
func genReader(g *Generator) io.Reader {
	return &generated{g: g}
}

type generated struct {
	g     *Generator
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
func materialiseHead(g *Generator, n int) []byte {
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

// NewDocument builds the document of a run. The summaries give the
// parsers, in order, and their versions; their counts are recomputed from
// results. cs may be nil; otherwise the cases that have a result other
// than pass or skipped are described in Document.Cases (see CaseData).
// Results are sorted by case, check and parser order.
func NewDocument(m result.Meta, parsers []result.Summary, results []result.Result, cs []Case) *result.Document {
	d := &result.Document{
		Tool:    result.Tool,
		Version: m.Version,
		Profile: m.Profile,
		Strict:  m.Strict,
		Drafts:  m.Drafts,
		// Never nil: a run that judged nothing is "results": [], not null.
		Parsers: append([]result.Summary{}, parsers...),
		Results: append([]result.Result{}, results...),

		Selection:       m.Selection,
		Interrupted:     m.Interrupted != "",
		InterruptReason: m.Interrupted,
	}
	d.SortResults()
	d.Summarize()
	if cs != nil {
		want := map[string]bool{}
		for _, r := range d.Results {
			if r.Outcome != result.Pass && r.Outcome != result.Skipped {
				want[r.Case] = true
			}
		}
		var sel []Case
		for _, c := range cs {
			if want[c.ID] {
				sel = append(sel, c)
			}
		}
		if len(sel) > 0 {
			d.Cases = CaseData(sel, d.Results)
		}
	}
	d.ValidUTF8()
	return d
}
