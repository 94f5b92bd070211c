package diff

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// VerdictError is the verdict recorded when a parser fails to answer
// (an error or a panic). Like cases.Reject it is compared as a verdict of
// its own.
const VerdictError cases.Verdict = "error"

// Finding is one input on which parsers disagree (CASES.md §4). Its JSON
// form is one line of a findings file.
type Finding struct {
	Input
	// Verdicts holds each parser's verdict, by parser name.
	Verdicts map[string]cases.Verdict `json:"verdicts"`
	// Signature says which parsers side with which; see Signature.
	Signature string `json:"signature"`
	// Minimized is set once Minimize has shrunk the input.
	Minimized bool `json:"minimized"`
	// Req holds the requirement IDs the reference's trace points to; see
	// Tags.
	Req []string `json:"req"`

	// Sources names the files the disagreement was found in, in input
	// order; Probes counts the disagreeing probes this finding stands for.
	Sources []string `json:"sources,omitempty"`
	Probes  int      `json:"probes,omitempty"`
	// Trace is the reference's explanation of its verdict on the input,
	// in the input's profile; Line is its deciding line (0 when no rule
	// decided).
	Trace string `json:"trace,omitempty"`
	Line  int    `json:"line,omitempty"`
	// SourceLines holds, per source file, the lines of the rules whose
	// probes disagreed there (sorted, at most MaxSourceLines a file).
	SourceLines map[string][]int `json:"source_lines,omitempty"`
}

// Disagrees reports whether the verdicts are not all the same.
func (f *Finding) Disagrees() bool { return Signature(f.Verdicts) != "" }

// Key returns the key findings are grouped by: the signature and the
// primary requirement ID (see Primary).
func (f *Finding) Key() string { return f.Signature + " " + Primary(f.Req) }

// Signature is a canonical description of how parsers split on an input:
// the parsers are partitioned by verdict, each block is written as its
// sorted names and their verdict ("grobotstxt,reference=disallow"), and
// the blocks, sorted, are joined by "≠":
//
//	grobotstxt,reference=disallow≠temoto=allow
//
// The same verdicts always give the same signature, whatever the order of
// the parsers. It returns "" when all verdicts are the same.
func Signature(verdicts map[string]cases.Verdict) string {
	sides := Sides(verdicts)
	if len(sides) < 2 {
		return ""
	}
	blocks := make([]string, len(sides))
	for i, sd := range sides {
		blocks[i] = sd.String()
	}
	return strings.Join(blocks, "≠")
}

// panel asks a fixed list of parsers the same questions. Like the parsers
// it holds, it is used from one goroutine at a time.
type panel struct {
	parsers []cases.Parser
	names   []string
	timeout time.Duration
}

func newPanel(parsers []cases.Parser, timeout time.Duration) (*panel, error) {
	p := &panel{parsers: parsers, timeout: timeout}
	seen := make(map[string]bool)
	for _, q := range parsers {
		name := q.Info().Name
		if name == "" || seen[name] {
			return nil, fmt.Errorf("diff: parser names must be distinct and not empty: %q", name)
		}
		seen[name] = true
		p.names = append(p.names, name)
	}
	return p, nil
}

// verdicts returns each parser's verdict on in, in the panel's order.
func (p *panel) verdicts(ctx context.Context, in Input, dst []cases.Verdict) []cases.Verdict {
	dst = dst[:0]
	req := cases.Request{Case: "diff", Profile: in.Profile, Agent: in.Agent, URL: in.URL, Robots: in.Robots}
	for _, q := range p.parsers {
		dst = append(dst, p.ask(ctx, q, req))
	}
	return dst
}

func (p *panel) ask(ctx context.Context, q cases.Parser, req cases.Request) (v cases.Verdict) {
	defer func() {
		if recover() != nil {
			v = VerdictError
		}
	}()
	if p.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.timeout)
		defer cancel()
	}
	v, err := q.Check(ctx, req)
	switch {
	case err != nil:
		return VerdictError
	case v == cases.Allow, v == cases.Disallow, v == cases.Reject:
		return v
	}
	return VerdictError
}

// finding returns the finding for in, not minimised and without tags.
func (p *panel) finding(ctx context.Context, in Input) Finding {
	vs := p.verdicts(ctx, in, make([]cases.Verdict, 0, len(p.parsers)))
	f := Finding{Input: in, Verdicts: make(map[string]cases.Verdict, len(vs))}
	for i, v := range vs {
		f.Verdicts[p.names[i]] = v
	}
	f.Signature = Signature(f.Verdicts)
	return f
}

// Compare asks every parser about in and returns the result as a finding,
// not minimised and without requirement IDs. Its Signature is "" when the
// parsers agree. The parsers are called one after the other from the
// calling goroutine. A parser that errors or panics gets VerdictError.
func Compare(ctx context.Context, in Input, parsers []cases.Parser) (Finding, error) {
	p, err := newPanel(parsers, 0)
	if err != nil {
		return Finding{}, err
	}
	return p.finding(ctx, in), nil
}

// SameVerdicts returns a keep function for Minimize that holds when a
// candidate has exactly the verdicts of f: every parser answers as it did
// on f, so the signature is kept too.
func SameVerdicts(f Finding) func(Finding) bool {
	want := maps.Clone(f.Verdicts)
	return func(g Finding) bool { return maps.Equal(want, g.Verdicts) }
}

// SameCause returns a keep function for Minimize that holds when a
// candidate has exactly the verdicts of f and the reference (under the
// input's profile) decides it for the same kind of reason (a matching
// rule, no matching rule, no group, the implicit /robots.txt). It stops a
// minimisation from sliding from one disagreement to another that happens
// to give the same verdicts, such as from "/robots.txt is always allowed"
// to "the file has no group".
func SameCause(f Finding) func(Finding) bool {
	same := SameVerdicts(f)
	reason, ok := reasonOf(f.Input)
	return func(g Finding) bool {
		if !same(g) {
			return false
		}
		r, ok2 := reasonOf(g.Input)
		return ok == ok2 && r == reason
	}
}

// reasonOf returns the kind of reason the reference gives for its verdict.
func reasonOf(in Input) (reference.Reason, bool) {
	d, err := parseFor(in).Decide(in.Agent, in.URL)
	return d.Reason, err == nil
}
