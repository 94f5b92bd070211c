package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// JUnit XML elements, as the common schema (Jenkins, GitLab, GitHub
// reporters) reads them: testsuites > testsuite > testcase, with counts.
type junitSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	// The common schema (Jenkins' junit-10.xsd) has no skipped count on
	// testsuites; each testsuite carries one.
	Skipped int          `xml:"-"`
	Time    string       `xml:"time,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties *junitProps     `xml:"properties,omitempty"`
	Cases      []junitTestCase `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProps struct {
	Props []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitTestCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// JUnit writes the document as JUnit XML: one testsuite per parser and
// one testcase per (parser, case, check), classname "parser.case".
// Violations (and deviations in a strict run) are failures carrying the
// expected and actual verdict, level, requirements and the reference's
// trace; errors are errors; skipped checks, and failures an
// expected-failure file lists, are skipped. Notes and non-strict
// deviations pass with the explanation in system-out.
func JUnit(w io.Writer, d *result.Document) error {
	root := junitRoot(d)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("report: writing JUnit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("report: writing JUnit: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("report: writing JUnit: %w", err)
	}
	return nil
}

// junitRoot builds the suites of the document, with their totals.
func junitRoot(d *result.Document) junitSuites {
	exp := d.ExpectedIndex()
	root := junitSuites{Name: "reptest " + visible(d.Profile, 40), Time: "0"}
	idx := map[string]int{}
	for _, p := range d.Parsers {
		idx[p.Name] = len(root.Suites)
		props := []junitProp{{"version", visible(p.Version, 200)}, {"profile", visible(d.Profile, 40)}}
		if p.Runtime != "" {
			props = append(props, junitProp{"runtime", visible(p.Runtime, 200)})
		}
		if d.Drafts != "" {
			props = append(props, junitProp{"drafts", visible(d.Drafts, 300)})
		}
		root.Suites = append(root.Suites, junitSuite{Name: visible(p.Name, 200), Time: "0",
			Properties: &junitProps{Props: props}})
	}
	for _, r := range d.Results {
		i, ok := idx[r.Parser]
		if !ok {
			i = len(root.Suites)
			idx[r.Parser] = i
			root.Suites = append(root.Suites, junitSuite{Name: visible(r.Parser, 200), Time: "0"})
		}
		root.Suites[i].add(junitCase(d, r, exp[keyOf(r)]))
	}
	for _, p := range d.Parsers {
		if p.NotRun == "" {
			continue
		}
		// A parser that did not run must not read as a suite of skips,
		// which JUnit consumers count as green.
		root.Suites[idx[p.Name]].add(junitTestCase{Name: "the parser ran", Classname: visible(p.Name, 200), Time: "0",
			Error: &junitProblem{Message: visible("not run: "+p.NotRun, 1000), Type: "not-run"}})
	}
	auditSuites(&root, idx, d.Audit)
	for _, s := range root.Suites {
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Errors += s.Errors
		root.Skipped += s.Skipped
	}
	return root
}

// add appends a test case and counts it by what it carries.
func (s *junitSuite) add(tc junitTestCase) {
	switch {
	case tc.Skipped != nil:
		s.Skipped++
	case tc.Error != nil:
		s.Errors++
	case tc.Failure != nil:
		s.Failures++
	}
	s.Tests++
	s.Cases = append(s.Cases, tc)
}

// junitCase is the test case of one result; m is its expected-failure
// mark, if any.
func junitCase(d *result.Document, r result.Result, m *result.ExpectedFailure) junitTestCase {
	tc := junitTestCase{
		Name:      fmt.Sprintf("check %d: %s %s", r.Check, visible(r.Agent, 200), visible(r.URL, 500)),
		Classname: visible(r.Parser, 200) + "." + visible(r.Case, 300),
		Time:      "0",
	}
	msg := checkMessage(d, r)
	switch {
	case r.Outcome == result.Skipped:
		tc.Skipped = &junitSkipped{Message: visible(r.Detail, 1000)}
	case r.Outcome.Fails(true) && m != nil:
		text := "expected failure: " + m.Reason
		if m.Link != "" {
			text += " " + m.Link
		}
		tc.Skipped = &junitSkipped{Message: visible(text, 1000)}
		tc.SystemOut = msg
	case r.Outcome == result.Error:
		tc.Error = &junitProblem{Message: headline(r), Type: "error", Text: msg}
	case r.Outcome.Fails(d.Strict):
		tc.Failure = &junitProblem{Message: headline(r), Type: string(r.Outcome), Text: msg}
	case r.Outcome != result.Pass:
		tc.SystemOut = msg
	}
	return tc
}

// headline is the one-line message of a failing check.
func headline(r result.Result) string {
	got := string(r.Verdict)
	if r.Outcome == result.Error {
		got = "an error"
	}
	return visible(fmt.Sprintf("%s: expected %s, got %s (%s %s)", r.Outcome, r.Expect, got, r.Level, strings.Join(r.Req, " ")), 500)
}

// checkMessage is the full explanation of a check's result.
func checkMessage(d *result.Document, r result.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "case: %s (check %d)\n", r.Case, r.Check)
	if r.Title != "" {
		fmt.Fprintf(&b, "title: %s\n", r.Title)
	}
	fmt.Fprintf(&b, "agent: %s\nurl: %s\n", r.Agent, r.URL)
	fmt.Fprintf(&b, "expected: %s", r.Expect)
	for _, a := range r.Accept {
		fmt.Fprintf(&b, " or %s", a)
	}
	fmt.Fprintf(&b, "\ngot: %s\noutcome: %s\nlevel: %s\nreq: %s\n", r.Verdict, r.Outcome, r.Level, strings.Join(r.Req, " "))
	if r.Step != "" {
		fmt.Fprintf(&b, "step: %s\n", r.Step)
	}
	trace := r.Trace
	ci := d.Cases[r.Case]
	if trace == "" && ci != nil && r.Check >= 0 && r.Check < len(ci.Checks) {
		trace = ci.Checks[r.Check].Trace
	}
	if trace != "" {
		fmt.Fprintf(&b, "reference: %s\n", trace)
	}
	if r.Detail != "" {
		fmt.Fprintf(&b, "detail: %s\n", clip(r.Detail, 4000))
	}
	if r.ParserDetail != "" {
		fmt.Fprintf(&b, "the parser says: %s\n", clip(r.ParserDetail, 4000))
	}
	if ci != nil && ci.Robots != nil {
		b.WriteString("robots.txt:\n")
		for n, l := range reference.SplitLines(string(ci.Robots.Bytes())) {
			if n == 60 {
				b.WriteString("  …\n")
				break
			}
			fmt.Fprintf(&b, "%4d | %s\n", n+1, l)
		}
	}
	// Each line is escaped on its own so that line breaks stay readable.
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = visible(l, 2000)
	}
	return strings.Join(lines, "\n")
}
