package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reptest/reptest/result"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
)

func TestJUnit(t *testing.T) {
	d := fixtureDoc()
	var buf bytes.Buffer
	if err := JUnit(&buf, d); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("output is not XML: %v", err)
	}
	type counts struct{ Tests, Failures, Errors, Skipped int }
	per := map[string]counts{}
	for _, s := range got.Suites {
		c := counts{s.Tests, s.Failures, s.Errors, s.Skipped}
		// The counts agree with the test cases.
		var n counts
		for _, tc := range s.Cases {
			n.Tests++
			if tc.Failure != nil {
				n.Failures++
			}
			if tc.Error != nil {
				n.Errors++
			}
			if tc.Skipped != nil {
				n.Skipped++
			}
			if !strings.HasPrefix(tc.Classname, s.Name+".") {
				t.Errorf("classname %q does not start with the parser", tc.Classname)
			}
		}
		if n != c {
			t.Errorf("suite %s declares %+v, holds %+v", s.Name, c, n)
		}
		per[s.Name] = c
	}
	want := map[string]counts{
		"reference":  {10, 0, 0, 0},
		"temoto":     {10, 1, 1, 4},
		"grobotstxt": {10, 1, 0, 2},
	}
	if diff := cmp.Diff(want, per); diff != "" {
		t.Errorf("suite counts (-want +got):\n%s", diff)
	}
	if got.Tests != 30 || got.Failures != 2 || got.Errors != 1 {
		t.Errorf("testsuites counts = %d/%d/%d", got.Tests, got.Failures, got.Errors)
	}
	// A failure carries what a person needs.
	var fail *junitProblem
	for _, s := range got.Suites {
		for _, tc := range s.Cases {
			if s.Name == "temoto" && tc.Failure != nil {
				fail = tc.Failure
			}
		}
	}
	if fail == nil {
		t.Fatal("no failure for temoto")
	}
	for _, want := range []string{"expected disallow, got allow", "MUST", "UA-3"} {
		if !strings.Contains(fail.Message, want) {
			t.Errorf("failure message %q lacks %q", fail.Message, want)
		}
	}
	for _, want := range []string{"agent: ExampleBot", "url: https://example.com/baz", "reference: disallow", "line 8", "8 | Disallow: /baz"} {
		if !strings.Contains(fail.Text, want) {
			t.Errorf("failure text lacks %q:\n%s", want, fail.Text)
		}
	}
}

func TestJUnitExpectedAndStrict(t *testing.T) {
	d := fixtureDoc()
	d.Strict = true
	d.Summarize()
	d.MarkExpected([]result.Expectation{{Parser: "temoto", Cases: []string{"merge/*"}, Reason: "known"}}, cases.Glob)
	var buf bytes.Buffer
	if err := JUnit(&buf, d); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Suites {
		if s.Name != "temoto" {
			continue
		}
		// The violation is expected (skipped), the deviation fails in a
		// strict run, the error stays.
		if s.Failures != 1 || s.Errors != 1 || s.Skipped != 5 {
			t.Errorf("temoto: failures %d errors %d skipped %d, want 1 1 5", s.Failures, s.Errors, s.Skipped)
		}
	}
	if !strings.Contains(buf.String(), `message="expected failure: known"`) {
		t.Errorf("expected failure not marked")
	}
}

// TestJUnitParserDetail checks that a parser's own reason for a reject
// reaches the failure's text.
func TestJUnitParserDetail(t *testing.T) {
	rs := []result.Result{{Case: "t/one", Parser: "mybot", Agent: "FooBot", URL: "https://example.com/x",
		Expect: result.Allow, Verdict: result.Reject, Outcome: result.Violation, Level: result.MUST, Req: []string{"SYN-1"},
		ParserDetail: "line 1: no colon"}}
	d := cases.NewDocument(result.Meta{Version: "0.1.0", Profile: result.ProfileRFC}, []result.Summary{{Name: "mybot"}}, rs, nil)
	var buf bytes.Buffer
	if err := JUnit(&buf, d); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	f := got.Suites[0].Cases[0].Failure
	if f == nil || !strings.Contains(f.Text, "the parser says: line 1: no colon") {
		t.Errorf("failure %+v does not carry the parser's detail", f)
	}
}

func TestJUnitEscapes(t *testing.T) {
	d := hostileDoc()
	var buf bytes.Buffer
	if err := JUnit(&buf, d); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("hostile input breaks the XML: %v", err)
	}
	for _, r := range buf.String() {
		if r == '\u202E' || r == 0x1b || r == 0 {
			t.Fatalf("raw %U in JUnit output", r)
		}
	}
	if s := got.Suites[0]; got.Tests != 2 || got.Failures != 0 || got.Errors != 1 || s.Skipped != 1 {
		t.Errorf("counts %d/%d/%d/%d, want 2/0/1/1 (the violation is expected)", got.Tests, got.Failures, got.Errors, s.Skipped)
	}
}

func TestBadges(t *testing.T) {
	d := fixtureDoc()
	dir := t.TempDir()
	files, err := WriteBadges(dir, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("wrote %d badges, want 3", len(files))
	}
	want := map[string]Badge{
		"reference.json":  {1, "RFC 9309", "6/6 MUST", "brightgreen"},
		"temoto.json":     {1, "RFC 9309", "3/5 MUST", "red"},
		"grobotstxt.json": {1, "RFC 9309", "3/4 MUST", "red"},
	}
	for name, w := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var got Badge
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got != w {
			t.Errorf("%s = %+v, want %+v", name, got, w)
		}
	}
	if got := BadgeFile("../evil/\u202E x"); got != ".._evil___x.json" {
		t.Errorf("BadgeFile = %q", got)
	}
	if got := BadgeFile(".."); got != "_...json" {
		t.Errorf("BadgeFile(..) = %q", got)
	}
}
