//go:build !gofuzz_libfuzzer

package fuzz

import (
	"flag"
	"testing"
)

// fuzzing reports whether the test binary runs with -fuzz. The full-size
// hostile seeds then stay out of the mutation loop (see sizes); they still
// run in the seed pass of a plain "go test".
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

// addDocSeeds adds the (robots.txt, agent, URL) seeds: the hand-written
// ones and every check of the embedded corpus; small selects the cut-down
// hostile inputs.
func addDocSeeds(f *testing.F, small bool) {
	f.Helper()
	for _, s := range docAndCorpusSeeds(f, small) {
		f.Add(s.body, s.agent, s.url)
	}
}

// addDiffSeeds adds the seeds of FuzzDifferential: those of addDocSeeds
// with the small hostile inputs in the seed pass of a plain "go test";
// while fuzzing, without the hostile inputs the peers are slow on (see
// costlyForPeers) and with one check per corpus body and agent (see
// mutationSeeds).
func addDiffSeeds(f *testing.F) {
	f.Helper()
	seeds := docAndCorpusSeeds(f, true)
	if fuzzing() {
		seeds = mutationSeeds(seeds)
	}
	for _, s := range seeds {
		f.Add(s.body, s.agent, s.url)
	}
}

func docAndCorpusSeeds(f *testing.F, small bool) []docSeed {
	f.Helper()
	fromCorpus, err := corpusSeeds(small)
	if err != nil {
		f.Fatal(err)
	}
	return append(docSeeds(small), fromCorpus...)
}

func addMatchSeeds(f *testing.F) {
	for _, s := range matchSeeds(fuzzing()) {
		f.Add(s.pattern, s.path)
	}
}

func addInvariantSeeds(f *testing.F) {
	for _, s := range invariantSeeds() {
		f.Add(s)
	}
}

// property runs one named metamorphic property as a subtest.
func property(t *testing.T, name string, fn func(t *testing.T)) {
	t.Helper()
	t.Run(name, fn)
}
