package accesslog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
)

// RequestRecord is one judged request (or bucket of requests) as the
// audit's JSON lists it: what the log says, how it was judged, and by
// which rule of which robots.txt version. docs/FORMAT.md §7 describes it.
type RequestRecord struct {
	Time time.Time `json:"time"`
	// Span is a bucket's length in seconds (aggregated logs); 0 for a
	// request at an instant.
	Span      int64  `json:"span_seconds,omitempty"`
	Count     int    `json:"count"`
	Method    string `json:"method"`
	URL       string `json:"url"`
	Status    int    `json:"status"`
	UserAgent string `json:"user_agent"`
	Client    string `json:"client,omitempty"`
	Verified  string `json:"verified,omitempty"`
	// Agent is the token the request was judged as ("*": none named).
	Agent string `json:"agent"`
	// Tier is robots (a robots.txt fetch), allowed, grace (within the
	// cache grace), uncertain or violation.
	Tier string `json:"tier"`
	// Requirement is the requirement a violation breaks, or the one that
	// allowed or tolerated the request (ACC-6, CACHE-2).
	Requirement string `json:"requirement,omitempty"`
	// CouldBreak lists the requirements an uncertain bucket breaks in
	// some of the cases it cannot tell apart.
	CouldBreak []string `json:"could_break,omitempty"`
	// Rule is the deciding rule, when a rule decided.
	Rule *RuleRecord `json:"rule,omitempty"`
	// Version labels the robots.txt version judged against.
	Version string `json:"robots_version,omitempty"`
	// Copy is the version the client's last robots.txt fetch got, and
	// FetchedAt when; both absent before its first fetch.
	Copy      string    `json:"copy,omitempty"`
	FetchedAt time.Time `json:"fetched_at,omitzero"`
	Why       string    `json:"why"`
	Source    string    `json:"source,omitempty"`
}

// RuleRecord is a deciding rule: its line in the version, its text, and
// the group it is in.
type RuleRecord struct {
	Line  int    `json:"line"`
	Rule  string `json:"rule"`
	Group string `json:"group,omitempty"`
}

// Record turns a judgement into the record the JSON lists.
func Record(j crawl.Judgement) RequestRecord {
	r := j.Request
	rec := RequestRecord{Time: r.Time.UTC(), Span: int64(r.Span / time.Second), Count: r.N(), Method: r.Method, URL: r.URL,
		Status: r.Status, UserAgent: r.UserAgent, Client: r.Client, Verified: r.Verified, Agent: j.Agent, Tier: string(j.Tier),
		Requirement: j.Req, CouldBreak: j.Could, Version: j.Version, Copy: j.Copy, FetchedAt: j.FetchedAt, Why: j.Why, Source: r.Source}
	if d := j.Decision; d != nil && d.Reason == reference.RuleMatched {
		kind := "Disallow"
		if d.Rule.Allow {
			kind = "Allow"
		}
		rec.Rule = &RuleRecord{Line: d.Rule.Line, Rule: kind + ": " + d.Rule.Pattern, Group: d.Group}
	}
	if !rec.FetchedAt.IsZero() {
		rec.FetchedAt = rec.FetchedAt.UTC()
	}
	return rec
}

// RecordWriter writes records as JSON lines, buffered; Flush ends a run.
type RecordWriter struct {
	w   *bufio.Writer
	enc *json.Encoder
	n   int
	err error
}

// NewRecordWriter returns a writer of JSON lines to w.
func NewRecordWriter(w io.Writer) *RecordWriter {
	bw := bufio.NewWriterSize(w, 256<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &RecordWriter{w: bw, enc: enc}
}

// Write writes one record; after a failure it writes nothing more and
// Flush returns the error.
func (rw *RecordWriter) Write(rec RequestRecord) {
	if rw.err != nil {
		return
	}
	if err := rw.enc.Encode(rec); err != nil {
		rw.err = fmt.Errorf("writing request %d: %w", rw.n+1, err)
		return
	}
	rw.n++
}

// Written is the number of records written.
func (rw *RecordWriter) Written() int { return rw.n }

// Flush writes what is buffered and returns the first error.
func (rw *RecordWriter) Flush() error {
	if rw.err != nil {
		return rw.err
	}
	return rw.w.Flush()
}

// Section is the audit's own part of the results document ("audit"):
// the report, and every judged request, listed in Judged or, for a run
// given a file for them, written there as JSON lines (RequestsFile).
type Section struct {
	*Report
	RequestsFile string          `json:"requests_file,omitempty"`
	Judged       []RequestRecord `json:"judged,omitempty"`
	// JudgedOmitted counts the records past MaxListed, which a run without
	// a requests file does not hold.
	JudgedOmitted int `json:"judged_omitted,omitempty"`
}

// MaxListed bounds the records a Section holds in memory; a larger log
// writes its records to a file as JSON lines instead.
const MaxListed = 100_000

// List keeps a record for the section, up to MaxListed.
func (s *Section) List(rec RequestRecord) {
	if len(s.Judged) >= MaxListed {
		s.JudgedOmitted++
		return
	}
	s.Judged = append(s.Judged, rec)
}
