package parsers_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff/parsers"
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
