package accesslog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// Record turns a judgement into the record the JSON lists
// (docs/FORMAT.md §7.2).
func Record(j crawl.Judgement) result.AuditRequest {
	r := j.Request
	rec := result.AuditRequest{Time: r.Time.UTC(), Span: int64(r.Span / time.Second), Count: r.N(), Method: r.Method, URL: r.URL,
		Status: r.Status, UserAgent: r.UserAgent, Client: r.Client, Verified: r.Verified, Agent: j.Agent, Tier: string(j.Tier),
		Requirement: j.Req, CouldBreak: j.Could, Version: j.Version, Copy: j.Copy, FetchedAt: j.FetchedAt, Why: j.Why, Source: r.Source}
	if d := j.Decision; d != nil && d.Reason == reference.RuleMatched {
		kind := "Disallow"
		if d.Rule.Allow {
			kind = "Allow"
		}
		rec.Rule = &result.AuditRule{Line: d.Rule.Line, Rule: kind + ": " + d.Rule.Pattern, Group: d.Group}
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
func (rw *RecordWriter) Write(rec result.AuditRequest) {
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
