package cases_test

import (
	"context"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// myParser is what a parser author would test: here, the reference.
type myParser struct{}

func (myParser) Info() cases.Info {
	return cases.Info{Name: "my-parser", Version: "1.0", Capabilities: []cases.Capability{cases.CapParse}}
}

func (myParser) Check(_ context.Context, req cases.Request) (cases.Verdict, error) {
	ok, err := reference.Parse(req.Robots, reference.RFC()).Allowed(req.Agent, req.URL)
	if err != nil {
		return "", err
	}
	if ok {
		return cases.Allow, nil
	}
	return cases.Disallow, nil
}

// The harness passes a conforming parse-only parser over the embedded
// corpus (HTTP and timeline cases are skipped for it).
func TestHarness(t *testing.T) {
	cases.Test(t, myParser{}, cases.TestOptions{})
}

// A parser author calls cases.Test from a test of their own.
func ExampleTest() {
	// In your parser's package:
	//
	//	func TestRFC9309(t *testing.T) {
	//		cases.Test(t, myParser{}, cases.TestOptions{Levels: []cases.Level{cases.MUST}})
	//	}
}
