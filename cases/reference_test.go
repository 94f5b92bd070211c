package cases_test

import (
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
)

// TestReference runs the whole embedded corpus against the reference, in
// every profile (rfc9309, google and the opt-in aipref), with every capability (plain, HTTP and timeline cases)
// and strictly (a failed SHOULD fails too): a subtest per case, so that a
// reference regression shows as the case it breaks rather than only
// through the CLI's exit status.
func TestReference(t *testing.T) {
	for _, profile := range []string{cases.ProfileRFC, cases.ProfileGoogle, cases.ProfileAIPref} {
		t.Run(profile, func(t *testing.T) {
			cases.Test(t, parsers.NewReference(), cases.TestOptions{
				Profile:    profile,
				Strict:     true,
				RunOptions: cases.RunOptions{Explain: parsers.NewReference()},
			})
		})
	}
}
