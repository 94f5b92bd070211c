package expect

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/result"
)

const expectYAML = `# known bugs
temoto:
  - cases: [merge/two-groups-*]
    reason: groups naming the same agent are not merged
    link: https://github.com/temoto/robotstxt/issues/1
  - case: http/*
    cases: [http/a]
    reason: fetch errors
  - case: syn/comment
    reason: was broken once
grobotstxt:
  - cases: [no/such/case]
    reason: stale entry
`

// The file's entries come out by parser name, then in file order, with
// "case" and "cases" joined.
func TestExpectations(t *testing.T) {
	f, err := Read(strings.NewReader(expectYAML), "expect.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []result.Expectation{
		{Parser: "grobotstxt", Cases: []string{"no/such/case"}, Reason: "stale entry"},
		{Parser: "temoto", Cases: []string{"merge/two-groups-*"}, Reason: "groups naming the same agent are not merged", Link: "https://github.com/temoto/robotstxt/issues/1"},
		{Parser: "temoto", Cases: []string{"http/*", "http/a"}, Reason: "fetch errors"},
		{Parser: "temoto", Cases: []string{"syn/comment"}, Reason: "was broken once"},
	}
	if diff := cmp.Diff(want, f.Expectations()); diff != "" {
		t.Errorf("Expectations (-want +got):\n%s", diff)
	}
	if line := f.Parsers["temoto"][1].Line; line != 6 {
		t.Errorf("second temoto entry at line %d, want 6", line)
	}
}

func TestReadErrors(t *testing.T) {
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
			_, err := Read(strings.NewReader(tc.in), "expect.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
	e, err := Read(strings.NewReader(""), "empty.yaml")
	if err != nil || len(e.Parsers) != 0 {
		t.Errorf("empty file: %v, %v", e, err)
	}
}
