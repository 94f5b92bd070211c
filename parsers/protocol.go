package parsers

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// ProtocolHello is the protocol version sent in the hello line.
const ProtocolHello = "reptest/1"

// CapBatch is the protocol capability of a program that answers batch
// requests: one body with many (agent, URL) questions, parsed once. It is
// a capability of the protocol, not of the parser, so it never appears in
// result.Info.
const CapBatch = "batch"

// request is one protocol request line: a check, or with Questions set a
// batch (Agent and URL then empty). encodeRequest writes RobotsB64 itself
// (see withBody); Serve reads it.
type request struct {
	ID        string     `json:"id"`
	RobotsB64 *string    `json:"robots_b64,omitempty"`
	Agent     string     `json:"agent,omitempty"`
	URL       string     `json:"url,omitempty"`
	Questions []question `json:"questions,omitempty"`
	Status    int        `json:"status,omitempty"`
	RobotsURL string     `json:"robots_url,omitempty"`
	Profile   string     `json:"profile,omitempty"`
	Session   string     `json:"session,omitempty"`
	Now       string     `json:"now,omitempty"`
	// Usage asks a program with the capability usage for the usage
	// preferences of these categories (the aipref profile).
	Usage []string `json:"usage,omitempty"`
}

// question is one (agent, URL) pair of a batch request.
type question struct {
	Agent string `json:"agent"`
	URL   string `json:"url"`
}

// answer is one protocol answer line; a batch is answered with Answers,
// one per question, unless Error fails the whole batch.
type answer struct {
	ID      json.RawMessage `json:"id"`
	Verdict *string         `json:"verdict,omitempty"`
	Error   *string         `json:"error,omitempty"`
	Detail  string          `json:"detail,omitempty"`
	Answers []verdictAnswer `json:"answers,omitempty"`
	// Usage answers a request's usage categories: "y", "n" or "unknown".
	Usage map[string]string `json:"usage,omitempty"`
}

// verdictAnswer is the answer to one question of a batch.
type verdictAnswer struct {
	Verdict *string `json:"verdict,omitempty"`
	Error   *string `json:"error,omitempty"`
	Detail  string  `json:"detail,omitempty"`
}

// hello is the program's first answer.
type hello struct {
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	Runtime      string   `json:"runtime"`
	Capabilities []string `json:"capabilities"`
}

// encodeRequest returns the request line for req, newline included. With
// qs set it is a batch request and req's Agent and URL are not sent.
func encodeRequest(id string, req cases.Request, qs []cases.Question, usage ...string) ([]byte, error) {
	r := request{ID: id, Agent: req.Agent, URL: req.URL, Profile: req.Profile, Usage: usage}
	fetch := req.Kind() == result.CapFetch
	if fetch {
		r.RobotsURL = req.RobotsURL
		r.Session = req.Session
		if r.Session != "" {
			r.Now = req.Now.UTC().Format(time.RFC3339)
		}
	} else {
		r.Status = req.Status
	}
	if qs != nil {
		r.Agent, r.URL = "", ""
		r.Questions = make([]question, len(qs))
		for i, q := range qs {
			r.Questions[i] = question(q)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if fetch {
		return append(b, '\n'), nil
	}
	return withBody(id, b, req.Robots), nil
}

// bodyKey opens the body in a request line that withBody writes, right
// after the id (Serve's lastLine finds it there).
const bodyKey = `,"robots_b64":"`

// withBody returns the request object obj with "robots_b64", the body in
// base64, as its second key, after the id (simple programs read the id
// as the first key), and a newline. The body is most of a request's
// bytes, and base64 needs no JSON escaping: appended directly it is
// encoded once, without json.Marshal's pass over every byte of the
// string. obj starts with its id (request's first field), a decimal
// number.
func withBody(id string, obj, robots []byte) []byte {
	head := len(`{"id":""`) + len(id)
	enc := base64.StdEncoding
	line := make([]byte, 0, len(obj)+len(bodyKey)+enc.EncodedLen(len(robots))+2)
	line = append(line, obj[:head]...)
	line = append(line, bodyKey...)
	line = enc.AppendEncode(line, robots)
	line = append(line, '"')
	line = append(line, obj[head:]...)
	return append(line, '\n')
}

// parseHello reads the program's hello. Unknown capabilities are ignored,
// so that programs can announce newer ones; at least one known one is
// needed. batch reports the protocol capability CapBatch.
func parseHello(line []byte, name string) (info result.Info, batch bool, err error) {
	var h hello
	if err := json.Unmarshal(line, &h); err != nil {
		return result.Info{}, false, fmt.Errorf("answered a line that is not a hello object: %s", quoteShort(line, 200))
	}
	if name == "" {
		if err := ValidName(h.Name); h.Name != "" && err != nil {
			return result.Info{}, false, fmt.Errorf("the hello's name: %w", err)
		}
		name = h.Name
	}
	if name == "" {
		name = "exec"
	}
	info = result.Info{Name: name, Version: h.Version, Runtime: h.Runtime}
	for _, c := range h.Capabilities {
		switch cp := result.Capability(c); cp {
		case result.CapParse, result.CapStatus, result.CapFetch, result.CapClock, result.CapUsage:
			if !info.Has(cp) {
				info.Capabilities = append(info.Capabilities, cp)
			}
		case CapBatch:
			batch = true
		}
	}
	if len(info.Capabilities) == 0 {
		return result.Info{}, false, fmt.Errorf("the hello names no known capability (parse, status, fetch, clock): %s", quoteShort(line, 200))
	}
	return info, batch, nil
}

// ValidName reports whether name can name a parser: not empty, valid
// UTF-8, and without "=", ",", "≠" or control characters, which reports
// and finding signatures ("a=b≠c") use as separators.
func ValidName(name string) error {
	switch {
	case name == "":
		return errors.New("a parser name must not be empty")
	case !utf8.ValidString(name):
		return fmt.Errorf("parser name %q is not valid UTF-8", name)
	}
	for _, r := range name {
		switch {
		case r == '=' || r == ',' || r == '≠':
			return fmt.Errorf("parser name %q contains %q, which findings use as a separator", name, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return fmt.Errorf("parser name %q contains the control character %U", name, r)
		}
	}
	return nil
}

// answerID reads an answer's id: a JSON string, or a number written as
// the request's decimal id.
func answerID(raw json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, true
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), true
	}
	return "", false
}

// verdictOf reads one answer (of a check, or of one question of a batch):
// its verdict, or an error of that check alone. detail is the program's
// own explanation of a reject or an error, "" when it gave none.
func verdictOf(v, e *string, detail string, raw []byte) (result.Verdict, error) {
	switch {
	case e != nil:
		return "", &AnswerError{Message: *e, Detail: detail}
	case v == nil:
		return "", fmt.Errorf("the answer has neither verdict nor error: %s", quoteShort(raw, 200))
	}
	switch verdict := result.Verdict(*v); verdict {
	case result.Allow, result.Disallow, result.Reject:
		return verdict, nil
	default:
		return "", fmt.Errorf("%q is not a verdict (allow, disallow or reject)", *v)
	}
}

// AnswerError is a check that the program answered with an error. Detail
// is the optional explanation the protocol's "detail" field gave.
type AnswerError struct {
	Message string
	Detail  string
}

// Error returns the message; the detail is reported beside it (see
// Exec.CheckDetail), not in it.
func (e *AnswerError) Error() string { return "the parser answered an error: " + e.Message }
