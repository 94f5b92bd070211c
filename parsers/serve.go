package parsers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// MaxRequestLine is the longest request line Serve reads: a body of up to
// about 96 MiB, base64-encoded.
const MaxRequestLine = 128 << 20

// incoming is a request line as Serve reads it: a hello, a check or a
// batch.
type incoming struct {
	Hello *string `json:"hello"`
	request
}

// Serve answers the reptest/1 protocol for p, reading requests from in
// and writing answers to out, until in ends or ctx is done. The hello
// announces p's capabilities, and "batch" (p's CheckBatch, or Check per
// question when p is not a cases.Batcher). It returns nil at the end of
// in, or the error that stopped it.
func Serve(ctx context.Context, p cases.Parser, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	var last lastLine
	var buf []byte // the lines' room, kept up to keptLineRoom
	for ctx.Err() == nil {
		line, err := readLineInto(r, MaxRequestLine, buf)
		if cap(line) <= keptLineRoom {
			buf = line[:0]
		}
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("serve: reading a request: %w", err)
		}
		b, err := json.Marshal(serveLine(ctx, p, line, &last))
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		w.Write(append(b, '\n'))
		if err := w.Flush(); err != nil {
			return fmt.Errorf("serve: writing an answer: %w", err)
		}
	}
	return ctx.Err()
}

// keptLineRoom bounds the room Serve keeps for reading the next request
// line into: a line of a large body is read into a buffer of its own,
// let go after it.
const keptLineRoom = 4 << 20

// serveLine answers one request line; last is what it keeps of the
// line before (see lastLine.read).
func serveLine(ctx context.Context, p cases.Parser, line []byte, last *lastLine) any {
	var in incoming
	body, err := last.read(line, &in)
	if err != nil {
		return map[string]string{"error": "not a JSON request: " + err.Error()}
	}
	if in.Hello != nil {
		info := p.Info()
		h := hello{Name: info.Name, Version: info.Version}
		for _, c := range info.Capabilities {
			h.Capabilities = append(h.Capabilities, string(c))
		}
		h.Capabilities = append(h.Capabilities, CapBatch)
		return h
	}
	id, _ := json.Marshal(in.ID)
	req, err := decodeRequest(in.request)
	if body != nil {
		req.Robots = body // read already (lastLine.read)
	}
	if err != nil {
		msg := err.Error()
		return answer{ID: id, Error: &msg}
	}
	if in.Questions == nil {
		v, detail, err := checkDetail(ctx, p, req)
		return answerOf(id, v, detail, err)
	}
	qs := make([]cases.Question, len(in.Questions))
	for i, q := range in.Questions {
		qs[i] = cases.Question(q)
	}
	vs, errs := checkBatch(ctx, p, req, qs)
	a := answer{ID: id, Answers: make([]verdictAnswer, len(qs))}
	for i := range qs {
		x := answerOf(nil, vs[i], "", errs[i])
		a.Answers[i] = verdictAnswer{Verdict: x.Verdict, Error: x.Error, Detail: x.Detail}
	}
	return a
}

// lastLine keeps the body of the request line before, as sent in base64
// and decoded. Exec sends a body's questions BatchPart at a time, each
// request with the body again: a line that starts as encodeRequest
// writes it, with the same body as the line before, is read without its
// body (most of its bytes), and the body kept is used again. Any other
// line is read whole.
type lastLine struct {
	b64  string
	body []byte
}

// read decodes line into in and returns the line's body, decoded, with
// in.RobotsB64 then nil; or nil when the line has no body or one that
// is not base64 (in.RobotsB64 then says what it is). It keeps the body
// for the next line.
func (l *lastLine) read(line []byte, in *incoming) ([]byte, error) {
	if from, to, ok := bodyAt(line); ok && l.body != nil && string(line[from:to]) == l.b64 {
		rest := slices.Concat(line[:from-len(bodyKey)], line[to+1:])
		if json.Unmarshal(rest, in) == nil && in.RobotsB64 == nil {
			return l.body, nil
		}
		*in = incoming{}
	}
	if err := json.Unmarshal(line, in); err != nil {
		return nil, err
	}
	l.b64, l.body = "", nil
	if in.RobotsB64 == nil {
		return nil, nil
	}
	body, err := base64.StdEncoding.DecodeString(*in.RobotsB64)
	if err != nil {
		return nil, nil
	}
	l.b64, l.body, in.RobotsB64 = *in.RobotsB64, body, nil
	return body, nil
}

// bodyAt returns where the base64 body of a line that starts as
// encodeRequest writes it (an id of digits, then "robots_b64") is, and
// whether it starts so. Base64 needs no escape in a JSON string: the
// body ends at the first quote, and a backslash before it means the line
// was written otherwise.
func bodyAt(line []byte) (from, to int, ok bool) {
	const head = `{"id":"`
	rest, ok := bytes.CutPrefix(line, []byte(head))
	if !ok {
		return 0, 0, false
	}
	digits := 0
	for digits < len(rest) && digits < 20 && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits == 0 || !bytes.HasPrefix(rest[digits:], []byte(`"`+bodyKey)) {
		return 0, 0, false
	}
	from = len(head) + digits + len(`"`+bodyKey)
	end := bytes.IndexByte(line[from:], '"')
	if end < 0 || bytes.IndexByte(line[from:from+end], '\\') >= 0 {
		return 0, 0, false
	}
	return from, from + end, true
}

// answerOf is the answer for one verdict or error.
func answerOf(id json.RawMessage, v result.Verdict, detail string, err error) answer {
	a := answer{ID: id, Detail: detail}
	if err != nil {
		msg := err.Error()
		a.Error = &msg
		return a
	}
	s := string(v)
	a.Verdict = &s
	return a
}

// decodeRequest turns a request line into the cases.Request it stands for.
func decodeRequest(r request) (cases.Request, error) {
	req := cases.Request{Agent: r.Agent, URL: r.URL, Status: r.Status, Profile: r.Profile, RobotsURL: r.RobotsURL, Session: r.Session}
	if r.RobotsB64 != nil {
		body, err := base64.StdEncoding.DecodeString(*r.RobotsB64)
		if err != nil {
			return req, fmt.Errorf("robots_b64: %w", err)
		}
		req.Robots = body
	}
	if r.Now != "" {
		now, err := time.Parse(time.RFC3339, r.Now)
		if err != nil {
			return req, fmt.Errorf("now: %w", err)
		}
		req.Now = now
	}
	return req, nil
}

// checkDetail asks p, with its detail when it is a cases.Detailer.
func checkDetail(ctx context.Context, p cases.Parser, req cases.Request) (result.Verdict, string, error) {
	if d, ok := p.(cases.Detailer); ok {
		return d.CheckDetail(ctx, req)
	}
	v, err := p.Check(ctx, req)
	return v, "", err
}

// checkBatch asks p every question about one body: with CheckBatch when p
// is a cases.Batcher, else one Check per question.
func checkBatch(ctx context.Context, p cases.Parser, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	if b, ok := p.(cases.Batcher); ok {
		return b.CheckBatch(ctx, req, qs)
	}
	return eachCheck(ctx, p, req, qs)
}

// eachCheck asks p every question about one body, one Check each.
func eachCheck(ctx context.Context, p cases.Parser, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	vs := make([]result.Verdict, len(qs))
	errs := make([]error, len(qs))
	for i, q := range qs {
		r := req
		r.Agent, r.URL = q.Agent, q.URL
		vs[i], errs[i] = p.Check(ctx, r)
	}
	return vs, errs
}
