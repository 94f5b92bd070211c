package parsers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
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
		if v, err := p.Check(ctx, req); err != nil || v != result.Disallow {
			b.Fatalf("warm-up check: %v, %v; want disallow", v, err)
		}
		b.ResetTimer()
		for b.Loop() {
			if v, err := p.Check(ctx, req); err != nil || v != result.Disallow {
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

// BenchmarkGrobotstxtBound runs grobotstxt in process, as Isolated does,
// on the worst shapes found within its bounds (grobotBody, grobotSteps):
// a body of literal rules at the size bound, and a body whose wildcard
// weight is just within the bound for a 2 KiB URL whose path every rule's
// text before its "*" matches. The time and memory per check are what a
// grobotstxt question can cost in process at most.
func BenchmarkGrobotstxtBound(b *testing.B) {
	url := "https://example.com/" + strings.Repeat("a", 2<<10)
	rule := "Disallow: /a*a\n"
	weight := len("/a*a") + 1
	shapes := map[string]string{
		"literal": "User-agent: *\n" + strings.Repeat("Disallow: /aaaaaaaaaaaa\n", grobotBody/24-1),
		"stars":   "User-agent: *\n" + strings.Repeat(rule, grobotSteps/(3*len(url)+1)/weight),
	}
	for name, body := range shapes {
		req := cases.Request{Robots: []byte(body)}
		qs := []cases.Question{{Agent: "FooBot", URL: url}}
		_, _, rest := NewGrobotstxt().checkWithin(context.Background(), req, qs)
		if len(body) > grobotBody || len(rest) != 0 {
			b.Fatalf("%s: outside the bounds", name)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				NewGrobotstxt().checkWithin(context.Background(), req, qs)
			}
		})
	}
}

// BenchmarkBatch puts the same questions about one body to parsers one
// check at a time (check) and in one batch (batch). Read the checks/s
// metric of the two rows of each parser.
func BenchmarkBatch(b *testing.B) {
	var body strings.Builder
	body.WriteString("User-agent: FooBot\nDisallow: /private\n\nUser-agent: *\n")
	for i := range 200 {
		fmt.Fprintf(&body, "Disallow: /section-%d/\nAllow: /section-%d/public\n", i, i)
	}
	req := cases.Request{Robots: []byte(body.String()), Profile: result.ProfileRFC}
	qs := make([]cases.Question, 64)
	for i := range qs {
		qs[i] = cases.Question{Agent: []string{"FooBot", "BarBot"}[i%2], URL: fmt.Sprintf("https://example.com/section-%d/public/%d", i*3, i)}
	}
	type opener struct {
		name string
		open func(b *testing.B) cases.Parser
	}
	parsers := []opener{
		{"reference", func(*testing.B) cases.Parser { return NewReference() }},
		{"temoto", func(*testing.B) cases.Parser { return NewTemoto() }},
		{"grobotstxt", func(*testing.B) cases.Parser { return NewGrobotstxt() }},
		{"exec-helper", func(b *testing.B) cases.Parser {
			e, err := NewExec(context.Background(), helperCommand(b), ExecOptions{Env: []string{helperEnv + "=batch"}})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { e.Close() })
			return e
		}},
	}
	// The peers whose libraries parse a body once per agent (perl, ruby)
	// beside one that parses it once for all (python).
	for _, name := range []string{"python-urllib", "perl-robotrules", "webrobots"} {
		parsers = append(parsers, opener{name, func(b *testing.B) cases.Parser {
			p, err := New(context.Background(), name, Options{})
			if err != nil {
				b.Skip(err)
			}
			b.Cleanup(func() { p.(cases.Closer).Close() })
			return p
		}})
	}
	for _, pr := range parsers {
		b.Run(pr.name+"/check", func(b *testing.B) {
			p := pr.open(b)
			for b.Loop() {
				eachCheck(context.Background(), p, req, qs)
			}
			b.ReportMetric(float64(b.N*len(qs))/b.Elapsed().Seconds(), "checks/s")
		})
		b.Run(pr.name+"/batch", func(b *testing.B) {
			p := pr.open(b)
			for b.Loop() {
				if _, errs := p.(cases.Batcher).CheckBatch(context.Background(), req, qs); errs[0] != nil {
					b.Fatal(errs[0])
				}
			}
			b.ReportMetric(float64(b.N*len(qs))/b.Elapsed().Seconds(), "checks/s")
		})
	}
}

// BenchmarkEncodeRequest writes the request line of a check whose body is
// 1 KiB, 16 KiB and 256 KiB: the cost reptest pays per request to an
// external program before any pipe or peer.
func BenchmarkEncodeRequest(b *testing.B) {
	for _, kib := range []int{1, 16, 256} {
		req := cases.Request{Robots: []byte(strings.Repeat("Disallow: /abc/*.x\n", kib<<10/19)), Agent: "FooBot", URL: "https://example.com/x"}
		b.Run(fmt.Sprintf("%dKiB", kib), func(b *testing.B) {
			b.SetBytes(int64(len(req.Robots)))
			for b.Loop() {
				if _, err := encodeRequest("12", req, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkServe serves the requests Exec sends for one body's 400
// questions, BatchPart at a time, each with the body again (a worker's
// load): what Serve costs around the library, for bodies
// of 4 KiB and 64 KiB. The library is temoto, read once per body as a
// worker reads it (lastBody).
func BenchmarkServe(b *testing.B) {
	for _, size := range []int{4 << 10, 64 << 10} {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for i := 0; body.Len() < size; i++ {
			fmt.Fprintf(&body, "Disallow: /section-%d/\n", i)
		}
		req := cases.Request{Robots: []byte(body.String()), Status: 200, Profile: result.ProfileRFC}
		var lines bytes.Buffer
		for lo := 0; lo < 400; lo += BatchPart {
			qs := make([]cases.Question, BatchPart)
			for i := range qs {
				qs[i] = cases.Question{Agent: "FooBot", URL: fmt.Sprintf("https://example.com/section-%d/page", lo+i)}
			}
			line, err := encodeRequest(strconv.Itoa(lo), req, qs)
			if err != nil {
				b.Fatal(err)
			}
			lines.Write(line)
		}
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			p := &lastBody{lib: NewTemoto()}
			b.SetBytes(int64(lines.Len()))
			for b.Loop() {
				if err := Serve(context.Background(), p, bytes.NewReader(lines.Bytes()), io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
