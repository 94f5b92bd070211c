package cases_test

import (
	"fmt"
	"testing/fstest"

	"github.com/reptest/reptest/cases"
)

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
