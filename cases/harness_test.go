package cases_test

import (
	"context"
	"fmt"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// myParser is what a parser author would test: here, the reference.
type myParser struct{}

func (myParser) Info() result.Info {
	return result.Info{Name: "my-parser", Version: "1.0", Capabilities: []result.Capability{result.CapParse}}
}

func (myParser) Check(_ context.Context, req cases.Request) (result.Verdict, error) {
	ok, err := reference.Parse(req.Robots, reference.RFC()).Allowed(req.Agent, req.URL)
	if err != nil {
		return "", err
	}
	if ok {
		return result.Allow, nil
	}
	return result.Disallow, nil
}

// A parser author calls casetest.Test from a test of their own:
//
//	func TestRFC9309(t *testing.T) {
//		casetest.Test(t, myParser{}, cases.SuiteOptions{Levels: []result.Level{result.MUST}})
//	}
//
// Outside a test, Run gives the same outcomes as data.
func ExampleRun() {
	cs := []cases.Case{{
		ID: "example/longest-match", Req: []string{"MATCH-4"}, Level: result.MUST, Profile: result.ProfileRFC,
		Robots: []byte("User-agent: *\nDisallow: /a\nAllow: /a/b\n"),
		Checks: []cases.Check{
			{Agent: "FooBot", URL: "https://example.com/a/b", Expect: result.Allow},
			{Agent: "FooBot", URL: "https://example.com/a/c", Expect: result.Disallow},
		},
	}}
	rep, err := cases.Run(context.Background(), cs, []cases.Parser{myParser{}}, cases.RunOptions{})
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Results {
		fmt.Println(r.URL, r.Verdict, r.Outcome)
	}
	s := rep.Summaries[0]
	fmt.Println(s.Name, "conforms:", s.Conforms)
	// Output:
	// https://example.com/a/b allow pass
	// https://example.com/a/c disallow pass
	// my-parser conforms: true
}
