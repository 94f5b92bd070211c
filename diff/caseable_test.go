package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/result"
)

func TestCaseableInput(t *testing.T) {
	tests := []struct{ in, want result.Input }{
		{result.Input{Agent: "FooBot", URL: "https://a.test/x"}, result.Input{Agent: "FooBot", URL: "https://a.test/x"}},
		{result.Input{Agent: "Foo Bot/2", URL: "/x?y"}, result.Input{Agent: "FooBot", URL: "https://example.com/x?y"}},
		{result.Input{Agent: "0", URL: "x"}, result.Input{Agent: "FooBot", URL: "https://example.com/x"}},
		{result.Input{Agent: "", URL: ""}, result.Input{Agent: "FooBot", URL: "https://example.com/"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, CaseableInput(tt.in)); diff != "" {
			t.Errorf("CaseableInput(%+v) (-want +got):\n%s", tt.in, diff)
		}
	}
}
