// Package casetest is the Go harness of reptest: a parser author calls Test
// from a test of their own to run the corpus against their parser, in the
// manner of testing/fstest.TestFS.
//
// It is a package of its own so that package cases, which the reptest
// binary links, does not import testing.
package casetest

import (
	"testing"

	"github.com/reptest/reptest/cases"
)

// Test runs the corpus against p as subtests of t, one per case, named by
// case id. Violations and errors fail the subtest; deviations and notes are
// logged (deviations fail with opts.Strict); a case whose every check is
// skipped (the parser lacks a capability) is skipped. If no check runs at
// all, t fails: the parser was not tested.
//
// All cases run first, in one run (cases.RunSuite), so that a parser that
// hangs is given up on once rather than once per case; the subtests then
// report.
func Test(t *testing.T, p cases.Parser, opts cases.SuiteOptions) {
	t.Helper()
	rep, err := cases.RunSuite(t.Context(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range rep.Cases {
		t.Run(cr.ID, func(t *testing.T) {
			for _, m := range cr.Logs {
				t.Log(m)
			}
			for _, m := range cr.Failures {
				t.Error(m)
			}
			if cr.Skip != "" {
				t.Skip(cr.Skip)
			}
		})
	}
	if rep.NotRun != "" {
		t.Error(rep.NotRun)
	}
}
