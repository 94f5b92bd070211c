package reference_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/reptest/reptest/reference"
	"github.com/temoto/robotstxt"
)

// The side-by-side benchmarks: every workload on the reference and on the
// Go peers, in one run:
//
//	go test ./reference -run '^$' -bench BenchmarkCompare -benchmem

const file21 = `# Robots for www.example.com
User-agent: Googlebot
Disallow: /search
Allow: /search/about
Disallow: /*.pdf$

User-agent: BadBot
Disallow: /

User-agent: *
Disallow: /cgi-bin/
Disallow: /tmp/
Disallow: /private/
Allow: /private/press/
Disallow: /*?sessionid=
Disallow: /cart
Disallow: /checkout
Crawl-delay: 10

Sitemap: https://www.example.com/sitemap.xml
Sitemap: https://www.example.com/news.xml
`

// file500k builds a 500 KiB file that looks like a large real one: many
// groups of a few agents, rules with wildcards, comments and sitemaps.
func file500k() string {
	var b strings.Builder
	for i := 0; b.Len() < reference.ParseLimit-200; i++ {
		fmt.Fprintf(&b, "# section %d\nUser-agent: bot%c%c\nUser-agent: crawler-%c\n", i, 'a'+i%26, 'a'+i/26%26, 'a'+i%26)
		for j := 0; j < 8; j++ {
			switch j % 4 {
			case 0:
				fmt.Fprintf(&b, "Disallow: /section-%d/page-%d/\n", i, j)
			case 1:
				fmt.Fprintf(&b, "Allow: /section-%d/page-%d/public/\n", i, j)
			case 2:
				fmt.Fprintf(&b, "Disallow: /*/item-%d-%d*.json$\n", i, j)
			default:
				fmt.Fprintf(&b, "Disallow: /search?q=%d&*\n", j)
			}
		}
		if i%10 == 0 {
			fmt.Fprintf(&b, "Sitemap: https://www.example.com/sitemap-%d.xml\n\n", i)
		}
	}
	return b.String()
}

type workload struct {
	name       string
	robots     string
	agent, url string
}

func BenchmarkCompare(b *testing.B) {
	stars := "User-agent: *\nDisallow: /" + strings.Repeat("a*", 50) + "z\n"
	var rules20k strings.Builder
	rules20k.WriteString("User-agent: *\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&rules20k, "Disallow: /p%d*x$\n", i)
	}
	works := []workload{
		{"check-21-lines", file21, "FooBot", "https://www.example.com/private/press/release?id=1"},
		{"parse-500k", file500k(), "botaa", "https://www.example.com/section-0/page-0/x"},
		{"stars-50-100k", stars, "FooBot", "https://www.example.com/" + strings.Repeat("a", 100_000)},
		{"rules-20000", rules20k.String(), "FooBot", "https://www.example.com/p19999/abcx"},
	}
	for _, w := range works {
		b.Run(w.name+"/reference", func(b *testing.B) {
			b.SetBytes(int64(len(w.robots)))
			if w.name != "parse-500k" {
				// One decision per file: the reference's one-shot mode,
				// like grobotstxt's only mode. The parse-* workloads below
				// show the same through a full parse.
				for i := 0; i < b.N; i++ {
					if _, err := reference.AllowedOnce(w.robots, reference.RFC(), w.agent, w.url); err != nil {
						b.Fatal(err)
					}
				}
				return
			}
			for i := 0; i < b.N; i++ {
				r := reference.ParseString(w.robots, reference.RFC())
				if w.name == "parse-500k" {
					continue
				}
				if _, err := r.Allowed(w.agent, w.url); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(w.name+"/grobotstxt", func(b *testing.B) {
			b.SetBytes(int64(len(w.robots)))
			for i := 0; i < b.N; i++ {
				// grobotstxt parses on every call; it has no separate parse.
				grobotstxt.AgentAllowed(w.robots, w.agent, w.url)
			}
		})
		b.Run(w.name+"/temoto", func(b *testing.B) {
			b.SetBytes(int64(len(w.robots)))
			path := reference.PathQuery(w.url)
			for i := 0; i < b.N; i++ {
				r, err := robotstxt.FromString(w.robots)
				if err != nil {
					b.Fatal(err)
				}
				if w.name == "parse-500k" {
					continue
				}
				r.TestAgent(path, w.agent)
			}
		})
	}
	// check-21-lines and rules-20000 through a full parse, for comparison
	// with the one-shot mode above.
	for _, w := range []workload{works[0], works[3]} {
		b.Run("parse-"+w.name+"/reference", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r := reference.ParseString(w.robots, reference.RFC())
				if _, err := r.Allowed(w.agent, w.url); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// match-parsed: one decision on an already parsed file.
	url := "https://www.example.com/private/press/release?id=1"
	b.Run("match-parsed/reference", func(b *testing.B) {
		r := reference.ParseString(file21, reference.RFC())
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := r.Allowed("FooBot", url); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("match-parsed/temoto", func(b *testing.B) {
		r, _ := robotstxt.FromString(file21)
		path := reference.PathQuery(url)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r.TestAgent(path, "FooBot")
		}
	})
}

// The reference's verdicts on the benchmark workloads, so that a fast
// wrong answer cannot hide in the benchmark.
func TestCompareWorkloads(t *testing.T) {
	r := reference.ParseString(file21, reference.RFC())
	if ok, _ := r.Allowed("FooBot", "https://www.example.com/private/press/release?id=1"); !ok {
		t.Error("check-21-lines: /private/press/ should be allowed")
	}
	big := reference.ParseString(file500k(), reference.RFC())
	if big.Truncated() || len(big.Agents()) < 100 {
		t.Errorf("parse-500k: truncated=%v agents=%d", big.Truncated(), len(big.Agents()))
	}
	if ok, _ := big.Allowed("botaa", "/section-0/page-0/x"); ok {
		t.Error("parse-500k: /section-0/page-0/x should be disallowed for botaa")
	}
}
