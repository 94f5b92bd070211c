package diagnose

import "github.com/reptest/reptest/result"

// Merge combines the diagnoses of the shards of one run, parser by
// parser (result.MergeDiagnoses).
func Merge(parts ...[]result.Diagnosis) []result.Diagnosis { return result.MergeDiagnoses(parts...) }
