package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const findingsJSONL = `{"robots_b64":"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLyoucGRmJAo=","agent":"FooBot","url":"https://example.com/a.pdf.pdf","verdicts":{"reference":"disallow","grobotstxt":"disallow","temoto":"allow"},"signature":"temoto≠reference","minimized":true,"req":["SPC-1"]}

{"robots_b64":"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLyoucGRmJAogIAo=","agent":"FooBot","url":"https://example.com/b.pdf.pdf","verdicts":{"reference":"disallow","grobotstxt":"disallow","temoto":"allow"},"signature":"temoto≠reference","req":["SPC-1","MATCH-4"],"extra":"ignored"}
{"robots_b64":"VXNlci1hZ2VudDogYQo=","agent":"A","url":"/x","verdicts":{"reference":"allow","grobotstxt":"disallow"}}
`

func TestReadAndGroupFindings(t *testing.T) {
	fs, err := ReadFindings(strings.NewReader(findingsJSONL))
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 3 {
		t.Fatalf("read %d findings, want 3", len(fs))
	}
	gs := GroupFindings(fs)
	type g struct {
		Sig   string
		Count int
		URL   string
		Sides []Side
		Req   []string
	}
	var got []g
	for _, x := range gs {
		got = append(got, g{x.Signature, x.Count, x.Example.URL, x.Sides, x.Req})
	}
	want := []g{
		{"temoto≠reference", 2, "https://example.com/a.pdf.pdf",
			[]Side{{"allow", []string{"temoto"}}, {"disallow", []string{"grobotstxt", "reference"}}}, []string{"MATCH-4", "SPC-1"}},
		// No signature: one is made from the verdict groups.
		{"reference≠grobotstxt", 1, "/x", []Side{{"allow", []string{"reference"}}, {"disallow", []string{"grobotstxt"}}}, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}

func TestReadFindingsErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not json", "{\n", "findings line 1"},
		{"no verdicts", `{"robots_b64":"","agent":"a","url":"/"}`, "no verdicts"},
		{"bad base64", `{"robots_b64":"!!","agent":"a","url":"/","verdicts":{"a":"allow"}}`, "robots_b64"},
		{"second line", "{\"robots_b64\":\"\",\"verdicts\":{\"a\":\"allow\"}}\n[1]\n", "findings line 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadFindings(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

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
		if got := requirementURL(id, ""); got != want {
			t.Errorf("requirementURL(%s) = %q, want %q", id, got, want)
		}
	}
	if got := requirementURL("UA-3", "javascript:alert(1)"); got != "https://www.rfc-editor.org/rfc/rfc9309#section-2.2.1" {
		t.Errorf("a bad section is used: %q", got)
	}
	ids := []string{"UA-10", "G-UA", "SYN-2", "UA-2", "EX-5.1", "MATCH-1", "ZZZ"}
	want := []string{"SYN-2", "UA-2", "UA-10", "MATCH-1", "EX-5.1", "G-UA", "ZZZ"}
	sorted := append([]string(nil), ids...)
	slices.SortFunc(sorted, compareReq)
	if diff := cmp.Diff(want, sorted); diff != "" {
		t.Errorf("requirement order (-want +got):\n%s", diff)
	}
}
