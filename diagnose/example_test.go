package diagnose_test

import (
	"context"
	"fmt"

	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

// A parser that takes the first matching rule, not the longest, is
// diagnosed as the reference with the misreading first-match. Eight
// files show it, each beside questions the parser answers as the
// reference does: a few departures alone could agree with a misreading
// by chance (see ChanceLevel).
func ExampleFit() {
	ev := &diagnose.Evidence{Parsers: []string{"firstbot-parser"}}
	ask := func(body int, url string, v result.Verdict) {
		ev.Questions = append(ev.Questions, diagnose.Question{Body: body, Agent: "FooBot",
			URL: "https://example.com" + url, Verdicts: []result.Verdict{v}})
	}
	for i := range 8 {
		dir := fmt.Sprintf("/%c", 'a'+i)
		first, then, mine := "Disallow", "Allow", result.Disallow
		if i%2 == 1 {
			first, then, mine = then, first, result.Allow
		}
		body := fmt.Sprintf("User-agent: *\n%s: %s\n%s: %s/in\n", first, dir, then, dir)
		ev.Bodies = append(ev.Bodies, diagnose.Body{Robots: []byte(body), Status: 200, Source: fmt.Sprint("file", i)})
		// The parser reads the first rule, the reference the longer one.
		ask(i, dir+"/in", mine)
		// Where one rule matches, the two agree.
		ask(i, dir, mine)
		ask(i, dir+"/out", mine)
		ask(i, "/zzz", result.Allow)
		ask(i, "/", result.Allow)
	}
	ds, err := diagnose.Fit(context.Background(), ev)
	if err != nil {
		panic(err)
	}
	fmt.Println(report.DiagnosisLine(ds[0]))
	x := ds[0].Behaviours[0].Example
	fmt.Printf("%s%s %s: %s, the reference %s\n", x.Robots, x.Agent, x.URL, x.Verdict, x.Reference)
	// Output:
	// firstbot-parser ≈ reference + first-match (explains 8 of 8 departures; 0 unexplained)
	// User-agent: *
	// Disallow: /a
	// Allow: /a/in
	// FooBot https://example.com/a/in: disallow, the reference allow
}
