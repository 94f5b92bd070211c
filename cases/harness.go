package cases

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestOptions selects what Test runs. The zero value runs every rfc9309
// case of the embedded corpus.
type TestOptions struct {
	// Profile selects the cases of one profile: "rfc9309" (default) or
	// "google".
	Profile string
	// Levels, when set, runs only cases of these levels.
	Levels []Level
	// Run and Skip are globs over case ids and requirement IDs, as for
	// `reptest run --run/--skip`.
	Run, Skip []string
	// Strict makes deviations (failed SHOULD checks) fail the test.
	Strict bool
	// Cases, when set, replaces the embedded corpus.
	Cases []Case
	// RunOptions tunes the runner (timeouts).
	RunOptions RunOptions
}

// Test runs the corpus against p as subtests of t, one per case, named by
// case id, in the manner of testing/fstest.TestFS: a parser author calls it
// from one test function of their own. Violations and errors fail the
// subtest; deviations and notes are logged (deviations fail with Strict);
// a case whose every check is skipped (the parser lacks a capability) is
// skipped.
func Test(t *testing.T, p Parser, opts TestOptions) {
	t.Helper()
	all := opts.Cases
	if all == nil {
		var err error
		if all, err = LoadEmbedded(); err != nil {
			t.Fatalf("loading the embedded corpus: %v", err)
		}
	}
	profile := opts.Profile
	if profile == "" {
		profile = ProfileRFC
	}
	sel, err := Select(all, profile, opts.Run, opts.Skip)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.Levels) > 0 {
		sel = slices.DeleteFunc(sel, func(c Case) bool { return !slices.Contains(opts.Levels, c.Level) })
	}
	if len(sel) == 0 {
		t.Fatalf("no case selected (profile %q, run %q, skip %q)", profile, opts.Run, opts.Skip)
	}
	ro := opts.RunOptions
	ro.Strict = opts.Strict
	for _, c := range sel {
		t.Run(c.ID, func(t *testing.T) {
			rep, err := Run(context.Background(), []Case{c}, []Parser{p}, ro)
			if err != nil {
				t.Fatal(err)
			}
			skipped := 0
			for _, r := range rep.Results {
				msg := describeResult(&c, r)
				switch r.Outcome {
				case Violation, Error:
					t.Error(msg)
				case Deviation:
					if opts.Strict {
						t.Error(msg)
					} else {
						t.Log(msg)
					}
				case Note:
					t.Log(msg)
				case Skipped:
					skipped++
				}
			}
			if skipped == len(rep.Results) && skipped > 0 {
				t.Skip(rep.Results[0].Detail)
			}
		})
	}
}

// describeResult formats a non-passing result for a test log.
func describeResult(c *Case, r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s %s", r.Outcome, r.Level, strings.Join(r.Req, ","))
	if c.Source != "" {
		fmt.Fprintf(&b, ", %s", c.Source)
	}
	fmt.Fprintf(&b, "): agent %q url %q: want %s", r.Agent, r.URL, r.Expect)
	if len(r.Accept) > 0 {
		fmt.Fprintf(&b, " (or %v)", r.Accept)
	}
	if r.Verdict != "" {
		fmt.Fprintf(&b, ", got %s", r.Verdict)
	}
	if r.Step != "" {
		fmt.Fprintf(&b, " at %s", r.Step)
	}
	if r.Detail != "" {
		fmt.Fprintf(&b, "\n%s", r.Detail)
	}
	if c.Robots != nil && r.Outcome != Skipped {
		body := string(c.Robots)
		if len(body) > 2000 {
			body = body[:2000] + "…"
		}
		fmt.Fprintf(&b, "\nrobots.txt:\n%s", body)
	}
	return b.String()
}
