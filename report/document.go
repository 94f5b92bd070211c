package report

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/reptest/reptest/diagnose"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
)

// Tool is the value of Document.Tool.
const Tool = "reptest"

// Document is a run's results as one JSON object: the shape of docs/FORMAT.md
// §5 ("tool", "version", "profile", "parsers", "results"), plus optional
// keys that the renderings use. Every other form of a report is rendered
// from a Document, so that saved results can be rendered again.
type Document struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	Profile string `json:"profile"`
	// Strict records that deviations count against conformance.
	Strict bool `json:"strict,omitempty"`
	// Drafts names the Internet-Drafts the profile follows, with their
	// versions (the aipref profile); empty for RFC 9309 and Google.
	Drafts string `json:"drafts,omitempty"`
	// Selection is what the run was asked to run: the number of cases
	// selected, and the shard of them this document holds. With it, a
	// merge can tell a complete set of shards from an incomplete one.
	Selection *Selection `json:"selection,omitempty"`
	// Interrupted marks a run stopped before it finished (by a signal,
	// say); InterruptReason says why. Its results are incomplete, and the
	// checks running at the time may be recorded as errors.
	Interrupted     bool            `json:"interrupted,omitempty"`
	InterruptReason string          `json:"interrupt_reason,omitempty"`
	Parsers         []cases.Summary `json:"parsers"`
	Results         []cases.Result  `json:"results"`

	// Requirements is the requirement table with the number of cases
	// that name each requirement (coverage); optional.
	Requirements []cases.Requirement `json:"requirements,omitempty"`
	// Cases holds, for each case with a result other than pass or
	// skipped, what a person needs to see it: the robots.txt body or the
	// served responses, and the reference's deciding line per check.
	Cases map[string]*CaseInfo `json:"cases,omitempty"`
	// Findings are the differential findings of a diff run (docs/FORMAT.md §4).
	Findings []diff.Finding `json:"findings,omitempty"`
	// Crawls are the request timelines of reptest crawl's runs.
	Crawls []CrawlRun `json:"crawls,omitempty"`
	// Audit is reptest audit's own account (accesslog.Section: counts per
	// agent, and every judged request; docs/FORMAT.md §7), kept verbatim.
	Audit json.RawMessage `json:"audit,omitempty"`
	// CrawlLayout is how reptest crawl served the scenarios' origins:
	// "addresses" (each host its own address of 127.0.0.0/8, each origin
	// the case's own port) or "ports" (each origin a port of 127.0.0.1);
	// CrawlLayoutNote says why the second ran, when it did.
	CrawlLayout     string `json:"crawl_layout,omitempty"`
	CrawlLayoutNote string `json:"crawl_layout_note,omitempty"`
	// Diagnosis names, per parser or crawler, the misreadings of the
	// reference that explain its departures (package diagnose; fitted by
	// reptest run and reptest crawl on their results).
	Diagnosis []diagnose.Diagnosis `json:"diagnosis,omitempty"`
	// Expected marks the failures that an expected-failure file lists,
	// and Unexpected the entries of that file whose checks all passed.
	Expected   []ExpectedFailure `json:"expected,omitempty"`
	Unexpected []UnexpectedPass  `json:"unexpected_passes,omitempty"`
}

// Selection is the part of a run's selection of cases that one document
// holds.
type Selection struct {
	// Cases is how many cases the selection holds before sharding.
	Cases int `json:"cases"`
	// Shard is "K/N": the document holds the K-th of N shards of the
	// selection; "1/1" when the run was not sharded.
	Shard string `json:"shard"`
	// ShardCases is how many cases the shard holds (Cases when not
	// sharded).
	ShardCases int `json:"shard_cases"`
}

// Meta is what FromResults needs to know of a run besides its results.
type Meta struct {
	Version   string     // reptest's version
	Profile   string     // the run's profile, "rfc9309" or "google"
	Strict    bool       // deviations count against conformance
	Selection *Selection // the cases selected and the shard run; nil when unknown
	// Interrupted, when not empty, says why the run stopped before it
	// finished.
	Interrupted string
	Drafts      string // the drafts the profile follows, if any
}

