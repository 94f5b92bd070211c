package parsers

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	for ctx.Err() == nil {
		line, err := readLine(r, MaxRequestLine)
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("serve: reading a request: %w", err)
		}
		b, err := json.Marshal(serveLine(ctx, p, line))
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

// serveLine answers one request line.
func serveLine(ctx context.Context, p cases.Parser, line []byte) any {
	var in incoming
	if err := json.Unmarshal(line, &in); err != nil {
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
