package result_test

import (
	"fmt"

	"github.com/reptest/reptest/result"
)

// A parser that skipped every MUST check did not run, whatever it passed.
func ExampleSummarize() {
	results := []result.Result{
		{Parser: "mybot", Case: "a", Level: result.MUST, Outcome: result.Skipped, Detail: "the parser takes no fetch requests"},
		{Parser: "mybot", Case: "b", Level: result.MAY, Outcome: result.Pass},
	}
	s := result.Summarize(result.Summary{Name: "mybot"}, results, false)
	fmt.Println(s.Conforms)
	fmt.Println(s.NotRun)
	// Output:
	// false
	// the one MUST check was skipped: the parser takes no fetch requests
}
