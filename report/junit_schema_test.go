package report

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// junitSchema is our description of the common JUnit XML layout.
const junitSchema = "testdata/junit.xsd"

// xmllint validates file against the JUnit schema and returns xmllint's
// combined output and exit code. The test is skipped when xmllint is not
// installed.
func xmllint(t *testing.T, file string) (string, int) {
	t.Helper()
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not found: install Debian package libxml2-utils")
	}
	schema, err := filepath.Abs(junitSchema)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(t.Context(), bin, "--noout", "--schema", schema, file).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	t.Fatalf("running xmllint: %v\n%s", err, out)
	return "", -1
}

// writeTemp writes b to a new file in the test's temporary directory.
func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// noteDoc is the fixture run with one more check a parser answers with
// a verdict the case accepts, so that it holds a note as well.
func noteDoc() *result.Document {
	d := fixtureDoc()
	r := d.Results[0]
	r.Parser, r.Check = "grobotstxt", 7
	r.Expect, r.Accept, r.Verdict = result.Disallow, []result.Verdict{result.Allow}, result.Allow
	r.Outcome = result.OutcomeOf(r.Level, r.Expect, r.Accept, r.Verdict)
	d.Results = append(d.Results, r)
	d.Summarize()
	return d
}

// strictExpectedDoc is the fixture run judged strictly, with temoto's
// merge failures listed as expected.
func strictExpectedDoc(t *testing.T) *result.Document {
	t.Helper()
	d := fixtureDoc()
	d.Strict = true
	d.Summarize()
	d.MarkExpected([]result.Expectation{{Parser: "temoto", Cases: []string{"merge/*"}, Reason: "known ]]> <x>"}}, cases.Glob)
	return d
}

// nastyDoc is hostileDoc with control characters, a CDATA terminator and
// invalid UTF-8 in the agent, URL, trace and robots.txt text as well.
func nastyDoc() *result.Document {
	d := hostileDoc()
	bad := "\x00\x01\x08\x0b\x0c\x1f ]]> ]]]]>< \xff\xfe\xc3 \xed\xa0\x80 \uFFFE \r\t"
	for i := range d.Results {
		r := &d.Results[i]
		r.Agent = bad + r.Agent
		r.URL = "https://example.com/" + bad + r.URL
		r.Trace = bad + r.Trace
		r.Detail = bad + r.Detail
	}
	for _, c := range d.Cases {
		for i := range c.Checks {
			c.Checks[i].Trace = bad
		}
		if c.Robots != nil {
			c.Robots.Text = bad + "\n" + c.Robots.Text
		}
	}
	d.Parsers[0].Version = bad
	d.Profile = bad
	return d
}

func TestJUnitValidatesAgainstSchema(t *testing.T) {
	docs := []struct {
		name string
		doc  *result.Document
	}{
		{"fixture", noteDoc()},
		{"strict-expected", strictExpectedDoc(t)},
		{"hostile", nastyDoc()},
		{"not-run", notRunDoc()},
	}
	// The documents between them hold every outcome and an expected
	// failure, so that every JUnit element the renderer writes is checked.
	seen := map[result.Outcome]bool{}
	expected := 0
	var all bytes.Buffer
	for _, c := range docs {
		for _, r := range c.doc.Results {
			seen[r.Outcome] = true
		}
		expected += len(c.doc.Expected)
		var buf bytes.Buffer
		if err := JUnit(&buf, c.doc); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		all.Write(buf.Bytes())
		file := writeTemp(t, c.name+".xml", buf.Bytes())
		out, code := xmllint(t, file)
		if code != 0 {
			t.Errorf("%s: JUnit output does not validate against %s (xmllint exit %d):\n%s", c.name, junitSchema, code, out)
		} else {
			t.Logf("%s: %s", c.name, strings.TrimSpace(out))
		}
	}
	for _, o := range []result.Outcome{result.Pass, result.Note, result.Deviation, result.Violation, result.Error, result.Skipped} {
		if !seen[o] {
			t.Errorf("no %s result among the documents", o)
		}
	}
	if expected == 0 {
		t.Error("no expected failure among the documents")
	}
	for _, el := range []string{"<properties>", "<property ", "<failure ", "<error ", "<skipped ", "<system-out>"} {
		if !strings.Contains(all.String(), el) {
			t.Errorf("no %s element in the rendered documents", el)
		}
	}
}

// TestJUnitSchemaRejects makes sure the schema check can fail: documents
// that break the layout are refused.
func TestJUnitSchemaRejects(t *testing.T) {
	const head = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	for _, c := range []struct{ name, xml string }{
		{"testcase-outside-testsuite", `<testsuites><testcase name="a" classname="p.c" time="0"></testcase></testsuites>`},
		{"testcase-as-root", `<testcase name="a"></testcase>`},
		{"testsuite-without-name", `<testsuites><testsuite tests="0"></testsuite></testsuites>`},
		{"count-not-a-number", `<testsuites><testsuite name="s" tests="many"></testsuite></testsuites>`},
		{"properties-after-testcase", `<testsuites><testsuite name="s" tests="1"><testcase name="a"></testcase><properties></properties></testsuite></testsuites>`},
		{"failure-with-child", `<testsuites><testsuite name="s" tests="1"><testcase name="a"><failure message="m"><b>x</b></failure></testcase></testsuite></testsuites>`},
		{"unknown-element", `<testsuites><testsuite name="s" tests="1"><testcase name="a"><flaky/></testcase></testsuite></testsuites>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := writeTemp(t, "broken.xml", []byte(head+c.xml+"\n"))
			out, code := xmllint(t, file)
			// Exit code 3 is a validation error; anything else would mean
			// the schema or the file could not be read at all.
			if code != 3 {
				t.Errorf("xmllint exit %d, want 3 (fails to validate):\n%s", code, out)
			}
		})
	}
}
