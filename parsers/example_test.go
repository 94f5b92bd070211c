package parsers_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
)

func ExampleNew() {
	ctx := context.Background()
	for _, name := range []string{"reference", "temoto", "no-such-parser"} {
		p, err := parsers.New(ctx, name, parsers.Options{})
		switch {
		case errors.Is(err, parsers.ErrUnavailable):
			// An external peer whose runtime is not installed: skip it.
			fmt.Printf("%s: skipped: %v\n", name, err)
			continue
		case errors.Is(err, parsers.ErrUnknown):
			fmt.Printf("%s: unknown\n", name)
			continue
		case err != nil:
			log.Fatal(err)
		}
		if c, ok := p.(cases.Closer); ok {
			defer c.Close()
		}
		v, err := p.Check(ctx, cases.Request{
			Robots: []byte("Crawl-delay: 5\nUser-agent: *\nDisallow: /private\n"),
			Agent:  "FooBot",
			URL:    "https://example.com/private/report",
		})
		fmt.Println(p.Info().Name, v, err)
	}
	// Output:
	// reference disallow <nil>
	// temoto reject <nil>
	// no-such-parser: unknown
}

// Serve answers the reptest/1 protocol for any parser: here the
// reference, for a hello, one check and one batch.
func ExampleServe() {
	in := strings.NewReader(`{"hello":"reptest/1"}
{"id":"1","robots_b64":"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL3gK","agent":"FooBot","url":"https://example.com/x"}
{"id":"2","robots_b64":"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL3gK","questions":[{"agent":"FooBot","url":"https://example.com/x"},{"agent":"FooBot","url":"https://example.com/y"}]}
`)
	var out strings.Builder
	if err := parsers.Serve(context.Background(), parsers.NewReference(), in, &out); err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		fmt.Println(line)
	}
	// Output:
	// {"id":"1","verdict":"disallow"}
	// {"id":"2","answers":[{"verdict":"disallow"},{"verdict":"allow"}]}
}

func ExampleValidName() {
	for _, name := range []string{"my-parser 2", "a=b", "tab\there"} {
		fmt.Println(name == "" || parsers.ValidName(name) == nil)
	}
	// Output:
	// true
	// false
	// false
}
