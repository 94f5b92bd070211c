package reference_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/reference"
)

// check is one decision a test expects: agent, URL, verdict and, when
// non-zero, the deciding line (-1: no rule decided).
type check struct {
	agent, url string
	allow      bool
	line       int
}

type decideTest struct {
	req    string // the requirement ID the test covers
	name   string
	robots string
	google bool // use the Google option set
	checks []check
}

// rfc951 is the example file of RFC 9309 §5.1.
const rfc951 = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`

var decideTests = []decideTest{
	{req: "EX-5.1", name: "rfc-5.1", robots: rfc951, checks: []check{
		{"SomeBot", "https://www.example.com/pics/a.gif", false, 2},
		{"SomeBot", "https://www.example.com/example/x.html", false, 3},
		{"SomeBot", "https://www.example.com/publications/x", true, 4},
		{"SomeBot", "https://www.example.com/other", true, -1},
		{"foobot", "https://www.example.com/example/page.html", true, 8},
		{"foobot", "https://www.example.com/example/allowed.gif", true, 9},
		{"foobot", "https://www.example.com/publications/x", false, 7},
		{"barbot", "https://www.example.com/example/page.html", false, 13},
		{"bazbot", "https://www.example.com/example/page.html", false, 13},
		{"barbot", "https://www.example.com/example/other.gif", true, -1},
		{"quxbot", "https://www.example.com/example/page.html", true, -1},
		{"quxbot", "https://www.example.com/a.gif", true, -1},
	}},
	{req: "EX-5.2", name: "rfc-5.2", robots: "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n", checks: []check{
		{"foobot", "/example/page/", true, 2},
		{"foobot", "/example/page/disallowed.gif", false, 3},
		{"foobot", "/example/page/other.gif", true, 2},
	}},
	{req: "UA-3", name: "rfc-2.2.1-merge", robots: "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n", checks: []check{
		{"ExampleBot", "/foo", false, 2}, {"ExampleBot", "/bar", false, 3}, {"ExampleBot", "/baz", false, 6}, {"ExampleBot", "/qux", true, -1},
	}},
	{req: "UA-3", name: "merge-across-other-groups", robots: "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: A\nDisallow: /z\n", checks: []check{
		{"a", "/x", false, 2}, {"a", "/z", false, 6}, {"a", "/y", true, -1}, {"b", "/y", false, 4},
	}},
	{req: "UA-2", name: "token-case-insensitive", robots: "user-agent: examplebot\ndisallow: /\n", checks: []check{
		{"ExampleBot", "/a", false, 2}, {"EXAMPLEBOT", "/a", false, 2},
	}},
	{req: "UA-2", name: "no-prefix-or-substring-match", robots: "User-agent: Example\nDisallow: /\nUser-agent: ExampleBotPlus\nDisallow: /\n", checks: []check{
		{"ExampleBot", "/a", true, 0},
	}},
	{req: "UA-2", name: "ascii-only-case-folding", robots: "User-agent: \u212Aelbot\nDisallow: /\nuſer-agent: a\nDisallow: /\n", checks: []check{
		{"Kelbot", "/x", true, 0}, {"a", "/x", true, 0},
	}},
	{req: "UA-4", name: "star-fallback", robots: "User-agent: other\nDisallow: /o\nUser-agent: *\nDisallow: /s\n", checks: []check{
		{"FooBot", "/s", false, 4}, {"FooBot", "/o", true, -1},
	}},
	{req: "UA-5", name: "no-group-no-star", robots: "User-agent: other\nDisallow: /\n", checks: []check{{"FooBot", "/x", true, 0}}},
	{req: "UA-5", name: "no-groups-at-all", robots: "Sitemap: https://example.com/s.xml\n", checks: []check{{"FooBot", "/x", true, 0}}},
	{req: "UA-6", name: "named-replaces-star", robots: "User-agent: *\nDisallow: /\nUser-agent: FooBot\nDisallow: /private\n", checks: []check{
		{"FooBot", "/public", true, -1}, {"FooBot", "/private", false, 4}, {"Other", "/public", false, 2},
	}},
	{req: "SYN-7", name: "empty-trailing-group", robots: "User-agent: *\nDisallow: /\nUser-agent: quxbot\n", checks: []check{
		{"quxbot", "/x", true, -1}, {"other", "/x", false, 2},
	}},
	{req: "SYN-6", name: "consecutive-agents-share-rules", robots: "User-agent: a\nUser-agent: b\nDisallow: /x\nUser-agent: c\nDisallow: /y\n", checks: []check{
		{"a", "/x", false, 3}, {"b", "/x", false, 3}, {"b", "/y", true, -1}, {"c", "/y", false, 5},
	}},
	{req: "SYN-5", name: "blank-lines-inside-groups", robots: "User-agent: a\n\nUser-agent: b\n\nDisallow: /x\n\nDisallow: /y\n", checks: []check{
		{"a", "/x", false, 5}, {"b", "/y", false, 7},
	}},
	{req: "OTH-3", name: "records-between-agents", robots: "User-agent: a\nSitemap: https://e.com/s.xml\nCrawl-delay: 5\nfoo: bar\nUser-agent: b\nDisallow: /x\n", checks: []check{
		{"a", "/x", false, 6}, {"b", "/x", false, 6},
	}},
	{req: "SYN-8", name: "rules-before-first-agent", robots: "Disallow: /\nUser-agent: a\nDisallow: /x\n", checks: []check{
		{"a", "/y", true, -1}, {"other", "/y", true, 0},
	}},
	{req: "SYN-1", name: "record-names-any-case", robots: "USER-AGENT: a\nDISALLOW: /x\nallow: /x/y\n", checks: []check{
		{"a", "/x", false, 2}, {"a", "/x/y", true, 3},
	}},
	{req: "SYN-2", name: "whitespace-around", robots: "  User-agent \t:  a  \n\tDisallow\t:\t/x\t\n", checks: []check{{"a", "/x", false, 2}}},
	{req: "SYN-3", name: "cr-only", robots: "User-agent: a\rDisallow: /x\rAllow: /x/y\r", checks: []check{{"a", "/x", false, 2}, {"a", "/x/y", true, 3}}},
	{req: "SYN-3", name: "crlf-and-cr-cr-lf", robots: "User-agent: a\r\nDisallow: /x\r\r\nAllow: /x/y\n", checks: []check{{"a", "/x", false, 2}, {"a", "/x/y", true, 4}}},
	{req: "SYN-4", name: "comment-after-value", robots: "User-agent: a # the a bot\nDisallow: /a # not /a #\n", checks: []check{
		{"a", "/a", false, 2}, {"a", "/b", true, -1},
	}},
	{req: "SYN-9", name: "garbage-lines-skipped", robots: "User-agent: a\nthis is not a record\n\x00\x01\xff\xfe\nDisallow: /x\n", checks: []check{{"a", "/x", false, 4}}},
	{req: "SYN-10", name: "bom", robots: "\xEF\xBB\xBFUser-agent: a\nDisallow: /x\n", checks: []check{{"a", "/x", false, 2}}},
	{req: "SYN-10", name: "partial-bom", robots: "\xEF\xBBUser-agent: a\nDisallow: /x\n", checks: []check{{"a", "/x", false, 2}}},
	{req: "MATCH-2", name: "case-sensitive-paths", robots: "User-agent: *\nDisallow: /admin/\n", checks: []check{{"a", "/Admin/", true, -1}, {"a", "/admin/", false, 2}}},
	{req: "MATCH-3", name: "anchored", robots: "User-agent: *\nDisallow: /b\n", checks: []check{{"a", "/a/b", true, -1}}},
	{req: "MATCH-4", name: "longest-wins-both-orders", robots: "User-agent: a\nDisallow: /p\nAllow: /p/q\nUser-agent: b\nAllow: /p/q\nDisallow: /p\n", checks: []check{
		{"a", "/p/q", true, 3}, {"a", "/p/r", false, 2}, {"b", "/p/q", true, 5}, {"b", "/p/r", false, 6},
	}},
	{req: "MATCH-5", name: "tie-allow-wins", robots: "User-agent: *\nDisallow: /same\nAllow: /same\n", checks: []check{{"a", "/same", true, 3}}},
	{req: "MATCH-6", name: "no-matching-rule", robots: "User-agent: *\nDisallow: /x\n", checks: []check{{"a", "/y", true, -1}}},
	{req: "MATCH-7", name: "robots-txt-implicit", robots: "User-agent: *\nDisallow: /\n", checks: []check{{"a", "/robots.txt", true, -1}, {"a", "/robots.txt?x=1", true, -1}, {"a", "/robots.txtx", false, 2}}},
	{req: "MATCH-9", name: "prefix", robots: "User-agent: *\nDisallow: /fish\n", checks: []check{{"a", "/fish.html", false, 2}, {"a", "/fishheads/x", false, 2}, {"a", "/Fish", true, -1}, {"a", "/fis", true, -1}}},
	{req: "MATCH-10", name: "length-counts-wildcards", robots: "User-agent: *\nAllow: /page\nDisallow: /*.htm\n", checks: []check{{"a", "/page.htm", false, 3}}},
	{req: "MATCH-11", name: "query-matched", robots: "User-agent: *\nDisallow: /*?sessionid=\n", checks: []check{{"a", "/a?sessionid=1", false, 2}, {"a", "/a?x=1", true, -1}}},
	{req: "SPC-1", name: "backtracking", robots: "User-agent: *\nDisallow: /*.pdf$\n", checks: []check{{"a", "/a.pdf.pdf", false, 2}, {"a", "/a.pdf.x", true, -1}}},
	{req: "SPC-2", name: "dollar-end", robots: "User-agent: *\nDisallow: /*.pdf$\n", checks: []check{{"a", "/a.pdf?x=1", true, -1}, {"a", "/a.pdf", false, 2}}},
	{req: "SPC-3", name: "dollar-mid-literal", robots: "User-agent: *\nDisallow: /a$b\n", checks: []check{{"a", "/a$b", false, 2}, {"a", "/a", true, -1}}},
	{req: "SPC-4", name: "rfc-table-3", robots: "User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /path/foo-%24\n", checks: []check{
		{"a", "https://www.example.com/path/file-with-a-*.html", false, 2},
		{"a", "https://www.example.com/path/foo-$", false, 3},
		{"a", "https://www.example.com/path/file-with-a-x.html", true, -1},
	}},
	{req: "PCT-1", name: "rfc-table-1-utf8-rule", robots: "User-agent: *\nDisallow: /foo/bar/ツ\n", checks: []check{
		{"a", "/foo/bar/%E3%83%84", false, 2}, {"a", "/foo/bar/ツ", false, 2},
	}},
	{req: "PCT-1", name: "rfc-table-1-encoded-rule", robots: "User-agent: *\nDisallow: /foo/bar/%E3%83%84\n", checks: []check{
		{"a", "/foo/bar/%E3%83%84", false, 2}, {"a", "/foo/bar/ツ", false, 2},
	}},
	{req: "PCT-1", name: "rfc-table-1-query", robots: "User-agent: *\nDisallow: /foo/bar?baz=quz\n", checks: []check{{"a", "/foo/bar?baz=quz", false, 2}}},
	{req: "PCT-2", name: "rfc-table-1-unreserved-decoded", robots: "User-agent: *\nDisallow: /foo/bar/baz\n", checks: []check{
		{"a", "/foo/bar/%62%61%7A", false, 2}, {"a", "/foo/bar/baz", false, 2},
	}},
	{req: "PCT-2", name: "rfc-table-1-query-delimiters", robots: "User-agent: *\nDisallow: /foo/bar?baz=https://foo.bar\nDisallow: /o?t=a%3a%2F\n", checks: []check{
		{"a", "/foo/bar?baz=https%3A%2F%2Ffoo.bar", false, 2}, {"a", "/foo/bar?baz=https://foo.bar", false, 2},
		{"a", "/o?t=a:/", false, 3}, {"a", "/o?t=a%3A%2F", false, 3}, {"a", "/o:x?t", true, -1},
	}},
	{req: "SPC-1", name: "star-reaches-into-query-delimiters", robots: "User-agent: *\nDisallow: /*route=account/\nDisallow: /*url=http://\n", checks: []check{
		{"a", "/index.php?route=account/address", false, 2}, {"a", "/index.php?route=account%2Faddress", false, 2},
		{"a", "/go?url=http://x", false, 3}, {"a", "/go?url=http%3A%2F%2Fx", false, 3}, {"a", "/go?url=https://x", true, -1},
	}},
	{req: "MATCH-1", name: "semicolon-in-authority", robots: "User-agent: *\nDisallow: /p\n", checks: []check{
		{"a", "http://us;er@example.com/p", false, 2}, {"a", "http://example.com/x;/p", true, -1},
	}},
	{req: "MATCH-1", name: "semicolon-ends-authority-google", google: true, robots: "User-agent: *\nDisallow: /;p\n", checks: []check{
		{"a", "http://example.com;p", false, 2},
	}},
	{req: "PCT-2", name: "reserved-stays-encoded", robots: "User-agent: *\nDisallow: /a/b\n", checks: []check{{"a", "/a%2Fb", true, -1}, {"a", "/a/b", false, 2}}},
	{req: "PCT-3", name: "hex-case", robots: "User-agent: *\nDisallow: /a%2fb\n", checks: []check{{"a", "/a%2Fb", false, 2}, {"a", "/a%2fb", false, 2}}},
	{req: "PAT-1", name: "slashless-star", robots: "User-agent: *\nDisallow: *.gif$\nDisallow: private\n", checks: []check{{"a", "/x/y.gif", false, 2}, {"a", "/private", true, -1}}},
	{req: "PAT-2", name: "empty-pattern", robots: "User-agent: *\nDisallow:\nAllow:\n", checks: []check{{"a", "/x", true, -1}}},
	{req: "UA-7", name: "version-suffix-rfc", robots: "User-agent: FooBot/2.1\nDisallow: /\n", checks: []check{{"FooBot", "/x", true, 0}}},
	{req: "G-UA", name: "version-suffix-google", google: true, robots: "User-agent: FooBot/2.1\nDisallow: /\nUser-agent: Foo Images\nDisallow: /img\n", checks: []check{
		{"FooBot", "/x", false, 2}, {"Foo", "/img", false, 4},
	}},
	{req: "G-TYPO", name: "typos-google", google: true, robots: "useragent: a\ndissallow: /x\nDisallow /y\n", checks: []check{{"a", "/x", false, 2}, {"a", "/y", false, 3}}},
	{req: "OTH-2", name: "typos-rfc", robots: "useragent: a\ndissallow: /x\nUser-agent: *\nDisallow /y\n", checks: []check{{"a", "/x", true, -1}, {"a", "/y", true, -1}}},
	{req: "G-INDEX", name: "index-html", google: true, robots: "User-agent: *\nDisallow: /\nAllow: /dir/index.html\n", checks: []check{
		{"a", "/dir/", true, 3}, {"a", "/dir/index.html", true, 3}, {"a", "/dir/x", false, 2},
	}},
	{req: "G-NUL", name: "nul-ends-line-google", google: true, robots: "User-agent: *\x00x\nDisallow: /\x00\nUser-agent: a\nDisallow: /a\x00b\n", checks: []check{
		{"b", "/x", false, 2}, {"a", "/a", false, 4}, {"a", "/ab", false, 4}, {"a", "/b", true, -1}, {"a", "/b\x00/a", true, -1},
	}},
	{req: "G-NUL", name: "nul-is-an-octet-rfc", robots: "User-agent: *\nDisallow: /\x00\nUser-agent: *\x00x\nDisallow: /\n", checks: []check{
		{"b", "/x", true, -1}, {"b", "/%00x", false, 2}, {"b", "/\x00", false, 2},
	}},
	{req: "G-API", name: "any-agent-google", google: true, robots: "User-agent: Foo\nDisallow: /f\nUser-agent: Foo Bar\nDisallow: /fb\nUser-agent: /x\nDisallow: /e\n", checks: []check{
		{"Foo Bar", "/f", true, 0}, {"Foo Bar", "/fb", true, 0}, {"foo", "/fb", false, 4}, {"", "/e", false, 6}, {"Foo/1.0", "/e", true, 0},
	}},
	{req: "G-API", name: "empty-url-google", google: true, robots: "User-agent: *\nDisallow: /$\n", checks: []check{
		{"a", "", false, 2}, {"a", "/x", true, -1}, {"a", "/\x00x", false, 2},
	}},
	{req: "G-LEN", name: "google-no-uri-normalisation", google: true, robots: "User-agent: *\nDisallow: /foo/bar/baz\nDisallow: /ツ\n", checks: []check{
		{"a", "/foo/bar/%62%61%7A", true, -1}, {"a", "/%E3%83%84", false, 3}, {"a", "/ツ", true, -1},
	}},
}

func TestDecide(t *testing.T) {
	for _, tt := range decideTests {
		t.Run(tt.req+"/"+tt.name, func(t *testing.T) {
			opts := reference.RFC()
			if tt.google {
				opts = reference.Google()
			}
			r := reference.ParseString(tt.robots, opts)
			for _, c := range tt.checks {
				d, err := r.Decide(c.agent, c.url)
				if err != nil {
					t.Fatalf("Decide(%q, %q): %v", c.agent, c.url, err)
				}
				if d.Allowed != c.allow {
					t.Errorf("Decide(%q, %q) allowed = %v, want %v; trace: %s", c.agent, c.url, d.Allowed, c.allow, d)
				}
				switch {
				case c.line > 0 && (d.Reason != reference.RuleMatched || d.Rule.Line != c.line):
					t.Errorf("Decide(%q, %q) decided by %s, want line %d", c.agent, c.url, d, c.line)
				case c.line < 0 && d.Reason == reference.RuleMatched:
					t.Errorf("Decide(%q, %q) decided by %s, want no rule", c.agent, c.url, d)
				case c.line == 0 && d.Reason != reference.NoGroup:
					t.Errorf("Decide(%q, %q) = %s, want no group", c.agent, c.url, d)
				}
				ok, err := r.Allowed(c.agent, c.url)
				if err != nil || ok != d.Allowed {
					t.Errorf("Allowed(%q, %q) = %v, %v; Decide says %v", c.agent, c.url, ok, err, d.Allowed)
				}
			}
		})
	}
}

// UA-1: the product token is validated, except where Google's options
// accept any agent string.
func TestInvalidToken(t *testing.T) {
	r := reference.ParseString("User-agent: *\nDisallow: /\n", reference.RFC())
	g := reference.ParseString("User-agent: *\nDisallow: /\n", reference.Google())
	for _, agent := range []string{"", "Foo Bot", "FooBot/1.0", "Bot2", "ÄBot"} {
		if ok, err := g.Allowed(agent, "/"); ok || err != nil {
			t.Errorf("google: Allowed(%q) = %v, %v; want false, nil", agent, ok, err)
		}
		if _, err := reference.AllowedOnce("", reference.RFC(), agent, "/"); !errors.Is(err, reference.ErrInvalidToken) {
			t.Errorf("AllowedOnce(%q): err = %v, want ErrInvalidToken", agent, err)
		}
		if _, err := r.Decide(agent, "/"); !errors.Is(err, reference.ErrInvalidToken) {
			t.Errorf("Decide(%q): err = %v, want ErrInvalidToken", agent, err)
		}
		if _, err := r.Allowed(agent, "/"); !errors.Is(err, reference.ErrInvalidToken) {
			t.Errorf("Allowed(%q): err = %v, want ErrInvalidToken", agent, err)
		}
	}
}

// LIM-1, LIM-2: rules in the first 500 KiB apply; a line the limit cuts is
// dropped, and content past it is ignored.
func TestParseLimit(t *testing.T) {
	pad := strings.Repeat("# padding padding padding padding padding padding\n", 9980) // 499,000 bytes
	body := "User-agent: *\n" + pad + "Disallow: /late\n"
	if n := len(body); n >= reference.ParseLimit {
		t.Fatalf("test body is %d bytes, want under 500 KiB", n)
	}
	r := reference.ParseString(body, reference.RFC())
	if ok, _ := r.Allowed("a", "/late"); ok {
		t.Errorf("a rule at byte %d was not obeyed (LIM-1)", len(body)-16)
	}
	over := "User-agent: *\n" + strings.Repeat("#", reference.ParseLimit-20) + "\nDisallow: /cut-in-two\nDisallow: /past\n"
	r = reference.ParseString(over, reference.RFC())
	if !r.Truncated() {
		t.Errorf("Truncated() = false for a %d-byte body", len(over))
	}
	for _, p := range []string{"/cut-in-two", "/c", "/past"} {
		if ok, _ := r.Allowed("a", p); !ok {
			t.Errorf("%s disallowed by content past the limit", p)
		}
	}
}

// Every line keeps its number and classification.
func TestLines(t *testing.T) {
	body := "User-agent: a\n# c\n\nDisallow: /x # y\nAllow: /z\nSitemap: https://e.com/s\nnonsense\n:x\n"
	got := reference.ParseString(body, reference.RFC()).Lines()
	want := []reference.Line{
		{Number: 1, Kind: reference.UserAgent, Key: "User-agent", Value: "a"},
		{Number: 2, Kind: reference.Comment},
		{Number: 3, Kind: reference.Blank},
		{Number: 4, Kind: reference.Disallow, Key: "Disallow", Value: "/x"},
		{Number: 5, Kind: reference.Allow, Key: "Allow", Value: "/z"},
		{Number: 6, Kind: reference.Other, Key: "Sitemap", Value: "https://e.com/s"},
		{Number: 7, Kind: reference.Invalid, Reason: "no colon after the record name"},
		{Number: 8, Kind: reference.Invalid, Reason: "empty record name"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lines() (-want +got):\n%s", diff)
	}
	r := reference.ParseString(body, reference.RFC())
	if diff := cmp.Diff([]string{"https://e.com/s"}, r.Sitemaps()); diff != "" {
		t.Errorf("Sitemaps() (-want +got):\n%s", diff)
	}
}

func TestPathQuery(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com":            "/",
		"https://example.com/a?b#c":      "/a?b",
		"https://example.com?q":          "/?q",
		"http://u:p@h:8080/x;p?q":        "/x;p?q",
		"/a/b?c":                         "/a/b?c",
		"//host/path":                    "/path",
		"https://example.com/%zz bad":    "/%zz bad",
		"https://example.com#frag/x":     "/",
		"relative/path":                  "/relative/path",
		"https://[::1]:8443/robots.txt":  "/robots.txt",
		"HTTPS://EXAMPLE.COM/Upper/Case": "/Upper/Case",
		"http://us;er@example.com/p":     "/p", // ";" does not end an authority
		"http://example.com;x/p":         "/p",
	} {
		if got := reference.PathQuery(in); got != want {
			t.Errorf("PathQuery(%q) = %q, want %q", in, got, want)
		}
	}
}

// ACC-1: the robots.txt URL of a page.
func TestRobotsURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a?b":             "https://example.com/robots.txt",
		"HTTP://Example.COM:80/x":             "http://example.com/robots.txt",
		"https://example.com:443/":            "https://example.com/robots.txt",
		"https://h:8443/a?b":                  "https://h:8443/robots.txt",
		"http://user:pw@example.com/x":        "http://example.com/robots.txt",
		"http://[2001:DB8::1]:8080/x":         "http://[2001:db8::1]:8080/robots.txt",
		"http://[2001:db8::1]/x":              "http://[2001:db8::1]/robots.txt",
		"https://example.com:8080/robots.txt": "https://example.com:8080/robots.txt",
	} {
		got, err := reference.RobotsURL(in)
		if err != nil || got != want {
			t.Errorf("RobotsURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"ftp://example.com/x", "mailto:a@b", "/relative", "http://%zz/"} {
		if _, err := reference.RobotsURL(bad); err == nil {
			t.Errorf("RobotsURL(%q) succeeded, want an error", bad)
		}
	}
	if _, err := reference.RobotsURL("ftp://example.com/x"); !errors.Is(err, reference.ErrNotHTTP) {
		t.Errorf("RobotsURL(ftp) error does not wrap ErrNotHTTP: %v", err)
	}
}

// Parsing never fails and never panics, whatever the bytes.
func TestParseHostile(t *testing.T) {
	inputs := []string{
		"", "\x00\x00\x00", "\xff\xfe\xfd", strings.Repeat("*", 16000),
		"User-agent: *\nDisallow: /" + strings.Repeat("*a", 5000) + "b\n",
		"User-agent: *\nDisallow: " + strings.Repeat("x", 1<<20) + "\n",
		strings.Repeat("\r", 1000), strings.Repeat("User-agent: a\n", 10000),
	}
	for _, in := range inputs {
		for _, opts := range []reference.Options{reference.RFC(), reference.Google()} {
			r := reference.ParseString(in, opts)
			if _, err := r.Decide("a", "/"+strings.Repeat("a", 10000)); err != nil {
				t.Errorf("Decide on hostile input: %v", err)
			}
		}
	}
}

// MATCH-4, MATCH-5 on a group large enough for the linear-time sort: the
// longest matching rule decides and allow wins ties, whatever the order.
func TestLongestMatchManyRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type prefixRule struct {
		allow bool
		path  string
	}
	for round := 0; round < 50; round++ {
		var rules []prefixRule
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for i := 0; i < 40; i++ {
			path := "/" + "abababab"[:rng.IntN(8)]
			allow := rng.IntN(2) == 0
			rules = append(rules, prefixRule{allow, path})
			if allow {
				fmt.Fprintf(&b, "Allow: %s\n", path)
			} else {
				fmt.Fprintf(&b, "Disallow: %s\n", path)
			}
		}
		for _, opts := range []reference.Options{reference.RFC(), func() reference.Options { o := reference.RFC(); o.DisallowWinsTies = true; return o }()} {
			r := reference.ParseString(b.String(), opts)
			for _, p := range []string{"/", "/a", "/ab", "/aba", "/abab", "/ababa", "/b", "/abb"} {
				best, allowed := -1, true
				for _, ru := range rules {
					if !strings.HasPrefix(p, ru.path) {
						continue
					}
					tie := len(ru.path) == best && ru.allow != opts.DisallowWinsTies
					if len(ru.path) > best || tie {
						best, allowed = len(ru.path), ru.allow
					}
				}
				got, _ := r.Allowed("a", p)
				if got != allowed {
					t.Fatalf("round %d, %s (DisallowWinsTies=%v): allowed = %v, want %v\n%s", round, p, opts.DisallowWinsTies, got, allowed, b.String())
				}
			}
		}
	}
}

// AllowedOnce gives the verdict of Parse + Allowed on every decision test
// and on hostile and option-varied inputs.
func TestAllowedOnceAgrees(t *testing.T) {
	variants := map[string]func(*reference.Options){
		"rfc": func(*reference.Options) {}, "google": nil,
		"orphans":   func(o *reference.Options) { o.OrphanRulesApply = true },
		"disallow":  func(o *reference.Options) { o.DisallowWinsTies = true },
		"slashless": func(o *reference.Options) { o.SlashlessPatterns = true },
		"nocase":    func(o *reference.Options) { o.CaseInsensitivePaths = true },
	}
	bodies := []string{rfc951, "Disallow: /x\nUser-agent: a\nDisallow: /y\n", "User-agent: *\nUser-agent: a\nDisallow: /p\nUser-agent: a\nAllow: /p\n",
		"User-agent: *\nDisallow: /\nAllow: /dir/index.html\n", "User-agent: a\nDisallow: /%7e\nAllow: /~\nDisallow: /*$\n"}
	for _, tt := range decideTests {
		bodies = append(bodies, tt.robots)
	}
	urls := []string{"", "/", "/a\x00b", "/x", "/y", "/p", "/robots.txt", "/dir/", "/dir/index.html", "/~", "/%7E", "/example/page.html", "/a.gif", "/X/Y?z"}
	for name, mod := range variants {
		opts := reference.Google()
		if mod != nil {
			opts = reference.RFC()
			mod(&opts)
		}
		for _, body := range bodies {
			r := reference.ParseString(body, opts)
			for _, agent := range []string{"a", "foobot", "ExampleBot", "quxbot", "other", "Foo Bar", ""} {
				for _, u := range urls {
					want, err1 := r.Allowed(agent, u)
					got, err2 := reference.AllowedOnce(body, opts, agent, u)
					if want != got || (err1 == nil) != (err2 == nil) {
						t.Errorf("%s: AllowedOnce(%q, %q) = %v, %v; Parse+Allowed = %v, %v\n%s", name, agent, u, got, err2, want, err1, body)
					}
				}
			}
		}
	}
}

// Ties names the other rules that decide the same way: duplicates, a rule
// of a merged group, a pattern of equal length; not a rule of the other
// kind, a shorter one, or one that does not match.
func TestDecideTies(t *testing.T) {
	const body = `User-agent: a
