package reference_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/reptest/reptest/reference"
)

// Parse a file once and decide many URLs.
func Example() {
	robots := []byte("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n")
	r := reference.Parse(robots, reference.RFC())
	for _, u := range []string{"https://example.com/private/x", "https://example.com/private/press/y", "https://example.com/"} {
		ok, err := r.Allowed("ExampleBot", u)
		fmt.Println(u, ok, err)
	}
	// Output:
	// https://example.com/private/x false <nil>
	// https://example.com/private/press/y true <nil>
	// https://example.com/ true <nil>
}

// Decide explains a verdict: the groups that applied, the deciding rule and
// the normalised path.
func ExampleRobots_Decide() {
	robots := "User-agent: ExampleBot\nDisallow: /*.pdf$\n\nUser-agent: examplebot\nAllow: /docs/\n"
	r := reference.ParseString(robots, reference.RFC())
	d, _ := r.Decide("ExampleBot", "https://example.com/docs/ツ.pdf")
	fmt.Println(d.Allowed, d.Reason, "line", d.Rule.Line, d.Rule.Pattern, d.Rule.Length)
	fmt.Println(d.Path, d.GroupLines)
	fmt.Println(d)
	// Output:
	// false rule matched line 2 /*.pdf$ 7
	// /docs/%E3%83%84.pdf [1 4]
	// disallow "/docs/%E3%83%84.pdf": line 2 disallow: /*.pdf$ (length 7); group "examplebot" at lines [1 4]
}

// A Fetcher obtains robots.txt by HTTP, follows redirects, applies the
// status classes and caches the result for 24 hours.
func ExampleFetcher() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/rules.txt", http.StatusMovedPermanently)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	}))
	defer srv.Close()

	f := &reference.Fetcher{Client: srv.Client(), Options: reference.RFC()}
	d, err := f.Decide(context.Background(), "ExampleBot", srv.URL+"/private/a")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Allowed, d.Fetch.Access, len(d.Fetch.Hops), "requests")
	// Output:
	// false success 2 requests
}

// FromStatus applies the status classes to a response fetched elsewhere.
func ExampleFromStatus() {
	for _, status := range []int{200, 404, 503} {
		d, _ := reference.FromStatus(status, []byte("User-agent: *\nDisallow: /\n"), reference.RFC()).Decide("ExampleBot", "/x")
		fmt.Println(status, d.Allowed, d.Reason)
	}
	// Output:
	// 200 false rule matched
	// 404 true unavailable
	// 503 false unreachable
}

// AllowedOnce makes a single decision without keeping a parsed file.
func ExampleAllowedOnce() {
	body := "User-agent: *\nDisallow: /*.pdf$\n"
	ok, err := reference.AllowedOnce(body, reference.RFC(), "ExampleBot", "https://example.com/a.pdf")
	fmt.Println(ok, err)
	// Output:
	// false <nil>
}

// Groups gives the group structure as the parser read it: each group's
// user-agent lines with the product token they name, and its rules in file
// order.
func ExampleRobots_Groups() {
	body := "Allow: /orphan\nUser-agent: FooBot\nUser-agent: Googlebot/2.1\nDisallow: /a\nAllow: /a/b$\n\nUser-agent: *\nDisallow: /\n"
	for _, opts := range []reference.Options{reference.RFC(), reference.Google()} {
		r := reference.ParseString(body, opts)
		fmt.Println(opts.Name)
		for i, g := range r.Groups() {
			for _, a := range g.Agents {
				fmt.Printf("  group %d line %d: value %q token %q star %v\n", i, a.Line, a.Value, a.Token, a.Star)
			}
			for _, ru := range g.Rules {
				fmt.Printf("  group %d line %d: allow %v %s\n", i, ru.Line, ru.Allow, ru.Pattern)
			}
		}
		fmt.Println("  orphans:", len(r.OrphanRules()))
	}
	// Output:
	// rfc9309
	//   group 0 line 2: value "FooBot" token "FooBot" star false
	//   group 0 line 3: value "Googlebot/2.1" token "" star false
	//   group 0 line 4: allow false /a
	//   group 0 line 5: allow true /a/b$
	//   group 1 line 7: value "*" token "" star true
	//   group 1 line 8: allow false /
	//   orphans: 1
	// google
	//   group 0 line 2: value "FooBot" token "FooBot" star false
	//   group 0 line 3: value "Googlebot/2.1" token "Googlebot" star false
	//   group 0 line 4: allow false /a
	//   group 0 line 5: allow true /a/b$
	//   group 1 line 7: value "*" token "" star true
	//   group 1 line 8: allow false /
	//   orphans: 1
}

// AgentToken reads one user-agent value as Groups does.
func ExampleOptions_AgentToken() {
	for _, v := range []string{"FooBot", "Googlebot/2.1", "* bots", "*"} {
		rt, rs := reference.RFC().AgentToken(v)
		gt, gs := reference.Google().AgentToken(v)
		fmt.Printf("%-14q rfc %q %v, google %q %v\n", v, rt, rs, gt, gs)
	}
	// Output:
	// "FooBot"       rfc "FooBot" false, google "FooBot" false
	// "Googlebot/2.1" rfc "" false, google "Googlebot" false
	// "* bots"       rfc "" false, google "" true
	// "*"            rfc "" true, google "" true
}
