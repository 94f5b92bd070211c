// Package accesslog reads a site's access logs (Combined Log Format and
// JSON lines) into the requests reptest's crawl grader judges, and audits
// them against the site's robots.txt versions: did each bot obey the file
// in force when it came?
//
// Reading streams: one line at a time, in bounded memory whatever the
// size of the log. A malformed line is counted and reported with its line
// number, never fatal.
package accesslog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/result"
)

// Fields names the fields of a JSON-lines log.
type Fields struct {
	Time      string // RFC 3339 text, or Unix seconds, milliseconds or nanoseconds
	Method    string
	URL       string // the path and query, or an absolute URL
	UserAgent string
	Status    string
	// Verified, when set, names a field that marks requests of bots the
	// log's source verified (any value but "", "false" and "0").
	Verified string
	// Client names the field holding the client's address.
	Client string
}

// JSONFields are the field names a JSON-lines log has by default.
var JSONFields = Fields{Time: "time", Method: "method", URL: "url", UserAgent: "user_agent", Status: "status", Verified: "verified_bot", Client: "remote_addr"}

// CloudflareFields are the field names of Cloudflare's HTTP request logs
// (Logpush http_requests), VerifiedBotCategory being set for verified bots.
var CloudflareFields = Fields{Time: "EdgeStartTimestamp", Method: "ClientRequestMethod", URL: "ClientRequestURI",
	UserAgent: "ClientRequestUserAgent", Status: "EdgeResponseStatus", Verified: "VerifiedBotCategory", Client: "ClientIP"}

// ParseFields changes fields by a list "key=name,...", the keys being
// time, method, url, user_agent, status, verified and client.
func ParseFields(spec string, fields Fields) (Fields, error) {
	names := map[string]*string{"time": &fields.Time, "method": &fields.Method, "url": &fields.URL,
		"user_agent": &fields.UserAgent, "status": &fields.Status, "verified": &fields.Verified, "client": &fields.Client}
	for _, kv := range strings.Split(spec, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return fields, fmt.Errorf("field %q: want key=name", kv)
		}
		name, ok := names[strings.TrimSpace(k)]
		if !ok {
			return fields, fmt.Errorf("field %q: the keys are time, method, url, user_agent, status, verified and client", kv)
		}
		*name = v
	}
	return fields, nil
}

// Format is how a log is written: Combined Log Format, JSON lines with
// the given field names, or the JSON answer of a Cloudflare GraphQL
// Analytics query (buckets of requests, not requests).
type Format struct {
	JSON   bool
	Fields Fields
	// CloudflareGraphQL reads the answer of an httpRequestsAdaptiveGroups
	// query; the log is then read whole (at most MaxGraphQL bytes).
	CloudflareGraphQL bool
}

// MaxLine is the longest line read; a longer one is malformed.
const MaxLine = 64 << 10

// keepErrors is how many malformed lines a Scanner keeps for its report;
// the rest are counted.
const keepErrors = 50

// Scanner reads requests from a log, line by line.
type Scanner struct {
	r      *bufio.Reader
	name   string
	format Format
	line   int
	req    crawl.Request
	err    error

	malformed int
	errs      []result.LineError

	// rows are a GraphQL answer's buckets, read at the first Scan.
	rows   []crawl.Request
	loaded bool
}

// NewScanner returns a scanner of the log r; name is used in errors.
func NewScanner(r io.Reader, name string, f Format) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, MaxLine), name: name, format: f}
}

// Scan advances to the next well-formed request. It returns false at the
// end of the log or on a read error (see Err).
func (s *Scanner) Scan() bool {
	if s.format.CloudflareGraphQL {
		return s.scanGraphQL()
	}
	for {
		line, err := s.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.err = fmt.Errorf("%s:%d: %w", s.name, s.line, err)
			}
			return false
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var req crawl.Request
		var perr error
		if s.format.JSON {
			req, perr = parseJSON(line, &s.format.Fields)
		} else {
			req, perr = parseCombined(line)
		}
		if perr != nil {
			s.bad(perr.Error())
			continue
		}
		req.Source = s.name + ":" + strconv.Itoa(s.line)
		s.req = req
		return true
	}
}

// scanGraphQL serves the buckets of a GraphQL answer, read whole at the
// first call; each group counts as a line.
func (s *Scanner) scanGraphQL() bool {
	if !s.loaded {
		s.loaded = true
		rows, bad, err := readGraphQL(s.r, s.name)
		if err != nil {
			s.err = fmt.Errorf("%s: %w", s.name, err)
			return false
		}
		s.rows, s.line = rows, len(rows)+len(bad)
		for _, e := range bad {
			s.malformed++
			if len(s.errs) < keepErrors {
				s.errs = append(s.errs, e)
			}
		}
	}
	if len(s.rows) == 0 {
		return false
	}
	s.req, s.rows = s.rows[0], s.rows[1:]
	return true
}

// next returns the next line; one longer than MaxLine is skipped and
// reported.
func (s *Scanner) next() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if len(line) == 0 && errors.Is(err, io.EOF) {
		return nil, err
	}
	s.line++
	if errors.Is(err, bufio.ErrBufferFull) {
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = s.r.ReadSlice('\n')
		}
		s.bad(fmt.Sprintf("line longer than %d bytes", MaxLine))
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return nil, nil
	}
	if errors.Is(err, io.EOF) && len(line) > 0 {
		return line, nil
	}
	return line, err
}

