package fuzz

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// divergence is one input on which the reference and a peer disagree.
// The views predicates need are computed on first use.
type divergence struct {
	peer       string
	profile    string // the case profile the reference reads the input in
	body       []byte
	agent, url string
	ref, got   result.Verdict
	opts       reference.Options // the reference's options for this peer

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
func (d *divergence) refDecide(body []byte, opts reference.Options, url string) result.Verdict {
	return refVerdict(body, opts, d.agent, url)
}

// refVerdict is the reference's verdict, reject for an agent it refuses.
// It takes the one-shot path, whose verdict is Parse + Allowed's (FuzzParse
// checks that on every input) at a fraction of the cost.
func refVerdict(body []byte, opts reference.Options, agent, url string) result.Verdict {
	ok, err := reference.AllowedOnce(string(body), opts, agent, url)
	switch {
	case err != nil:
		return result.Reject
	case ok:
		return result.Allow
	}
	return result.Disallow
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
		if reference.IsProductToken(agent[i : i+1]) {
			b = append(b, agent[i])
		}
	}
	if len(b) == 0 {
		return "FooBot"
	}
	return string(b)
}

// peers are the two Go libraries FuzzDifferential compares the
// reference with, through their adapters (package parsers), each
// with the profile the reference reads the input in and the classes
// that filter its known disagreements.
var peers = []struct {
	parser  cases.Parser
	profile string
	classes *[]knownClass
}{
	{parsers.NewGrobotstxt(), result.ProfileGoogle, &grobotClasses},
	{parsers.NewTemoto(), result.ProfileRFC, &temotoClasses},
}

// compare asks one peer about the input and returns the divergence when
// its verdict differs from the reference's.
func compare(t *testing.T, i int, body []byte, agent, url string) *divergence {
	p := peers[i]
	opts, _ := reference.OptionsFor(p.profile)
	ref := refVerdict(body, opts, agent, url)
	if ref == result.Reject {
		t.Fatalf("%s: agent %q: the reference refused a product token", p.profile, agent)
	}
	req := cases.Request{Case: "fuzz", Profile: p.profile, Agent: agent, URL: url, Robots: body}
	got, err := p.parser.Check(t.Context(), req)
	if err != nil {
		t.Fatalf("%s: %v", p.parser.Info().Name, err)
	}
	if got == ref {
		return nil
	}
	return &divergence{peer: p.parser.Info().Name, profile: p.profile, body: body, agent: agent, url: url, ref: ref, got: got, opts: opts}
}

// FuzzDifferential compares the reference with two peers on any input:
// with reference.Google() options against github.com/jimsmart/grobotstxt
// (a port of Google's parser), and with reference.RFC() options against
// github.com/temoto/robotstxt (whose parse errors count as "reject"),
// both through their adapters in parsers. Every known class of
// disagreement is filtered by a predicate of classes_test.go; an input
// that shows none fails, with a case draft (diff's) that a person can
// review and promote.
func FuzzDifferential(f *testing.F) {
	addDiffSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		url = cutURL(url)
		if !isProductToken(agent) {
			if _, err := reference.AllowedOnce(string(body), reference.RFC(), agent, url); err == nil {
				t.Fatalf("agent %q is not a product token, but the reference gave a verdict", agent)
			}
			agent = diffAgent(agent)
		}
		for i := range peers {
			if d := compare(t, i, body, agent, url); d != nil && explain(*peers[i].classes, d) == "" {
				t.Fatal(d.report())
			}
		}
	})
}

// report describes a divergence no known class explains, with a case
// draft for the corpus (diff.NewDraft: the reference's verdict is the
// expectation; req and title are for the reviewer to check).
func (d *divergence) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "new divergence: reference (%s) says %s, %s says %s\n", d.opts.Name, d.ref, d.peer, d.got)
	fmt.Fprintf(&b, "agent %q, URL %q, robots.txt (%d bytes):\n%q\n", d.agent, d.url, len(d.body), d.body)
	in := result.Input{Robots: d.body, Agent: d.agent, URL: d.url, Profile: d.profile}
	f := result.Finding{Input: in, Verdicts: map[string]result.Verdict{"reference": d.ref, d.peer: d.got}}
	dr, err := diff.NewDraft(f, "FuzzDifferential against "+d.peer, "fuzz")
	var out []byte
	if err == nil {
		out, err = diff.MarshalDrafts([]diff.Draft{dr})
	}
	if err != nil {
		fmt.Fprintf(&b, "no case draft: %v\n", err)
		return b.String()
	}
	b.WriteString("proposed case (add req and a title, check the expectation):\n")
	b.Write(out)
	return b.String()
}

// TestDivergenceReport checks that a new divergence is reported with a
// case draft the loader reads back.
func TestDivergenceReport(t *testing.T) {
	d := &divergence{peer: "temoto", body: []byte("User-agent: *\nDisallow: /a\n"), agent: "FooBot",
		url: "http://example.com/a", ref: result.Disallow, got: result.Allow, profile: result.ProfileRFC, opts: reference.RFC()}
	out := d.report()
	_, draft, ok := strings.Cut(out, "proposed case (add req and a title, check the expectation):\n")
	if !ok {
		t.Fatalf("no case draft in the report:\n%s", out)
	}
	cs, err := cases.Load(fstest.MapFS{"draft.yaml": {Data: []byte(draft)}}, "")
	if err != nil {
		t.Fatalf("the draft does not load: %v\n%s", err, draft)
	}
	if len(cs) != 1 || len(cs[0].Checks) != 1 || cs[0].Checks[0].Expect != result.Disallow {
		t.Errorf("draft = %+v; want one case expecting the reference's disallow", cs)
	}
}