// FromResults builds the document of a run. The summaries give the
// parsers, in order, and their versions; their counts are recomputed from
// results. cs may be nil; otherwise the cases that have a result other
// than pass or skipped are described in Document.Cases (see CaseData).
// Results are sorted by case, check and parser order.
func FromResults(m Meta, parsers []cases.Summary, results []cases.Result, cs []cases.Case) *Document {
	d := &Document{
		Tool:    Tool,
		Version: m.Version,
		Profile: m.Profile,
		Strict:  m.Strict,
		Drafts:  m.Drafts,
		// Never nil: a run that judged nothing is "results": [], not null.
		Parsers: append([]cases.Summary{}, parsers...),
		Results: append([]cases.Result{}, results...),

		Selection:       m.Selection,
		Interrupted:     m.Interrupted != "",
		InterruptReason: m.Interrupted,
	}
	d.sortResults()
	d.Recount()
	if cs != nil {
		want := map[string]bool{}
		for _, r := range d.Results {
			if r.Outcome != cases.Pass && r.Outcome != cases.Skipped {
				want[r.Case] = true
			}
		}
		var sel []cases.Case
		for _, c := range cs {
			if want[c.ID] {
				sel = append(sel, c)
			}
		}
		if len(sel) > 0 {
			d.Cases = CaseData(sel, d.Results)
		}
	}
	d.validUTF8()
	return d
}

// validUTF8 writes each invalid UTF-8 byte in the document's text as the
// text \xNN, so that JSON does not turn it into U+FFFD and a report
// rendered from the document and one rendered from its saved JSON are
// the same. Bodies keep their exact bytes (Body stores them in base64).
func (d *Document) validUTF8() {
	for i := range d.Results {
		r := &d.Results[i]
		for _, p := range []*string{&r.Case, &r.Parser, &r.Agent, &r.URL, &r.Profile, &r.Title, &r.Detail, &r.Trace, &r.Step} {
			*p = validText(*p)
		}
		for j := range r.Req {
			r.Req[j] = validText(r.Req[j])
		}
	}
	for _, c := range d.Cases {
		for _, p := range []*string{&c.Title, &c.Source, &c.Profile} {
			*p = validText(*p)
		}
		for j := range c.Checks {
			k := &c.Checks[j]
			for _, p := range []*string{&k.Agent, &k.URL, &k.Source, &k.LineText, &k.Trace} {
				*p = validText(*p)
			}
		}
		fix := func(s *Served) {
			s.URL, s.Fault = validText(s.URL), validText(s.Fault)
			if len(s.Headers) > 0 {
				h := make(map[string]string, len(s.Headers))
				for k, v := range s.Headers {
					h[validText(k)] = validText(v)
				}
				s.Headers = h
			}
		}
		for j := range c.Fetch {
			fix(&c.Fetch[j])
		}
		for j := range c.Timeline {
			fix(&c.Timeline[j].Response)
		}
	}
}

// validText writes each byte of s that is not part of valid UTF-8 as the
// four characters \xNN.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02X`, s[i])
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// parserOrder maps each parser name to its position in d.Parsers.
func (d *Document) parserOrder() map[string]int {
	order := make(map[string]int, len(d.Parsers))
	for i, p := range d.Parsers {
		if _, ok := order[p.Name]; !ok {
			order[p.Name] = i
		}
	}
	return order
}

