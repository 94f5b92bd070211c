//go:build gofuzz_libfuzzer

package fuzz

import "testing"

// Under OSS-Fuzz (go-118-fuzz-build, which sets the gofuzz_libfuzzer tag),
// f.Add does nothing and the FuzzX function runs once per input, so seeds
// are not built here: they come from the <Target>_seed_corpus.zip files
// that TestWriteOSSFuzzSeeds writes.

func fuzzing() bool { return true }

func addDocSeeds(*testing.F, bool) {}

func addDiffSeeds(*testing.F) {}

func addMatchSeeds(*testing.F) {}

func addInvariantSeeds(*testing.F) {}

// property runs fn directly: the libFuzzer build's T has no subtests. A
// failure still names the property, as every message starts with it.
func property(t *testing.T, name string, fn func(t *testing.T)) {
	fn(t)
}
