package expect_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/expect"
	"github.com/reptest/reptest/result"
)

// A run's failures start an expected-failure file.
func ExampleFor() {
	d := cases.NewDocument(result.Meta{Profile: result.ProfileRFC}, []result.Summary{{Name: "mybot"}}, []result.Result{
		{Parser: "mybot", Case: "pct/upper", Check: 1, Level: result.MUST, Expect: result.Disallow, Verdict: result.Allow, Outcome: result.Violation},
	}, nil)
	if err := expect.For(d).WriteYAML(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # Expected failures (reptest run --expect FILE). Replace each reason with
	// # why the parser fails, and add a link to the upstream bug.
	// mybot:
	//   - cases: [pct/upper]
	//     reason: 'check 1: violation, expected disallow, got allow'
}

// A team's file of known bugs marks the failures it lists as expected:
// they still show, but only new failures fail the run.
func ExampleFile_Expectations() {
	d := cases.NewDocument(result.Meta{Profile: result.ProfileRFC}, []result.Summary{{Name: "mybot"}}, []result.Result{
		{Parser: "mybot", Case: "pct/upper", Check: 1, Level: result.MUST, Expect: result.Disallow, Verdict: result.Allow, Outcome: result.Violation},
	}, nil)
	f, err := expect.Read(strings.NewReader("mybot:\n  - cases: [pct/*]\n    reason: percent-encoding is case-sensitive\n"), "known.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	d.MarkExpected(f.Expectations(), cases.Glob)
	fmt.Println(d.Expected[0].Case, d.Expected[0].Pattern, d.ShouldFail())
	// Output:
	// pct/upper pct/* false
}
