package diff

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/result"
)

// TestTagsDocTable checks that the table in Tags's doc comment is the one
// tagRules writes, so that the doc says what the code does. On a
// mismatch, paste the "+" lines into the comment.
func TestTagsDocTable(t *testing.T) {
	src, err := os.ReadFile("tags.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, ok := strings.Cut(string(src), "\nfunc Tags(")
	if !ok {
		t.Fatal("tags.go has no func Tags")
	}
	doc = doc[strings.LastIndex(doc, "// Tags returns"):]
	var table []string
	for _, line := range strings.SplitAfter(doc, "\n") {
		if strings.HasPrefix(line, "//\t") {
			table = append(table, line)
		}
	}
	if diff := cmp.Diff(strings.Join(table, ""), tagDocTable()); diff != "" {
		t.Errorf("Tags's doc table (-comment +tagRules):\n%s", diff)
	}
}

// TestTagsGroupsAsTheReference pins where Tags, which now reads groups
// through reference.Groups, differs from the group tracking it replaced:
// under the aipref profile a Content-Usage line is a rule (AIP-1), so a
// user-agent line after it starts a new group (SYN-6); and two groups whose values are not product
// tokens name nothing in common, so their rules are not compared as one
// group's (no MATCH-5). The reference wins: these are the groups it
// decides with.
func TestTagsGroupsAsTheReference(t *testing.T) {
	tests := []struct {
		name string
		in   result.Input
		want []string
	}{{
		name: "aipref: a Content-Usage line ends a run of user-agent lines",
		in:   result.Input{Robots: []byte("User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\n"), Agent: "a", URL: "http://h/x", Profile: "aipref"},
		want: []string{"OTH-3", "SYN-6", "SYN-7"},
	}, {
		name: "rfc9309: the same file is one group without rules",
		in:   result.Input{Robots: []byte("User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\n"), Agent: "a", URL: "http://h/x", Profile: "rfc9309"},
		want: []string{"OTH-3", "SYN-7"},
	}, {
		name: "values that are not tokens do not merge groups",
		in:   result.Input{Robots: []byte("User-agent: x y\nAllow: /p\nUser-agent: x y\nDisallow: /p\nUser-agent: *\nAllow: /\n"), Agent: "a", URL: "http://h/p", Profile: "rfc9309"},
		want: []string{"G-UA", "SYN-6", "UA-4", "UA-7"},
	}, {
		name: "tokens merge groups in any case",
		in:   result.Input{Robots: []byte("User-agent: a\nAllow: /p\nUser-agent: A\nDisallow: /p\n"), Agent: "a", URL: "http://h/p", Profile: "rfc9309"},
		want: []string{"MATCH-5", "SYN-6", "UA-2", "UA-3"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Tags(tt.in, nil)); diff != "" {
				t.Errorf("Tags (-want +got):\n%s", diff)
			}
		})
	}
}
