package cases

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/result"
)

func TestHarnessReports(t *testing.T) {
	cs := []Case{
		{ID: "a", Robots: []byte("User-agent: *\n"), Checks: []Check{{Agent: "x", URL: "/1"}, {Agent: "x", URL: "/2"}}},
		{ID: "b", Fetch: []Response{{URL: "http://a.test/robots.txt", Status: 503}}, Checks: []Check{{Agent: "x", URL: "/"}}},
		{ID: "c", Robots: []byte(""), Checks: []Check{{Agent: "x", URL: "/"}, {Agent: "x", URL: "/"}}},
	}
	results := []result.Result{
		{Case: "a", Check: 0, Outcome: result.Pass},
		{Case: "a", Check: 1, Outcome: result.Violation},
		{Case: "b", Check: 0, Outcome: result.Skipped, Detail: "needs fetch"},
		{Case: "c", Check: 0, Outcome: result.Deviation},
		{Case: "c", Check: 1, Outcome: result.Note},
	}
	type summary struct {
		ID             string
		Failures, Logs int
		Skip           string
	}
	sum := func(rs []CaseReport) []summary {
		var out []summary
		for _, r := range rs {
			out = append(out, summary{r.ID, len(r.Failures), len(r.Logs), r.Skip})
		}
		return out
	}
	for _, tt := range []struct {
		strict bool
		want   []summary
	}{
		{false, []summary{{"a", 1, 0, ""}, {"b", 0, 0, "needs fetch"}, {"c", 0, 2, ""}}},
		{true, []summary{{"a", 1, 0, ""}, {"b", 0, 0, "needs fetch"}, {"c", 1, 1, ""}}},
	} {
		got := harnessReports(cs, results, tt.strict)
		if diff := cmp.Diff(tt.want, sum(got)); diff != "" {
			t.Errorf("strict %v (-want +got):\n%s", tt.strict, diff)
		}
	}
}

// A parser that skipped every check, or every check of one level, did
// not run: the harness says so (and fails), whatever else passed.
func TestHarnessNotRun(t *testing.T) {
	info := result.Info{Name: "p", Capabilities: []result.Capability{result.CapParse}}
	r := func(lv result.Level, o result.Outcome) result.Result {
		return result.Result{Parser: "p", Level: lv, Outcome: o, Detail: map[result.Outcome]string{result.Skipped: "needs fetch"}[o]}
	}
	for _, tt := range []struct {
		name    string
		results []result.Result
		want    string // in the message; "" for none
	}{
		{"ran", []result.Result{r(result.MUST, result.Pass), r(result.MUST, result.Skipped), r(result.MAY, result.Pass)}, ""},
		{"nothing", nil, "no check was run"},
		{"all skipped", []result.Result{r(result.MUST, result.Skipped), r(result.MAY, result.Skipped)}, "all 2 checks were skipped: needs fetch"},
		{"every MUST skipped", []result.Result{r(result.MUST, result.Skipped), r(result.MUST, result.Skipped), r(result.MAY, result.Pass)}, "all 2 MUST checks were skipped: needs fetch"},
	} {
		got := notRun(info, tt.results, false)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s: notRun = %q, want it to say %q", tt.name, got, tt.want)
		}
	}
}

func TestDescribeResult(t *testing.T) {
	c := &Case{ID: "x", Robots: []byte("User-agent: *\rDisallow: /a\x00b\r\n# end\n"),
		Checks: []Check{{Agent: "FooBot", URL: "https://example.com/a", Source: "f.yaml:9"}}}
	r := result.Result{Case: "x", Outcome: result.Violation, Level: result.MUST, Req: []string{"SYN-9"}, Agent: "FooBot",
		URL: "https://example.com/a", Expect: result.Disallow, Verdict: result.Allow, Trace: "allow \"/a\": no matching rule \"/a\xffb\x00\""}
	got := describeResult(c, r)
	for _, want := range []string{
		`violation (MUST SYN-9): agent "FooBot" url "https://example.com/a": want disallow, got allow`,
		"check: f.yaml:9",
		`reference: allow "/a": no matching rule "/a\xffb\x00"`, // the trace is escaped as the file is
		"   1| User-agent: *",
		`   2| Disallow: /a\x00b`, // a NUL is escaped (package visible), not written
		"   3| # end",             // CR, CRLF and LF each end a line
	} {
		if !strings.Contains(got, want) {
			t.Errorf("describeResult lacks %q:\n%s", want, got)
		}
	}
	if strings.ContainsRune(got, 0) || strings.Contains(got, "\xff") {
		t.Errorf("describeResult wrote a NUL or 0xFF byte:\n%q", got)
	}
	c = &Case{ID: "h", Fetch: []Response{{URL: "http://a.test/robots.txt", Status: 301, Headers: map[string]string{"Location": "/r"}}}}
	r = result.Result{Case: "h", Outcome: result.Error, Detail: "boom\nstderr: x"}
	got = describeResult(c, r)
	for _, want := range []string{"served:", "http://a.test/robots.txt → 301, Location: /r", "boom\n  stderr: x"} {
		if !strings.Contains(got, want) {
			t.Errorf("describeResult lacks %q:\n%s", want, got)
		}
	}
}
