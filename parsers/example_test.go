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

// Open starts the parsers of one run together: built-in ones by name and
// programs by command line. One that cannot start here stands in the set
// and is listed as unavailable, so the run goes on and says why.
func ExampleOpen() {
	ctx := context.Background()
	programs := []parsers.Program{
		// A command template run once per check: exit code 0 is allowed.
		{Line: "sh -c 'exit 0' %robots%", Name: "allow-all"},
		// A protocol program that fails before its hello.
		{Exec: true, Line: "echo no library >&2; exit 3"},
	}
	set, err := parsers.Open(ctx, []string{"reference"}, programs, parsers.SetOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	for _, u := range set.Unavailable {
		fmt.Printf("%s did not start (built-in: %v)\n", u.Name, u.Builtin)
	}
	req := cases.Request{Robots: []byte("User-agent: *\nDisallow: /private\n"), Agent: "FooBot", URL: "https://example.com/private/report"}
	for _, p := range set.Parsers {
		v, err := p.Check(ctx, req)
		fmt.Println(p.Info().Name, v, err != nil)
	}
	// Output:
	// exec did not start (built-in: false)
	// reference disallow false
	// allow-all allow false
	// exec  true
}
