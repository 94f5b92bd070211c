package diff

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/reference"
)

// TestDeriveProbesReadsAsGoogle pins where DeriveProbes, which now reads
// the file through the reference's groups under Google's options, differs
// from the line reader it replaced (RFC lines, Google's only where the
// RFC found no record): a NUL ends a line for Google, so "Disallow:
// /a<NUL>b" is a rule for "/a" and gets probes; before, its value kept the
// NUL and every probe of it was dropped. Google's reading wins because it
// is the one that makes the rule mean something to some parser, and the
// probes then show which parsers read the line as Google does (G-NUL).
// Misspelt names, a missing colon and leading tokens read as before.
func TestDeriveProbesReadsAsGoogle(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string // the probes of line 2, as "agent path kind"
	}{{
		name: "a NUL ends the rule",
		body: "User-agent: a\nDisallow: /a\x00b\n",
		want: []string{"a /a prefix", "a /ax past", "a /x/a nested", "a /A case", "a /%61 pct-enc", "a /a?q=1 query", "A /a agent-case"},
	}, {
		name: "a misspelt name, a missing colon and a leading token",
		body: "User-agent: Foo/1.0\ndisalow /b\n",
		want: []string{"Foo /b prefix", "Foo /bx past", "Foo /x/b nested", "Foo /B case", "Foo /%62 pct-enc", "Foo /b?q=1 query", "fOO /b agent-case"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range DeriveProbes([]byte(tt.body), 0) {
				if p.Line == 2 && p.Kind != "cross" {
					got = append(got, p.Agent+" "+p.URL[len(ProbeHost):]+" "+p.Kind)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("probes of line 2 (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeriveProbesFirstTierAlone checks that deriving a large file's
// first tier alone, when it fills max, gives what deriving all tiers
// gives.
func TestDeriveProbesFirstTierAlone(t *testing.T) {
	shortcuts := 0
	for seed := uint64(0); seed < 60; seed++ {
		body := []byte(CrawlBody(rand.New(rand.NewPCG(seed, 9))))
		if len(body) > 200<<10 {
			continue // slow, and no different
		}
		r := reference.Parse(body, reference.Google())
		all, first := derive(r, 3), derive(r, 0)
		for _, max := range []int{MinProbes, 78, DefaultMaxProbes} {
			if diff := cmp.Diff(keepTiers(all, max), DeriveProbes(body, max)); diff != "" {
				t.Fatalf("seed %d, %d bytes, max %d (-all tiers +DeriveProbes):\n%s", seed, len(body), max, diff)
			}
			if len(body) > oneTierBytes && len(keepTiers(first, max)) >= max {
				shortcuts++
			}
		}
	}
	if shortcuts == 0 {
		t.Error("no file took the short cut")
	}
}
