package fuzz

import (
	"strings"
	"testing"

	"github.com/reptest/reptest/reference"
)

// TestKnownClasses shows that every known class exists: for each, a
// witness input on which the peer disagrees with the reference and the
// class's predicate fires. A class without a witness would filter nothing
// real; a witness on which the peers agree means a peer changed.
func TestKnownClasses(t *testing.T) {
	padded := "User-agent: *\n" + strings.Repeat("# padding padding padding padding padding padding\n", reference.KiB500/50+1) + "Disallow: /late\n"
	tests := []struct {
		class            string
		body, agent, url string
	}{
		{"grobotstxt/url-parse-failure", "User-agent: *\nAllow: /\n", "FooBot", "/%zz"},
		{"grobotstxt/url-reencoding", "User-agent: *\nDisallow: /a%20b\n", "FooBot", "/a b"},
		{"grobotstxt/path-of-relative-uri", "UserAgent *\nDisAlow *x", "FooBot", "x"},
		{"grobotstxt/agent-token-chars", "User-agent: FooBot.1\nDisallow: /\n", "FooBot", "/x"},
		{"grobotstxt/star-space-byte", "User-agent: *\xa0x\nDisallow: /\n", "FooBot", "/x"},
		{"grobotstxt/extra-typo", "User-agent: FooBot\nDiaslow: /g\n", "FooBot", "/g"},
		{"grobotstxt/lowercase-hex", "User-agent: *\nDisallow: /a%2fb\n", "FooBot", "/a%2Fb"},
		{"grobotstxt/unicode-space", "User-agent: *\nDisallow: /x\u00a0\n", "FooBot", "/x"},
		{"grobotstxt/no-parse-limit", padded, "FooBot", "/late"},
		{"grobotstxt/nul-is-an-octet", "User-agent: *\nDisallow: /\x00\n", "FooBot", "/x"},

		{"temoto/reject-rule-before-user-agent", "Disallow: /x\nUser-agent: *\nDisallow: /y\n", "FooBot", "/y"},
		{"temoto/reject-crawl-delay", "User-agent: *\nCrawl-delay: soon\nDisallow: /y\n", "FooBot", "/y"},
		{"temoto/no-implicit-robots-txt", "User-agent: *\nDisallow: /\n", "FooBot", "/robots.txt"},
		{"temoto/partial-bom", "\xefUser-agent: *\nUser-agent: FooBot\nDisallow: /\n", "BarBot", "/x"},
		{"temoto/invalid-utf8", "User-agent: *\nDisallow: /a\xff\n", "FooBot", "/a\xff"},
		{"temoto/word-pairs", "User-agent: *\nDisallow: /a b\n", "FooBot", "/a"},
		{"temoto/record-name", "User-agent: *\nDisallow /x\n", "FooBot", "/x"},
		{"temoto/record-value", "User-agent: *\nDisallow: /a#b\n", "FooBot", "/ax"},
		{"temoto/agent-prefix-match", "User-agent: Foo\nDisallow: /\n", "FooBot", "/x"},
		{"temoto/unicode-case-folding", "User-agent: \u212aelbot\nDisallow: /\n", "Kelbot", "/x"},
		{"temoto/rule-less-group", "User-agent: *\nDisallow: /\n\nUser-agent: QuietBot\n", "QuietBot", "/x"},
		{"temoto/crawl-delay-ends-group", "User-agent: BarBot\nCrawl-delay: 1\nUser-agent: FooBot\nDisallow: /\n", "BarBot", "/x"},
		{"temoto/no-parse-limit", padded, "FooBot", "/late"},
		{"temoto/no-percent-normalisation", "User-agent: *\nDisallow: /%7Efoo\n", "FooBot", "/~foo"},
		{"temoto/slash-prepended", "User-agent: *\nDisallow: foo\n", "FooBot", "/foo"},
		{"temoto/trailing-star-trimmed", "User-agent: *\nDisallow: *\n", "FooBot", "/x"},
		{"temoto/dollar-anywhere", "User-agent: *\nDisallow: /a$b\n", "FooBot", "/a$b"},
		{"temoto/unanchored-wildcard", "User-agent: *\nDisallow: /a*b\n", "FooBot", "/x/ab"},
		{"temoto/longest-match-and-ties", "User-agent: *\nDisallow: /a\nAllow: /a\n", "FooBot", "/a"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.class] = true
		t.Run(tt.class, func(t *testing.T) {
			peer := 1 // temoto
			if strings.HasPrefix(tt.class, "grobotstxt/") {
				peer = 0
			}
			d := compare(t, peer, []byte(tt.body), tt.agent, tt.url)
			if d == nil {
				t.Fatalf("%s and the reference agree on the witness", peers[peer].parser.Info().Name)
			}
			classes := *peers[peer].classes
			for _, c := range classes {
				if c.name == tt.class {
					if !c.shows(d) {
						t.Fatalf("the predicate does not fire on its witness (reference %s, %s %s)", d.ref, d.peer, d.got)
					}
					t.Logf("reference %s, %s %s; first class: %s", d.ref, d.peer, d.got, explain(classes, d))
					return
				}
			}
			t.Fatalf("no class named %s", tt.class)
		})
	}
	for _, c := range append(append([]knownClass{}, grobotClasses...), temotoClasses...) {
		if !seen[c.name] {
			t.Errorf("class %s has no witness", c.name)
		}
	}
}
