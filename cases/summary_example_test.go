package cases_test

import (
	"fmt"
	"testing/fstest"

	"github.com/reptest/reptest/cases"
)

// A parser that skipped every MUST check did not run, whatever it passed.
func ExampleSummarize() {
	results := []cases.Result{
		{Parser: "mybot", Case: "a", Level: cases.MUST, Outcome: cases.Skipped, Detail: "the parser takes no fetch requests"},
		{Parser: "mybot", Case: "b", Level: cases.MAY, Outcome: cases.Pass},
	}
	s := cases.Summarize(cases.Summary{Name: "mybot"}, results, false)
	fmt.Println(s.Conforms)
	fmt.Println(s.NotRun)
	// Output:
	// false
	// the one MUST check was skipped: the parser takes no fetch requests
}

// The embedded corpus and a team's own cases load together; a file the
// loader skips is reported through Warn.
func ExampleLoader() {
	mine := cases.Source{Name: "mycases", FS: fstest.MapFS{
		"regressions.yaml": {Data: []byte("cases:\n  - id: mine/empty-disallow\n    req: [MATCH-1]\n    robots: \"User-agent: *\\nDisallow:\\n\"\n    checks:\n      - {agent: FooBot, url: /x, expect: allow}\n")},
	}}
	ld := cases.Loader{Warn: func(e *cases.LoadError) { fmt.Println("warning:", e) }}
	cs, err := ld.Load(cases.EmbeddedSource(), mine)
	if err != nil {
		fmt.Println(err)
		return
	}
	last := cs[len(cs)-1]
	fmt.Println(last.ID, last.Source)
	// Output:
	// mine/empty-disallow mycases/regressions.yaml:2
}
