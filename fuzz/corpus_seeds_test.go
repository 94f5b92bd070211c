//go:build !gofuzz_libfuzzer

package fuzz

import (
	"fmt"

	"github.com/reptest/reptest/cases"
)

// smallCorpusBody is the largest corpus body that seeds the mutation loop
// (see sizes for why large seeds hurt while fuzzing).
const smallCorpusBody = 4 << 10

// corpusSeeds returns every check of the embedded corpus's plain cases (a
// body, not an HTTP exchange) as a (robots.txt, agent, URL) seed. With
// small, bodies over smallCorpusBody bytes are left out.
func corpusSeeds(small bool) ([]docSeed, error) {
	cs, err := cases.LoadEmbedded()
	if err != nil {
		return nil, fmt.Errorf("loading the embedded corpus for seeds: %w", err)
	}
	var seeds []docSeed
	for _, c := range cs {
		if c.Robots == nil || small && len(c.Robots) > smallCorpusBody {
			continue
		}
		for i, chk := range c.Checks {
			seeds = append(seeds, docSeed{name: fmt.Sprintf("%s#%d", c.ID, i), body: c.Robots, agent: chk.Agent, url: chk.URL})
		}
	}
	return seeds, nil
}
