package fuzz

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jimsmart/grobotstxt"
	"github.com/reptest/reptest/reference"
	"github.com/temoto/robotstxt"
)

// verdict is a parser's answer: allow, disallow, or reject when a parser
// refuses the whole file (CASES.md §2).
type verdict string

const (
	allow    verdict = "allow"
	disallow verdict = "disallow"
	reject   verdict = "reject"
)

func verdictOf(allowed bool) verdict {
	if allowed {
		return allow
	}
	return disallow
}

// divergence is one input on which the reference and a peer disagree.
// The views predicates need are computed on first use.
type divergence struct {
	peer       string
	body       []byte
	agent, url string
	ref, got   verdict
	opts       reference.Options // the reference's options for this peer
	temotoErr  error             // temoto's parse error, when it rejected

	lines  []reference.Line // the reference's reading, under opts
	tlines []temotoLine     // temoto's reading, see temotoLines
}

func (d *divergence) refLines() []reference.Line {
	if d.lines == nil {
		d.lines = reference.Parse(d.body, d.opts).Lines()
	}
	return d.lines
}

func (d *divergence) temotoLines() []temotoLine {
	if d.tlines == nil {
		d.tlines = readTemotoLines(d.body)
	}
	return d.tlines
}

// refDecide returns the reference's decision under opts for another
// body, agent or URL: the counterfactual some predicates ask.
func (d *divergence) refDecide(body []byte, opts reference.Options, url string) verdict {
	ok, err := reference.Parse(body, opts).Allowed(d.agent, url)
	if err != nil {
		return reject
	}
	return verdictOf(ok)
}

// knownClass is a documented class of disagreement between the reference
// and a peer: a predicate that says whether an input shows it.
type knownClass struct {
	name  string
	shows func(d *divergence) bool
}

// explain returns the first known class the divergence shows, or "".
func explain(classes []knownClass, d *divergence) string {
	for _, c := range classes {
		if c.shows(d) {
			return c.name
		}
	}
	return ""
}

// diffAgent turns the fuzzer's agent into a product token, keeping its
// token octets, so that nearly every input compares verdicts.
func diffAgent(agent string) string {
	b := make([]byte, 0, len(agent))
	for i := 0; i < len(agent) && len(b) < 64; i++ {
		if isProductToken(agent[i : i+1]) {
			b = append(b, agent[i])
		}
	}
	if len(b) == 0 {
		return "FooBot"
	}
	return string(b)
}

// FuzzDifferential compares the reference with two peers on any input:
// with reference.Google() options against github.com/jimsmart/grobotstxt
// (a port of Google's parser), and with reference.RFC() options against
// github.com/temoto/robotstxt (whose parse errors count as "reject").
// Every known class of disagreement is filtered by a predicate of
// classes_test.go; an input that shows none fails, with a case in the
// corpus format that a person can review and promote.
func FuzzDifferential(f *testing.F) {
	addDocSeeds(f, true)
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		url = cutURL(url)
		if !isProductToken(agent) {
			if _, err := reference.Parse(body, reference.RFC()).Allowed(agent, url); err == nil {
				t.Fatalf("agent %q is not a product token, but the reference gave a verdict", agent)
			}
			agent = diffAgent(agent)
		}

		google := reference.Google()
		refG, err := reference.Parse(body, google).Allowed(agent, url)
		if err != nil {
			t.Fatalf("google: %v", err)
		}
		gotG := grobotstxt.AgentAllowed(string(body), agent, url)
		if refG != gotG {
			d := &divergence{peer: "grobotstxt", body: body, agent: agent, url: url,
				ref: verdictOf(refG), got: verdictOf(gotG), opts: google}
			if explain(grobotClasses, d) == "" {
				t.Fatal(d.report())
			}
		}

		rfc := reference.RFC()
		refR, err := reference.Parse(body, rfc).Allowed(agent, url)
		if err != nil {
			t.Fatalf("rfc9309: %v", err)
		}
		gotT, terr := temotoVerdict(body, agent, url)
		if verdictOf(refR) != gotT {
			d := &divergence{peer: "temoto", body: body, agent: agent, url: url,
				ref: verdictOf(refR), got: gotT, opts: rfc, temotoErr: terr}
			if explain(temotoClasses, d) == "" {
				t.Fatal(d.report())
			}
		}
	})
}

// temotoVerdict asks github.com/temoto/robotstxt, as its documentation
// shows: parse the body, find the agent's group, test the path and query.
func temotoVerdict(body []byte, agent, url string) (verdict, error) {
	r, err := robotstxt.FromBytes(body)
	if err != nil {
		return reject, err
	}
	return verdictOf(r.FindGroup(agent).Test(reference.PathQuery(url))), nil
}

// report describes a divergence no known class explains, with a case in
// the format of CASES.md §1 for the corpus (the reference's verdict is the
// expectation; req and title are for the reviewer to fill in).
func (d *divergence) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "new divergence: reference (%s) says %s, %s says %s\n", d.opts.Name, d.ref, d.peer, d.got)
	fmt.Fprintf(&b, "agent %q, URL %q, robots.txt (%d bytes):\n%q\n", d.agent, d.url, len(d.body), d.body)
	if d.temotoErr != nil {
		fmt.Fprintf(&b, "temoto error: %v\n", d.temotoErr)
	}
	b.WriteString("proposed case (add req and a title, check the expectation):\n")
	b.WriteString(yamlCase(d))
	return b.String()
}

// yamlCase writes one case of CASES.md §1 for the divergence.
func yamlCase(d *divergence) string {
	var b strings.Builder
	b.WriteString("cases:\n")
	fmt.Fprintf(&b, "  - id: fuzz/%s-%08x\n", d.peer, fnv32(d.body, d.agent, d.url))
	fmt.Fprintf(&b, "    title: found by FuzzDifferential against %s\n", d.peer)
	b.WriteString("    req: []\n")
	if d.opts.Name == reference.Google().Name {
		b.WriteString("    profile: google\n")
	}
	if yamlSafe(d.body) {
		b.WriteString("    robots: |\n")
		for _, l := range strings.SplitAfter(string(d.body), "\n") {
			if l != "" {
				fmt.Fprintf(&b, "      %s", l)
			}
		}
		if !strings.HasSuffix(string(d.body), "\n") {
			b.WriteString("\n")
		}
	} else {
		fmt.Fprintf(&b, "    robots_base64: %s\n", base64.StdEncoding.EncodeToString(d.body))
	}
	b.WriteString("    checks:\n")
	if !utf8.ValidString(d.url) {
		b.WriteString("      # the URL is not valid UTF-8, which a YAML string cannot hold exactly\n")
	}
	fmt.Fprintf(&b, "      - {agent: %q, url: %q, expect: %s}\n", d.agent, d.url, d.ref)
	return b.String()
}

// yamlSafe reports whether body can be written as a YAML literal block:
// valid UTF-8, LF line ends only, printable, and no line starting with
// white space that the block's indentation would swallow.
func yamlSafe(body []byte) bool {
	if len(body) == 0 || !utf8.Valid(body) {
		return false
	}
	for _, l := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			return false
		}
		for _, r := range l {
			if r < 0x20 && r != '\t' || r == 0x7f || r == '\ufeff' {
				return false
			}
		}
	}
	return true
}

// fnv32 hashes the input for a stable case id.
func fnv32(body []byte, agent, url string) uint32 {
	h := uint32(2166136261)
	for _, part := range [][]byte{body, []byte(agent), []byte(url)} {
		for _, c := range part {
			h = (h ^ uint32(c)) * 16777619
		}
		h = (h ^ 0xff) * 16777619
	}
	return h
}
