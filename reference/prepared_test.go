package reference_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/reference"
)

// TestReusedFileDecidesAlike checks that a parsed file gives the same
// decisions, traces included, before and after it compiles its groups for
// reuse (from its second decision on), under every option set and
// misreading, large (indexed) groups included, with decisions made
// concurrently while the groups are compiled.
func TestReusedFileDecidesAlike(t *testing.T) {
	bodies := []string{file21, rfc951,
		"User-agent: *\nDisallow: /a%7eb\nDisallow: /ツ/\nAllow: /x**y$\nDisallow: /p$q\nAllow: /d/index.html\nDisallow:\n",
		"Disallow: /orphan\nAllow: /orphan/ok\nUser-agent: FooBot\nUser-agent: BarBot\nAllow: /a\nDisallow: /a\n\nUser-agent: foobot\nDisallow: /a/b$\nAllow: /*b\n",
		"User-agent: *\nAllow: /page\nDisallow: /*.htm\nAllow: /index.htm\nDisallow: /\nAllow: /$\nDisallow: /" + strings.Repeat("%7e", 400) + "\n",
		largeGroup,
	}
	agents := []string{"FooBot", "barbot", "Googlebot", "Other"}
	urls := []string{"/", "/a", "/a/b", "/a/bb", "/orphan/ok", "/page.htm", "/index.html", "/d/", "/a~b", "/p$q", "/xzy",
		"/private/press/release?id=1", "/%E3%83%84/x", "/robots.txt", "/" + strings.Repeat("~", 400) + "x",
		"/A/b", "/aa", "/b/index.html", "/b/", "/c1/x.PDF", "/c1/x.pdf?q", "/z", "/r9/s$", "/%61/b"}
	opts := []reference.Options{reference.RFC(), reference.Google()}
	orphans := reference.RFC()
	orphans.OrphanRulesApply = true
	opts = append(opts, orphans)
	for _, m := range reference.Misreadings() {
		if m.ForParsers() {
			o := reference.RFC()
			m.Apply(&o)
			opts = append(opts, o)
		}
	}
	for _, o := range opts {
		for _, body := range bodies {
			var first []reference.Decision
			for _, a := range agents {
				for _, u := range urls {
					// A fresh file per question: its first decision.
					d, err := reference.ParseString(body, o).Decide(a, u)
					if err != nil {
						t.Fatal(err)
					}
					first = append(first, d)
				}
			}
			r := reference.ParseString(body, o)
			var wg sync.WaitGroup
			for range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					i := 0
					for _, a := range agents {
						for _, u := range urls {
							d, _ := r.Decide(a, u)
							ok, _ := r.Allowed(a, u)
							if diff := cmp.Diff(first[i], d); diff != "" || ok != d.Allowed {
								t.Errorf("%s: %q, %q on %q: reused file decides otherwise (-first +reused, Allowed %v):\n%s", o.Name, a, u, body, ok, diff)
							}
							i++
						}
					}
				}()
			}
			wg.Wait()
		}
	}
}

// largeGroup is a file whose groups have enough rules to be indexed by
// their literal prefixes: rules of every prefix length, wildcards,
// anchors, escapes, equal lengths of both kinds and derived rules.
var largeGroup = func() string {
	var b strings.Builder
	b.WriteString("User-agent: *\nUser-agent: FooBot\n")
	for i := range 40 {
		fmt.Fprintf(&b, "Disallow: /c%d/\nAllow: /c%d/*.pdf$\nDisallow: /r%d/s$\n", i%7, i%5, i)
	}
	b.WriteString("Disallow: /\nAllow: /a\nDisallow: /*b\nAllow: *a\nDisallow: a/b\nAllow: /b/index.html\nDisallow: /%61/\nAllow: /z\nDisallow: /z\nAllow: /A/\nDisallow: /$\n")
	b.WriteString("\nUser-agent: barbot\n")
	for i := range 30 {
		fmt.Fprintf(&b, "Allow: /%c%d\nDisallow: /%c\n", 'a'+i%26, i, 'a'+i%3)
	}
	return b.String()
}()