func (s *Scanner) bad(msg string) {
	s.malformed++
	if len(s.errs) < keepErrors {
		s.errs = append(s.errs, result.LineError{File: s.name, Line: s.line, Msg: msg})
	}
}

// Request returns the request Scan found.
func (s *Scanner) Request() crawl.Request { return s.req }

// Err returns the read error that ended the scan, if any.
func (s *Scanner) Err() error { return s.err }

// Lines is the number of lines read.
func (s *Scanner) Lines() int { return s.line }

// Malformed is the number of malformed lines; Errors holds the first of
// them.
func (s *Scanner) Malformed() int             { return s.malformed }
func (s *Scanner) Errors() []result.LineError { return s.errs }

// combinedTime is the time format of the Common and Combined Log Formats.
const combinedTime = "02/Jan/2006:15:04:05 -0700"

// parseCombined reads one line of the Combined Log Format:
//
//	host ident user [time] "request" status bytes "referer" "user-agent"
//
// A Common Log Format line (no referer and user agent) has an empty user
// agent.
func parseCombined(line []byte) (crawl.Request, error) {
	s := string(bytes.TrimRight(line, "\r\n"))
	var r crawl.Request
	open := strings.IndexByte(s, '[')
	end := strings.IndexByte(s, ']')
	if open < 0 || end < open {
		return r, errors.New("no [time] field")
	}
	t, err := time.Parse(combinedTime, s[open+1:end])
	if err != nil {
		return r, fmt.Errorf("time %.60q: want %s", s[open+1:end], combinedTime)
	}
	r.Time = t
	if host, _, ok := strings.Cut(s, " "); ok && host != "-" {
		r.Client = host
	}
	rest := strings.TrimLeft(s[end+1:], " ")
	request, rest, err := quoted(rest)
	if err != nil {
		return r, fmt.Errorf("request: %w", err)
	}
	parts := strings.Fields(request)
	if len(parts) < 2 {
		return r, fmt.Errorf("request %.80q: want METHOD URL [PROTOCOL]", request)
	}
	r.Method, r.URL = parts[0], parts[1]
	fields := strings.Fields(rest)
	if len(fields) < 1 {
		return r, errors.New("no status")
	}
	if r.Status, err = strconv.Atoi(fields[0]); err != nil || r.Status < 100 || r.Status > 999 {
		return r, fmt.Errorf("status %.20q is not a number from 100 to 999", fields[0])
	}
	// Skip status and size; then referer and user agent, quoted.
	rest = strings.TrimLeft(rest, " ")
	for i := 0; i < 2 && rest != ""; i++ {
		if k := strings.IndexByte(rest, ' '); k >= 0 {
			rest = strings.TrimLeft(rest[k:], " ")
		} else {
			rest = ""
		}
	}
	if rest == "" {
		return r, nil
	}
	if _, rest, err = quoted(rest); err != nil {
		return r, fmt.Errorf("referer: %w", err)
	}
	if r.UserAgent, _, err = quoted(strings.TrimLeft(rest, " ")); err != nil {
		return r, fmt.Errorf("user agent: %w", err)
	}
	return r, nil
}

// quoted reads a double-quoted field at the start of s, where \" and \\
// stand for themselves, and returns it and what follows.
func quoted(s string) (field, rest string, err error) {
	if !strings.HasPrefix(s, "\"") {
		return "", s, errors.New("want a field in double quotes")
	}
	if i := strings.IndexAny(s[1:], "\"\\"); i >= 0 && s[1+i] == '"' {
		return s[1 : 1+i], s[2+i:], nil // no escapes: the common case
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '"':
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(c)
		}
	}
	return "", "", errors.New("unterminated quote")
}

// parseJSON reads one JSON object with the given field names.
func parseJSON(line []byte, f *Fields) (crawl.Request, error) {
	var r crawl.Request
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return r, fmt.Errorf("not a JSON object: %v", err)
	}
	str := func(name string) (string, bool) {
		raw, ok := m[name]
		if !ok {
			return "", false
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, true
		}
		return strings.Trim(string(raw), " "), true
	}
	ts, ok := str(f.Time)
	if !ok {
		return r, fmt.Errorf("no %q field", f.Time)
	}
	t, err := parseTime(ts)
	if err != nil {
		return r, fmt.Errorf("%s: %v", f.Time, err)
	}
	r.Time = t
	if r.URL, ok = str(f.URL); !ok || r.URL == "" {
		return r, fmt.Errorf("no %q field", f.URL)
	}
	r.Method, _ = str(f.Method)
	r.UserAgent, _ = str(f.UserAgent)
	if f.Client != "" {
		r.Client, _ = str(f.Client)
	}
	if s, ok := str(f.Status); ok {
		if r.Status, err = strconv.Atoi(s); err != nil {
			return r, fmt.Errorf("%s %.20q is not a number", f.Status, s)
		}
	}
	if f.Verified != "" {
		if v, ok := str(f.Verified); ok && v != "" && v != "false" && v != "0" && v != "null" {
			r.Verified = v
		}
	}
	return r, nil
}

// parseTime reads RFC 3339 text or a Unix time in seconds, milliseconds
// or nanoseconds (told apart by size).
func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("%.60q is neither RFC 3339 nor a Unix time", s)
	}
	switch {
	case n > 1e17:
		return time.Unix(0, int64(n)).UTC(), nil
	case n > 1e11:
		return time.UnixMilli(int64(n)).UTC(), nil
	}
	sec := int64(n)
	return time.Unix(sec, int64((n-float64(sec))*1e9)).UTC(), nil
}
