package diagnose_test

import (
	"context"
	"fmt"

	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

// A parser that takes the first matching rule, not the longest, is
// diagnosed as the reference with the misreading first-match.
func ExampleFit() {
	ev := &diagnose.Evidence{Parsers: []string{"firstbot-parser"}}
	for i, body := range []string{
		"User-agent: *\nDisallow: /\nAllow: /a\n",
		"User-agent: *\nDisallow: /b\nAllow: /b/c\n",
		"User-agent: *\nAllow: /d\nDisallow: /d/e\n",
		"User-agent: *\nDisallow: /f\nAllow: /f/g\n",
	} {
		ev.Bodies = append(ev.Bodies, diagnose.Body{Robots: []byte(body), Status: 200, Source: fmt.Sprint("file", i)})
	}
	ask := func(body int, url string, v result.Verdict) {
		ev.Questions = append(ev.Questions, diagnose.Question{Body: body, Agent: "FooBot",
			URL: "https://example.com" + url, Verdicts: []result.Verdict{v}})
	}
	ask(0, "/a", result.Disallow) // the reference allows: Allow: /a is longer
	ask(1, "/b/c", result.Disallow)
	ask(2, "/d/e", result.Allow)
	ask(3, "/f/g", result.Disallow)
	ask(3, "/x", result.Allow) // agrees with the reference
	ds, err := diagnose.Fit(context.Background(), ev)
	if err != nil {
		panic(err)
	}
	fmt.Println(report.DiagnosisLine(ds[0]))
	x := ds[0].Behaviours[0].Example
	fmt.Printf("%s%s %s: %s, the reference %s\n", x.Robots, x.Agent, x.URL, x.Verdict, x.Reference)
	// Output:
	// firstbot-parser ≈ reference + first-match (explains 4 of 4 departures; 0 unexplained)
	// User-agent: *
	// Disallow: /
	// Allow: /a
	// FooBot https://example.com/a: disallow, the reference allow
}
