package reference_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/reptest/reptest/reference"
	"github.com/temoto/robotstxt"
)

// realworldDir is where the collection of real robots.txt files is looked
// for: $REPTEST_REALWORLD, or a "shared/realworld" folder beside the
// checkout.
func realworldDir() string {
	if d := os.Getenv("REPTEST_REALWORLD"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "realworld")
}

// realworld reads every *.txt file of the real-world collection, in name
// order, or skips the benchmark when the collection is absent.
func realworld(b *testing.B) (bodies []string, total int64) {
	dir := realworldDir()
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) == 0 {
		b.Skipf("no real-world robots.txt files in %s: set REPTEST_REALWORLD to the collection's folder", dir)
	}
	slices.Sort(names)
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, string(data))
		total += int64(len(data))
	}
	return bodies, total
}

// The agent and URL each file is asked about: a crawler most files name or
// fall back to "*" for, and a path deep enough to meet rules.
const (
	realworldAgent = "Googlebot"
	realworldURL   = "https://www.example.com/search/about/index.html?q=1"
)

// BenchmarkRealworld decides one URL on each real-world file, parse
// included, on the reference and the Go peers in one run; the MB/s figure
// is per byte of robots.txt:
//
//	go test ./reference -run '^$' -bench BenchmarkRealworld -benchmem
func BenchmarkRealworld(b *testing.B) {
	bodies, total := realworld(b)
	path := reference.PathQuery(realworldURL)
	for _, p := range []struct {
		name   string
		decide func(body string)
	}{
		{"once/reference", func(body string) {
			reference.AllowedOnce(body, reference.RFC(), realworldAgent, realworldURL)
		}},
		{"once/reference-google", func(body string) {
			reference.AllowedOnce(body, reference.Google(), realworldAgent, realworldURL)
		}},
		{"parse/reference", func(body string) {
			reference.ParseString(body, reference.RFC()).Allowed(realworldAgent, realworldURL)
		}},
		{"parse/reference-google", func(body string) {
			reference.ParseString(body, reference.Google()).Allowed(realworldAgent, realworldURL)
		}},
		{"once/grobotstxt", func(body string) {
			grobotstxt.AgentAllowed(body, realworldAgent, realworldURL)
		}},
		{"parse/temoto", func(body string) {
			if r, err := robotstxt.FromString(body); err == nil {
				r.TestAgent(path, realworldAgent)
			}
		}},
	} {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, body := range bodies {
					p.decide(body)
				}
			}
		})
	}
}
