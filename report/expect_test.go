package report

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const expectYAML = `# known bugs
temoto:
  - cases: [merge/two-groups-*]
    reason: groups naming the same agent are not merged
    link: https://github.com/temoto/robotstxt/issues/1
  - case: http/*
    reason: fetch errors
  - case: syn/comment
    reason: was broken once
grobotstxt:
  - cases: [no/such/case]
    reason: stale entry
`

func TestApplyExpectations(t *testing.T) {
	e, err := ReadExpectations(strings.NewReader(expectYAML), "expect.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := fixtureDoc()
	if !d.ShouldFail() {
		t.Fatal("fixture run should fail before expectations")
	}
	ApplyExpectations(d, e)

	var marked []string
	for _, x := range d.Expected {
		marked = append(marked, x.Parser+" "+x.Case+" "+x.Pattern)
	}
	want := []string{
		"temoto http/redirect-cross-host http/*",
		"temoto merge/two-groups-same-agent merge/two-groups-*",
	}
	if diff := cmp.Diff(want, marked); diff != "" {
		t.Errorf("expected failures (-want +got):\n%s", diff)
	}
	// Outcomes are kept.
	for _, r := range d.Results {
		if r.Parser == "temoto" && r.Case == "merge/two-groups-same-agent" && r.Check == 0 && r.Outcome != "violation" {
			t.Errorf("outcome changed to %s", r.Outcome)
		}
	}
	var un []string
	for _, u := range d.Unexpected {
		un = append(un, u.Parser+" "+strings.Join(u.Cases, ",")+" "+strconv.Itoa(u.Matched))
	}
	if diff := cmp.Diff([]string{"grobotstxt no/such/case 0", "temoto syn/comment 1"}, un); diff != "" {
		t.Errorf("unexpected passes (-want +got):\n%s", diff)
	}
	// grobotstxt's violation is new, so the run still fails.
	var news []string
	for _, r := range d.NewFailures() {
		news = append(news, r.Parser+" "+r.Case)
	}
	if diff := cmp.Diff([]string{"grobotstxt merge/two-groups-same-agent"}, news); diff != "" {
		t.Errorf("new failures (-want +got):\n%s", diff)
	}
	if !d.ShouldFail() {
		t.Error("run with a new failure should fail")
	}
	e.Parsers["grobotstxt"] = append(e.Parsers["grobotstxt"], ExpectEntry{Case: "merge/*", Reason: "reject on unknown"})
	ApplyExpectations(d, e)
	if d.ShouldFail() {
		t.Errorf("run fails with every failure expected: %v", d.NewFailures())
	}
}

func TestReadExpectationsErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"unknown key", "temoto:\n  - cases: [a]\n    reason: r\n    bug: 1\n", `expect.yaml:4:5: unknown key "bug" in an entry`},
		{"no reason", "temoto:\n  - cases: [a]\n", "entry has no reason"},
		{"no case", "temoto:\n  - reason: r\n", "names no case"},
		{"bad link", "temoto:\n  - {case: a, reason: r, link: 'javascript:alert(1)'}\n", "not an http or https URL"},
		{"not a list", "temoto: a\n", "expected a list of entries"},
		{"not a map", "- a\n", "expected a mapping"},
		{"duplicate parser", "temoto: []\ntemoto: []\n", "appears twice"},
		{"bad yaml", "temoto: [\n", "expect.yaml"},
		{"empty pattern", "temoto:\n  - {cases: [' '], reason: r}\n", "empty case pattern"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadExpectations(strings.NewReader(tc.in), "expect.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
	e, err := ReadExpectations(strings.NewReader(""), "empty.yaml")
	if err != nil || len(e.Parsers) != 0 {
		t.Errorf("empty file: %v, %v", e, err)
	}
}
