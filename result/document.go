package result

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
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
	Interrupted     bool      `json:"interrupted,omitempty"`
	InterruptReason string    `json:"interrupt_reason,omitempty"`
	Parsers         []Summary `json:"parsers"`
	Results         []Result  `json:"results"`

	// Requirements is the requirement table with the number of cases
	// that name each requirement (coverage); optional. With Areas, the
	// table the document is rendered with: levels, sections, summaries
	// and area titles are read from it, and from reptest's own table
	// when the document carries none.
	Requirements []Requirement `json:"requirements,omitempty"`
	Areas        []Area        `json:"areas,omitempty"`
	// Cases holds, for each case with a result other than pass or
	// skipped, what a person needs to see it: the robots.txt body or the
	// served responses, and the reference's deciding line per check.
	Cases map[string]*CaseInfo `json:"cases,omitempty"`
	// Findings are the differential findings of a diff run (docs/FORMAT.md §4).
	Findings []Finding `json:"findings,omitempty"`
	// Crawls are the request timelines of reptest crawl's runs.
	Crawls []CrawlRun `json:"crawls,omitempty"`
	// Audit is reptest audit's own account (counts per agent as the
	// auditor recorded them, and every judged request; docs/FORMAT.md §7).
	Audit *Audit `json:"audit,omitempty"`
	// CrawlLayout is how reptest crawl served the scenarios' origins:
	// "addresses" (each host its own address of 127.0.0.0/8, each origin
	// the case's own port) or "ports" (each origin a port of 127.0.0.1);
	// CrawlLayoutNote says why the second ran, when it did.
	CrawlLayout     string `json:"crawl_layout,omitempty"`
	CrawlLayoutNote string `json:"crawl_layout_note,omitempty"`
	// Diagnosis names, per parser or crawler, the misreadings of the
	// reference that explain its departures (package diagnose; fitted by
	// reptest run and reptest crawl on their results).
	Diagnosis []Diagnosis `json:"diagnosis,omitempty"`
	// Expected marks the failures that an expected-failure file lists,
	// and Unexpected the entries of that file whose checks all passed.
	Expected   []ExpectedFailure `json:"expected,omitempty"`
	Unexpected []UnexpectedPass  `json:"unexpected_passes,omitempty"`

	// Summary is a differential run's summary (reptest diff): what was
	// compared, the pairs' disagreements and the findings' groups; nil
	// for other runs. Run describes the differential run.
	Summary *DiffSummary `json:"summary,omitempty"`
	Run     *RunInfo     `json:"run,omitempty"`
	// Reference is the compared parser the findings are measured
	// against, as their producer chose it (ReferenceOf); "" for none.
	Reference string `json:"reference,omitempty"`
	// Kind is read from the differential reports reptest wrote before
	// they were results documents ("reptest-diff"); ReadJSON clears it.
	Kind string `json:"kind,omitempty"`
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

// Meta is what cases.NewDocument needs to know of a run besides its
// results.
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