// sortResults orders results by case, check, then parser in the order of
// d.Parsers (unknown parsers last, by name).
func (d *Document) sortResults() {
	order := d.parserOrder()
	rank := func(name string) int {
		if i, ok := order[name]; ok {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(d.Results, func(a, b cases.Result) int {
		if c := strings.Compare(a.Case, b.Case); c != 0 {
			return c
		}
		if a.Check != b.Check {
			return a.Check - b.Check
		}
		if c := rank(a.Parser) - rank(b.Parser); c != 0 {
			return c
		}
		return strings.Compare(a.Parser, b.Parser)
	})
}

// Recount recomputes every parser's counts and conformance from the
// results. Parsers that appear only in results are added, sorted by name,
// after those already listed.
func (d *Document) Recount() {
	known := map[string]bool{}
	for _, p := range d.Parsers {
		known[p.Name] = true
	}
	var extra []string
	for _, r := range d.Results {
		if !known[r.Parser] {
			known[r.Parser] = true
			extra = append(extra, r.Parser)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		d.Parsers = append(d.Parsers, cases.Summary{Name: name})
	}
	for i, p := range d.Parsers {
		d.Parsers[i] = cases.Summarize(p, d.Results, d.Strict)
	}
}

// WriteJSON writes the document as indented JSON.
func (d *Document) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return fmt.Errorf("report: writing JSON: %w", err)
	}
	return nil
}

// ReadJSON reads a document written by WriteJSON (or any producer of the
// docs/FORMAT.md §5 shape) and checks that it is one: the tool is reptest,
// every outcome is known, and each (parser, case, check) appears once.
func ReadJSON(r io.Reader) (*Document, error) {
	dec := json.NewDecoder(r)
	var d Document
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("report: reading JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("report: reading JSON: data after the document")
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

// Validate checks what ReadJSON checks.
func (d *Document) Validate() error {
	if d.Tool != Tool {
		return fmt.Errorf("report: not a %s results document (tool %q)", Tool, d.Tool)
	}
	seen := map[resultKey]bool{}
	for i, r := range d.Results {
		if !knownOutcome(r.Outcome) {
			return fmt.Errorf("report: result %d (%s %s #%d): unknown outcome %q", i, r.Parser, r.Case, r.Check, r.Outcome)
		}
		if r.Parser == "" || r.Case == "" {
			return fmt.Errorf("report: result %d has no parser or case", i)
		}
		k := keyOf(r)
		if seen[k] {
			return fmt.Errorf("report: result for parser %q, case %q, check %d appears twice", r.Parser, r.Case, r.Check)
		}
		seen[k] = true
	}
	for id, c := range d.Cases {
		if c == nil {
			return fmt.Errorf("report: case %q has no data", id)
		}
	}
	return nil
}

func knownOutcome(o cases.Outcome) bool {
	switch o {
	case cases.Pass, cases.Note, cases.Deviation, cases.Violation, cases.Error, cases.Skipped:
		return true
	}
	return false
}

// resultKey identifies one check of one parser.
type resultKey struct {
	Parser, Case string
	Check        int
}

func keyOf(r cases.Result) resultKey { return resultKey{r.Parser, r.Case, r.Check} }

// Body is a robots.txt body or a response body as stored in a document:
// UTF-8 text as Text, other bytes as base64 in B64. A body longer than
// the store limit is kept only in part (its first lines); Size is always
// the length of the whole body.
type Body struct {
	Text string `json:"text,omitempty"`
	B64  string `json:"b64,omitempty"`
	Size int    `json:"size"`
	// Generated describes a generated body that is not stored.
	Generated string `json:"generated,omitempty"`
}

// Bytes returns the stored bytes of the body.
func (b *Body) Bytes() []byte {
	if b == nil {
		return nil
	}
	if b.B64 != "" {
		p, err := base64.StdEncoding.DecodeString(b.B64)
		if err != nil {
			return []byte(b.B64)
		}
		return p
	}
	return []byte(b.Text)
}

// Partial reports whether only part of the body is stored.
func (b *Body) Partial() bool { return b != nil && len(b.Bytes()) < b.Size }

// Store limits: a body up to maxStoredBody bytes is kept whole; a longer
// one keeps its lines within the first storedHead bytes.
const (
	maxStoredBody = 64 << 10
	storedHead    = 8 << 10
)

// newBody stores p, or its head when it is long.
func newBody(p []byte) *Body {
	b := &Body{Size: len(p)}
	if len(p) > maxStoredBody {
		head := p[:storedHead]
		if k := bytes.LastIndexAny(head, "\r\n"); k >= 0 {
			head = head[:k+1]
		}
		p = head
	}
	if utf8.Valid(p) {
		b.Text = string(p)
	} else {
		b.B64 = base64.StdEncoding.EncodeToString(p)
	}
	return b
}
