package casetest_test

import (
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/cases/casetest"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/result"
)

// TestReference runs the whole embedded corpus against the reference, in
// every profile (rfc9309, google and the opt-in aipref), with every capability (plain, HTTP and timeline cases)
// and strictly (a failed SHOULD fails too): a subtest per case, so that a
// reference regression shows as the case it breaks rather than only
// through the CLI's exit status.
func TestReference(t *testing.T) {
	for _, profile := range []string{result.ProfileRFC, result.ProfileGoogle, result.ProfileAIPref} {
		t.Run(profile, func(t *testing.T) {
			casetest.Test(t, parsers.NewReference(), cases.SuiteOptions{
				Profile:    profile,
				Strict:     true,
				RunOptions: cases.RunOptions{Explain: parsers.NewReference()},
			})
		})
	}
}

// parseOnly is a parser that only parses: the reference without its HTTP
// and timeline capabilities, as most parser libraries are.
type parseOnly struct{ cases.Parser }

func (p parseOnly) Info() result.Info {
	info := p.Parser.Info()
	info.Capabilities = []result.Capability{result.CapParse}
	return info
}

// The harness passes a conforming parse-only parser over the embedded
// corpus (HTTP and timeline cases are skipped for it).
func TestHarness(t *testing.T) {
	casetest.Test(t, parseOnly{parsers.NewReference()}, cases.SuiteOptions{})
}
