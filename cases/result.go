package cases

import "github.com/reptest/reptest/result"

// The result types live in package result, the one result document;
// these names keep the runner's callers reading as before.

// Outcome is how one check of one parser ended (result.Outcome).
type Outcome = result.Outcome

// The outcomes.
const (
	Pass      = result.Pass
	Note      = result.Note
	Deviation = result.Deviation
	Violation = result.Violation
	Error     = result.Error
	Skipped   = result.Skipped
)

// Result is the outcome of one check of one case for one parser.
type Result = result.Result

// Summary counts one parser's outcomes.
type Summary = result.Summary

// OutcomeOf maps a verdict to its outcome for a check of the given level.
func OutcomeOf(level Level, expect Verdict, accept []Verdict, got Verdict) Outcome {
	return result.OutcomeOf(level, expect, accept, got)
}

// Summarize is result.Summarize.
func Summarize(base Summary, results []Result, strict bool) Summary {
	return result.Summarize(base, results, strict)
}
