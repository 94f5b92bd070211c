package reference_test

import (
	"fmt"

	"github.com/reptest/reptest/reference"
)

// The catalogue names each misreading with the RFC section and the
// requirements it breaks.
func ExampleMisreadings() {
	for _, m := range reference.Misreadings()[:3] {
		fmt.Printf("%s (%s, §%s %v): %s\n", m.ID, m.Kind, m.RFC, m.Req, m.Title)
	}
	// Output:
	// first-match (matching, §2.2.2 [MATCH-4 EX-5.2]): The first matching rule in file order wins, not the longest
	// allow-ignored (matching, §2.2.2 [MATCH-1]): Allow lines are ignored: only Disallow rules count
	// tie-disallow (matching, §2.2.2 [MATCH-5]): Between an allow and a disallow rule of equal length, disallow wins
}

// A variant of the reference reads the file the way the misreadings say:
// here Python's robotparser's first match.
func ExampleWithMisreadings() {
	robots := "User-agent: *\nDisallow: /\nAllow: /public/\n"
	variant, err := reference.WithMisreadings(reference.RFC(), "first-match")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, opts := range []reference.Options{reference.RFC(), variant} {
		ok, _ := reference.ParseString(robots, opts).Allowed("ExampleBot", "/public/page")
		fmt.Println(opts.Name, ok)
	}
	_, err = reference.WithMisreadings(reference.RFC(), "longest-match")
	fmt.Println(err != nil)
	// Output:
	// rfc9309 true
	// rfc9309+first-match false
	// true
}

// Variants of the reference mostly read a body's lines as it does: they
// reread its parse, or that of a variant read before, rather than parse
// it again. A variant that reads lines otherwise (a "Disallow" without
// its colon) is not reread from the reference's reading.
func ExampleRereadFrom() {
	robots := "User-agent: *\nDisallow /private\nDisallow: /tmp/\n"
	ref := reference.ParseString(robots, reference.RFC())
	for _, ids := range [][]string{{"first-match"}, {"missing-colon-accepted"}} {
		o, err := reference.WithMisreadings(reference.RFC(), ids...)
		if err != nil {
			fmt.Println(err)
			return
		}
		v, ok := reference.RereadFrom(o, ref)
		if !ok {
			v = reference.ParseString(robots, o)
		}
		allowed, _ := v.Allowed("ExampleBot", "/private/x")
		fmt.Println(o.Name, "reread:", ok, "allowed:", allowed)
	}
	// Output:
	// rfc9309+first-match reread: true allowed: true
	// rfc9309+missing-colon-accepted reread: false allowed: false
}
