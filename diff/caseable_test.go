package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCaseableInput(t *testing.T) {
	tests := []struct{ in, want Input }{
		{Input{Agent: "FooBot", URL: "https://a.test/x"}, Input{Agent: "FooBot", URL: "https://a.test/x"}},
		{Input{Agent: "Foo Bot/2", URL: "/x?y"}, Input{Agent: "FooBot", URL: "https://example.com/x?y"}},
		{Input{Agent: "0", URL: "x"}, Input{Agent: "FooBot", URL: "https://example.com/x"}},
		{Input{Agent: "", URL: ""}, Input{Agent: "FooBot", URL: "https://example.com/"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, CaseableInput(tt.in)); diff != "" {
			t.Errorf("CaseableInput(%+v) (-want +got):\n%s", tt.in, diff)
		}
	}
}
