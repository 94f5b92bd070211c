package parsers

import (
	"context"
	"strings"
	"testing"

	"github.com/reptest/reptest/cases"
)

// BenchmarkProtocol drives one external program both ways: as a
// long-lived process over the reptest/1 protocol (exec) and as one process
// per check through a command template (command). The program and its
// answers are the same, so the difference is the cost of starting a
// process per check. Read the checks/s metric of the two rows.
func BenchmarkProtocol(b *testing.B) {
	req := cases.Request{Robots: []byte(helperBody), Agent: "FooBot", URL: "https://example.com/private/x"}
	run := func(b *testing.B, p cases.Parser) {
		ctx := context.Background()
		// One check outside the timing: the exec row starts its program here.
		if v, err := p.Check(ctx, req); err != nil || v != cases.Disallow {
			b.Fatalf("warm-up check: %v, %v; want disallow", v, err)
		}
		b.ResetTimer()
		for b.Loop() {
			if v, err := p.Check(ctx, req); err != nil || v != cases.Disallow {
				b.Fatalf("check: %v, %v; want disallow", v, err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "checks/s")
	}
	b.Run("exec", func(b *testing.B) {
		e, err := NewExec(context.Background(), helperCommand(b), ExecOptions{Env: []string{helperEnv + "=good"}})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		run(b, e)
	})
	b.Run("command", func(b *testing.B) {
		c, err := NewCommand(helperTemplate(b), CommandOptions{Env: []string{helperEnv + "=cmd"}})
		if err != nil {
			b.Fatal(err)
		}
		run(b, c)
	})
}

// BenchmarkFastPathBound runs the in-process libraries on the worst
// shapes found within the bounds of Isolated's fast path (64 KiB, 64 "*",
// a 4 KiB URL): the time per check is what a check can cost in process
// at most, with no timeout able to stop it.
func BenchmarkFastPathBound(b *testing.B) {
	url := "https://example.com/" + strings.Repeat("a", fastURL-len("https://example.com/"))
	pad := func(s string) string { return s + strings.Repeat("#", fastBody-len(s)-1) + "\n" }
	shapes := map[string]string{
		"rules": pad("User-agent: *\nDisallow: /\n" + strings.Repeat("Disallow: /*a\n", fastStars-1)),
		"one":   pad("User-agent: *\nDisallow: /" + strings.Repeat("*a", fastStars-1) + "b\n"),
		"lines": "User-agent: *\n" + strings.Repeat("Disallow: /aaaaaaaaaaaaa\n", (fastBody-20)/25),
	}
	for name, body := range shapes {
		req := cases.Request{Robots: []byte(body), Agent: "FooBot", URL: url}
		if !fast(req, nil) {
			b.Fatalf("%s: outside the fast path", name)
		}
		for lib, p := range libraries() {
			b.Run(lib+"/"+name, func(b *testing.B) {
				for b.Loop() {
					if _, err := p.Check(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
