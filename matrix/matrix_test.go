package matrix

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/reference"
)

func TestExamplePath(t *testing.T) {
	for in, want := range map[string]string{
		"/go/": "/go/", "/*.pdf$": "/x.pdf", "*.gif$": "/x.gif", "/private*": "/private", "": "", "*": "/",
		"/a*b*c": "/axbxc", "/*?sid=": "/x?sid=", "$": "/",
	} {
		if got := examplePath(in); got != want {
			t.Errorf("examplePath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGroupsAsTheReference pins where Build, which now reads groups
// through reference.Groups, differs from the line walk it replaced: under
// the aipref options a Content-Usage line is a rule of its group (AIP-1),
// so a user-agent line after it starts a new group. The old walk put
// FooBot and "*" below in one group, so it saw "Disallow: /go/" in
// FooBot's group and gave no star-rules-not-inherited warning, though
// FooBot may fetch /go/ and others may not. The reference wins: it is how
// every cell was decided.
func TestGroupsAsTheReference(t *testing.T) {
	body := []byte("User-agent: FooBot\nContent-Usage: train-ai=n\nUser-agent: *\nDisallow: /go/\n")
	tests := []struct {
		opts   reference.Options
		groups int
		warned []string // agents warned about star-rules-not-inherited
	}{
		{reference.RFC(), 1, nil},
		{reference.AIPref(), 2, []string{"FooBot"}},
	}
	for _, tt := range tests {
		t.Run(tt.opts.Name, func(t *testing.T) {
			m, err := Build(body, Options{Options: tt.opts})
			if err != nil {
				t.Fatal(err)
			}
			var warned []string
			for _, w := range m.Warnings {
				if w.Kind == WarnStarNotInherited {
					warned = append(warned, w.Agent)
				}
			}
			if m.Groups != tt.groups {
				t.Errorf("groups = %d, want %d", m.Groups, tt.groups)
			}
			if diff := cmp.Diff(tt.warned, warned); diff != "" {
				t.Errorf("star-rules-not-inherited agents (-want +got):\n%s", diff)
			}
		})
	}
}