// ValidUTF8 writes each invalid UTF-8 byte in the document's text as the
// text \xNN, so that JSON does not turn it into U+FFFD and a report
// rendered from the document and one rendered from its saved JSON are
// the same. Bodies keep their exact bytes (Body stores them in base64).
func (d *Document) ValidUTF8() {
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

// SortResults orders results by case, check, then parser in the order of
// d.Parsers (unknown parsers last, by name).
func (d *Document) SortResults() {
	order := d.parserOrder()
	rank := func(name string) int {
		if i, ok := order[name]; ok {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(d.Results, func(a, b Result) int {
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

// Summarize recomputes every parser's counts and conformance from the
// results (Summarize). Parsers that appear only in results are added, sorted by name,
// after those already listed.
func (d *Document) Summarize() {
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
		d.Parsers = append(d.Parsers, Summary{Name: name})
	}
	for i, p := range d.Parsers {
		d.Parsers[i] = Summarize(p, d.Results, d.Strict)
	}
}

// WriteJSON writes the document as indented JSON.
func (d *Document) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return fmt.Errorf("result: writing JSON: %w", err)
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
		return nil, fmt.Errorf("result: reading JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("result: reading JSON: data after the document")
	}
	d.upgrade()
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

// DiffKind is the "kind" of the differential reports reptest diff
// --report wrote before they were results documents.
const DiffKind = "reptest-diff"

// upgrade brings a document written by an older reptest to the current
// form: a differential report ("kind": "reptest-diff", no "tool")
// becomes a results document, and a differential run that did not record
// its reference parser gets the one reptest diff chose then: the
// reference of the profile when it was compared.
func (d *Document) upgrade() {
	if d.Kind == DiffKind && d.Tool == "" {
		d.Tool, d.Kind = Tool, ""
		if d.Parsers == nil {
			d.Parsers = []Summary{}
		}
		if d.Results == nil {
			d.Results = []Result{}
		}
		if d.Summary == nil {
			d.Summary = &DiffSummary{}
		}
		if d.Run != nil && d.Profile == "" {
			d.Profile = d.Run.Profile
		}
	}
	if d.Audit != nil {
		d.Audit.quoteJudged()
	}
	if d.Summary != nil && d.Reference == "" {
		d.Reference = ReferenceOf(d.Summary.Parsers, d.findingsProfile())
	}
}

// findingsProfile is the profile of a differential run's findings.
func (d *Document) findingsProfile() string {
	if d.Run != nil && d.Run.Profile != "" {
		return d.Run.Profile
	}
	if len(d.Findings) > 0 {
		return d.Findings[0].Profile
	}
	return ""
}

// ReferenceOf returns the parser of names that findings are measured
// against: the reference of the profile ("reference", or
// "reference-google" for the google profile) when it was compared, else
// the other reference; "" without either.
func ReferenceOf(names []string, profile string) string {
	want := []string{"reference", "reference-google"}
	if profile == "google" {
		want = []string{"reference-google", "reference"}
	}
	for _, w := range want {
		if slices.Contains(names, w) {
			return w
		}
	}
	return ""
}

// Validate checks what ReadJSON checks.
func (d *Document) Validate() error {
	if d.Tool != Tool {
		return fmt.Errorf("result: not a %s results document (tool %q)", Tool, d.Tool)
	}
	seen := map[Key]bool{}
	for i, r := range d.Results {
		if !knownOutcome(r.Outcome) {
			return fmt.Errorf("result: result %d (%s %s #%d): unknown outcome %q", i, r.Parser, r.Case, r.Check, r.Outcome)
		}
		if r.Parser == "" || r.Case == "" {
			return fmt.Errorf("result: result %d has no parser or case", i)
		}
		k := KeyOf(r)
		if seen[k] {
			return fmt.Errorf("result: result for parser %q, case %q, check %d appears twice", r.Parser, r.Case, r.Check)
		}
		seen[k] = true
	}
	for id, c := range d.Cases {
		if c == nil {
			return fmt.Errorf("result: case %q has no data", id)
		}
	}
	return nil
}

func knownOutcome(o Outcome) bool {
	switch o {
	case Pass, Note, Deviation, Violation, Error, Skipped:
		return true
	}
	return false
}

// Key identifies one check of one parser.
type Key struct {
	Parser, Case string
	Check        int
}

func KeyOf(r Result) Key { return Key{r.Parser, r.Case, r.Check} }

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

// Store limits: a body up to MaxStoredBody bytes is kept whole; a longer
// one keeps its lines within the first StoredHead bytes.
const (
	MaxStoredBody = 64 << 10
	StoredHead    = 8 << 10
)

// NewBody stores p, or its head when it is long.
func NewBody(p []byte) *Body {
	b := &Body{Size: len(p)}
	if len(p) > MaxStoredBody {
		head := p[:StoredHead]
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
	// Checks is indexed like Result.Check.
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

// ExpectedFailure marks one failing check that an expected-failure entry
// covers. The outcome is unchanged; the mark says it is known.
type ExpectedFailure struct {
	Parser  string `json:"parser"`
	Case    string `json:"case"`
	Check   int    `json:"check"`
	Pattern string `json:"pattern"`
	Reason  string `json:"reason"`
	Link    string `json:"link,omitempty"`
}

// UnexpectedPass is an expected-failure entry with no failing check: the
// bug may be fixed (Matched > 0: every matched check passed), or the
// entry names nothing that ran (Matched == 0).
type UnexpectedPass struct {
	Parser  string   `json:"parser"`
	Cases   []string `json:"cases"`
	Reason  string   `json:"reason"`
	Link    string   `json:"link,omitempty"`
	Matched int      `json:"matched"`
}

// ExpectedIndex maps each marked check to its mark.
func (d *Document) ExpectedIndex() map[Key]*ExpectedFailure {
	m := make(map[Key]*ExpectedFailure, len(d.Expected))
	for i := range d.Expected {
		x := &d.Expected[i]
		m[Key{x.Parser, x.Case, x.Check}] = x
	}
	return m
}

// NewFailures returns the results that make a parser nonconforming
// (violations and errors, and deviations in a strict run) and that no
// expected-failure entry covers.
func (d *Document) NewFailures() []Result {
	exp := d.ExpectedIndex()
	var out []Result
	for _, r := range d.Results {
		if r.Outcome.Fails(d.Strict) && exp[KeyOf(r)] == nil {
			out = append(out, r)
		}
	}
	return out
}

// FailureCount is how many of a parser's failing checks are new (no
// expected-failure entry covers them; see NewFailures) and how many an
// entry marks as known.
type FailureCount struct{ New, Known int }

// FailureCounts counts each parser's new and known failures, as the
// reports show them beside its conformance.
func (d *Document) FailureCounts() map[string]FailureCount {
	out := map[string]FailureCount{}
	for _, r := range d.NewFailures() {
		c := out[r.Parser]
		c.New++
		out[r.Parser] = c
	}
	for k := range d.ExpectedIndex() {
		c := out[k.Parser]
		c.Known++
		out[k.Parser] = c
	}
	return out
}

// LevelPassed counts a parser's checks of a level that ran (skipped ones
// are not counted) and those of them that passed (pass or note): what
// its badge says.
func (d *Document) LevelPassed(parser string, level Level) (pass, total int) {
	for _, r := range d.Results {
		if r.Parser != parser || r.Level != level || r.Outcome == Skipped {
			continue
		}
		total++
		if r.Outcome == Pass || r.Outcome == Note {
			pass++
		}
	}
	return pass, total
}

// ShouldFail reports whether the run should fail when known failures are
// forgiven: it was interrupted, or some parser has a new failure (see
// NewFailures) or did not run (Summary.NotRun). Unexpected passes are
// reported but do not fail the run.
func (d *Document) ShouldFail() bool {
	if d.Interrupted {
		return true
	}
	for _, p := range d.Parsers {
		if p.NotRun != "" {
			return true
		}
	}
	return len(d.NewFailures()) > 0
}

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
