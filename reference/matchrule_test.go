package reference_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reptest/reptest/reference"
)

// TestMatchRuleAsParsed checks MatchRule and RuleMatcher against what it stands for, a
// file of the one rule parsed and asked, under the profiles' options and
// every misreading a parser can make: on the rules of the test files and
// of the real-world collection (when present), each asked about paths
// made from its own pattern.
func TestMatchRuleAsParsed(t *testing.T) {
	bodies := []string{file21, rfc951, largeGroup,
		"User-agent: *\nDisallow: /a%7eb\nDisallow: /ツ/\nAllow: /x**y$\nDisallow: /p$q\nAllow: /d/index.html\nDisallow:\n" +
			"Allow: /index.htm\nAllow: /a/index.html?x\nDisallow: /robots.txt\nDisallow: *\nAllow: $\nDisallow: /%2A%24\nAllow: /A%2fb\n" +
			"Disallow: /" + strings.Repeat("%7e", 400) + "\nAllow: /" + strings.Repeat("é", 300) + "*\nDisallow: /a b\n"}
	if names, _ := filepath.Glob(filepath.Join(realworldDir(), "*.txt")); len(names) > 0 {
		for _, n := range names {
			data, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, string(data))
		}
	} else {
		t.Logf("no real-world robots.txt files in %s: test files only", realworldDir())
	}
	opts := []reference.Options{reference.RFC(), reference.Google(), reference.AIPref()}
	seen := make(map[string]bool)
	checked := 0
	for _, body := range bodies {
		for _, g := range reference.ParseString(body, reference.Google()).Groups() {
			for _, r := range g.Rules {
				// The pattern, and in lower case as the diff engine's
				// tags ask about it (MATCH-2).
				for _, p := range []string{r.Pattern, strings.ToLower(r.Pattern)} {
					if seen[p] || len(seen) >= maxMatchRulePatterns {
						continue
					}
					seen[p] = true
					for _, u := range matchRuleURLs(p) {
						for _, o := range opts {
							checked++
							for _, allow := range []bool{true, false} {
								n, ok := reference.MatchRule(o, allow, p, u)
								wantN, wantOK := matchRuleParsed(o, allow, p, u)
								if n != wantN || ok != wantOK {
									t.Fatalf("%s: MatchRule(allow %t, %q, %q) = %d, %t; parsed: %d, %t", o.Name, allow, p, u, n, ok, wantN, wantOK)
								}
								if n, ok = reference.NewRuleMatcher(o, u).Match(allow, p); n != wantN || ok != wantOK {
									t.Fatalf("%s: RuleMatcher of %q: Match(allow %t, %q) = %d, %t; parsed: %d, %t", o.Name, u, allow, p, n, ok, wantN, wantOK)
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d patterns, %d questions under each kind", len(seen), checked)
}

// maxMatchRulePatterns bounds the patterns TestMatchRuleAsParsed checks
// (the test files' first, then the collection's in name order), so that
// it takes seconds.
const maxMatchRulePatterns = 20000

// matchRuleURLs returns URLs that a rule of the pattern may or may not
// match: its literal text, "*" taken as nothing or as text, past it, in
// other case, below another segment, with a query, and "/robots.txt".
func matchRuleURLs(pattern string) []string {
	base := strings.TrimSuffix(pattern, "$")
	lit := "/" + strings.TrimPrefix(strings.ReplaceAll(base, "*", ""), "/")
	urls := []string{lit, lit + "x", "/" + strings.TrimPrefix(strings.ReplaceAll(base, "*", "ab/"), "/"),
		strings.ToUpper(lit), "/x" + lit, lit + "?q=1", "/robots.txt"}
	if d, _, ok := strings.Cut(lit, "index.htm"); ok {
		urls = append(urls, d)
	}
	for k, u := range urls {
		urls[k] = "http://example.com" + u
	}
	return urls
}

// matchRuleParsed is what MatchRule stands for.
func matchRuleParsed(o reference.Options, allow bool, pattern, url string) (int, bool) {
	key := "Disallow"
	if allow {
		key = "Allow"
	}
	d, err := reference.ParseString("User-agent: a\n"+key+": "+pattern+"\n", o).Decide("a", url)
	if err != nil || d.Reason != reference.RuleMatched {
		return 0, false
	}
	return d.Rule.Length, true
}
