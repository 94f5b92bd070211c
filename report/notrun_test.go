package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// notRunDoc is a run in which "absent" skipped every check (its runtime is
// missing) and "reference" passed them.
func notRunDoc() *result.Document {
	var rs []result.Result
	for i, lv := range []result.Level{result.MUST, result.MUST, result.SHOULD} {
		base := result.Result{Case: "c", Check: i, Agent: "FooBot", URL: "https://example.com/", Expect: result.Allow, Level: lv, Req: []string{"UA-1"}}
		ok, skip := base, base
		ok.Parser, ok.Verdict, ok.Outcome = "reference", result.Allow, result.Pass
		skip.Parser, skip.Outcome, skip.Detail = "absent", result.Skipped, "python3 is not installed (apt-get install python3)"
		rs = append(rs, ok, skip)
	}
	return cases.NewDocument(result.Meta{Version: "t", Profile: result.ProfileRFC}, []result.Summary{{Name: "reference"}, {Name: "absent"}}, rs, nil)
}

// A parser that ran nothing is never reported as a pass: its summary
// says why, its badge is grey, JUnit has an error, the text says so.
func TestNotRunIsNoPass(t *testing.T) {
	d := notRunDoc()
	s := d.Parsers[1]
	if s.Conforms || !strings.Contains(s.NotRun, "all 3 checks were skipped: python3 is not installed") {
		t.Errorf("summary = %+v, want conforms false and a reason", s)
	}
	if d.Parsers[0].NotRun != "" || !d.Parsers[0].Conforms {
		t.Errorf("reference summary = %+v, want it to conform", d.Parsers[0])
	}
	if b := BadgeFor(d, "absent"); b.Message != "not run" || b.Color != "lightgrey" {
		t.Errorf("badge = %+v, want a grey \"not run\"", b)
	}
	if !d.ShouldFail() {
		t.Error("ShouldFail = false for a run with a parser that did not run")
	}
	var junit bytes.Buffer
	if err := JUnit(&junit, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), `<error message="not run: all 3 checks were skipped`) {
		t.Errorf("JUnit has no not-run error:\n%s", junit.String())
	}
	var text bytes.Buffer
	if err := Text(&text, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"NOT RUN", "absent did not run: all 3 checks were skipped"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var html bytes.Buffer
	if err := WriteHTML(&html, d, HTMLOptions{Table: builtin()}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "✗ not run") {
		t.Error("HTML overview does not say the parser did not run")
	}
	// A saved document read back judges the same.
	var js bytes.Buffer
	if err := d.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := result.ReadJSON(&js)
	if err != nil {
		t.Fatal(err)
	}
	back.Summarize()
	if back.Parsers[1].Conforms || back.Parsers[1].NotRun == "" {
		t.Errorf("after a JSON round trip: %+v", back.Parsers[1])
	}
}

// A parser that skipped every MUST check did not run, even though its
// SHOULD checks passed.
func TestNotRunOneLevel(t *testing.T) {
	rs := []result.Result{
		{Parser: "p", Case: "a", Level: result.MUST, Outcome: result.Skipped, Detail: "needs fetch"},
		{Parser: "p", Case: "b", Level: result.SHOULD, Outcome: result.Pass},
	}
	d := cases.NewDocument(result.Meta{Profile: result.ProfileRFC}, []result.Summary{{Name: "p"}}, rs, nil)
	if s := d.Parsers[0]; s.Conforms || s.NotRun != "the one MUST check was skipped: needs fetch" {
		t.Errorf("summary = %+v", s)
	}
}
