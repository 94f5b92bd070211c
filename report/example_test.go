package report_test

import (
	"fmt"
	"os"

	"github.com/reptest/reptest/result"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/report"
)

// The runner builds the document of a run and prints the terminal
// summary; the same document renders as JSON, HTML, JUnit and badges.
func ExampleText() {
	results := []result.Result{
		{Case: "ua/star-fallback", Check: 0, Parser: "mybot", Agent: "FooBot", URL: "https://example.com/x",
			Expect: result.Disallow, Verdict: result.Disallow, Outcome: result.Pass, Level: result.MUST, Req: []string{"UA-4"}},
		{Case: "match/tie", Check: 0, Parser: "mybot", Agent: "FooBot", URL: "https://example.com/page",
			Expect: result.Allow, Verdict: result.Disallow, Outcome: result.Deviation, Level: result.SHOULD, Req: []string{"MATCH-5"}},
	}
	doc := cases.NewDocument(result.Meta{Version: "0.1.0", Profile: result.ProfileRFC},
		[]result.Summary{{Name: "mybot", Version: "1.0"}}, results, nil)
	if err := report.Text(os.Stdout, doc, report.TextOptions{}); err != nil {
		fmt.Println(err)
	}
	fmt.Println(report.BadgeFor(doc, "mybot").Message)
	// Output:
	// reptest 0.1.0  profile rfc9309, 2 results
	//
	// parser  version      checks   pass  note   dev  viol   err  skip  conforms
	// mybot   1.0               2      1     0     1     0     0     0  yes
	//
	// 1 failing check (deviations, violations, errors); run with -v to list each.
	// 1/1 MUST
}