Disallow: /ab
Disallow: /a*
Allow: /ab
Disallow: /x
Disallow: /a
User-agent: b
User-agent: a
Disallow: /ab
`
	d, err := reference.ParseString(body, reference.RFC()).Decide("a", "/abc")
	if err != nil {
		t.Fatal(err)
	}
	// Allow: /ab (line 4) wins the tie of length 3 against the disallows.
	if d.Rule.Line != 4 || d.Ties != nil {
		t.Errorf("rule at line %d, ties %v; want line 4 and no ties (no other allow)", d.Rule.Line, d.Ties)
	}
	d, err = reference.ParseString(strings.Replace(body, "Allow: /ab", "Allow: /q", 1), reference.RFC()).Decide("a", "/abc")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{3, 9}, d.Ties); d.Rule.Line != 2 || diff != "" {
		t.Errorf("rule at line %d, ties (-want +got):\n%s", d.Rule.Line, diff)
	}
}

func TestSplitLines(t *testing.T) {
	for in, want := range map[string][]string{
		"a\r\nb\rc\n\nd":      {"a", "b", "c", "", "d"},
		"a\n":                 {"a"},
		"":                    nil,
		"\n\n":                {"", ""},
		"\xEF\xBB\xBFx\r\r\n": {"\xEF\xBB\xBFx", ""},
	} {
		if diff := cmp.Diff(want, reference.SplitLines(in)); diff != "" {
			t.Errorf("SplitLines(%q) (-want +got):\n%s", in, diff)
		}
	}
}
