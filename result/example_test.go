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

// The shards of a run merge only when every one is there.
func ExampleCheckShards() {
	shard := func(k string, held int) *result.Document {
		return &result.Document{Tool: result.Tool, Selection: &result.Selection{Cases: 10, Shard: k, ShardCases: held}}
	}
	fmt.Println(result.CheckShards([]*result.Document{shard("1/3", 4), shard("3/3", 3)}))
	fmt.Println(result.CheckShards([]*result.Document{shard("1/3", 4), shard("2/3", 3), shard("3/3", 3)}))
	// Output:
	// result: the documents are not a whole run: missing shard 2/3
	// <nil>
}

// A parser's yes or no becomes a verdict.
func ExampleVerdictOf() {
	fmt.Println(result.VerdictOf(true), result.VerdictOf(false))
	// Output: allow disallow
}
