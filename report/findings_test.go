package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSegments(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  []seg
		more  int
	}{
		{"plain", 0, []seg{{Text: "plain"}}, 0},
		{"a\u202Eb", 0, []seg{{Text: "a"}, {Text: `\u202e`, Escaped: true}, {Text: "b"}}, 0},
		{"\t\xff\x00", 0, []seg{{Text: `\t`, Escaped: true}, {Text: `\xff`, Escaped: true}, {Text: `\x00`, Escaped: true}}, 0},
		{"\U000E0041", 0, []seg{{Text: `\U000e0041`, Escaped: true}}, 0},
		{"héllo", 2, []seg{{Text: "h"}}, 5}, // never cuts a character in two
		{"ツ", 0, []seg{{Text: "ツ"}}, 0},
	}
	for _, tc := range tests {
		got, more := segments(tc.in, tc.limit)
		if diff := cmp.Diff(tc.want, got); diff != "" || more != tc.more {
			t.Errorf("segments(%q, %d): more %d (want %d), segs (-want +got):\n%s", tc.in, tc.limit, more, tc.more, diff)
		}
	}
	if got := visible("a\nb\x1b", 0); got != `a\nb\x1b` {
		t.Errorf("visible = %q", got)
	}
	if got := visible(strings.Repeat("x", 10), 4); got != "xxxx… (6 more bytes)" {
		t.Errorf("visible cut = %q", got)
	}
}

func TestRequirementSections(t *testing.T) {
	for id, want := range map[string]string{
		"UA-3": "https://www.rfc-editor.org/rfc/rfc9309#section-2.2.1", "ACC-7": "https://www.rfc-editor.org/rfc/rfc9309#section-2.3.1.4",
		"EX-5.2": "https://www.rfc-editor.org/rfc/rfc9309#section-5.2", "G-429": googleDoc, "XYZ-1": "",
	} {
		if got := requirementURL(id); got != want {
			t.Errorf("requirementURL(%s) = %q, want %q", id, got, want)
		}
	}
	// SYN-7 and SYN-8 linked to §2.1 through report's own section table
	// and to §2.2 in corpus/requirements.yaml; the table is now the one
	// source, and says §2.1, where RFC 9309 defines a group (and that the
	// last group may have no rules).
	for _, id := range []string{"SYN-6", "SYN-7", "SYN-8"} {
		if got, want := requirementURL(id), SectionURL("2.1"); got != want {
			t.Errorf("requirementURL(%s) = %q, want %q", id, got, want)
		}
	}
	ids := []string{"UA-10", "G-UA", "SYN-2", "UA-2", "EX-5.1", "MATCH-1", "ZZZ"}
	want := []string{"SYN-2", "UA-2", "UA-10", "MATCH-1", "EX-5.1", "G-UA", "ZZZ"}
	sorted := append([]string(nil), ids...)
	slices.SortFunc(sorted, compareReq)
	if diff := cmp.Diff(want, sorted); diff != "" {
		t.Errorf("requirement order (-want +got):\n%s", diff)
	}
}
