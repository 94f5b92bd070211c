package cases

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
	"github.com/reptest/reptest/visible"
)

// SuiteOptions selects what RunSuite (and the harness casetest.Test)
// runs. The zero value runs every rfc9309 case of the embedded corpus.
type SuiteOptions struct {
	// Profile selects the cases of one profile: "rfc9309" (default),
	// "google" or "aipref".
	Profile string
	// Levels, when set, runs only cases of these levels.
	Levels []result.Level
	// Run and Skip are globs over case ids and requirement IDs, as for
	// `reptest run --run/--skip`.
	Run, Skip []string
	// Strict makes deviations (failed SHOULD checks) fail.
	Strict bool
	// Cases, when set, replaces the embedded corpus.
	Cases []Case
	// RunOptions tunes the runner (timeouts). When its Explain is nil,
	// failures are explained with the reference's trace for parse and
	// status requests.
	RunOptions RunOptions
}

// CaseReport is what a test of one case says: the messages that fail it,
// the messages that are only logged, and why it is skipped, if it is.
type CaseReport struct {
	ID       string
	Failures []string // each a failure of the case (a t.Error)
	Logs     []string // each logged only (a t.Log)
	Skip     string   // set when every check was skipped: the reason
}

// SuiteReport is the outcome of RunSuite: one report per selected case, in
// case order, and NotRun, set when the parser counts as not run at all.
type SuiteReport struct {
	Cases  []CaseReport
	NotRun string
}

// RunSuite runs the selected cases against p in one run, so that a parser
// that hangs is given up on once rather than once per case, and sorts the
// outcome into one report per case. It is what the Go harness
// (package casetest) runs; it imports no testing, so that a program may use
// it too.
func RunSuite(ctx context.Context, p Parser, opts SuiteOptions) (SuiteReport, error) {
	sel, err := selectForTest(opts)
	if err != nil {
		return SuiteReport{}, err
	}
	ro := opts.RunOptions
	ro.Strict = opts.Strict
	if ro.Explain == nil {
		ro.Explain = referenceTracer{}
	}
	rep, err := Run(ctx, sel, []Parser{p}, ro)
	if err != nil {
		return SuiteReport{}, err
	}
	return SuiteReport{
		Cases:  harnessReports(sel, rep.Results, opts.Strict),
		NotRun: notRun(p.Info(), rep.Results, opts.Strict),
	}, nil
}

// notRun says why the parser counts as not run (Summarize), or "".
func notRun(info result.Info, results []result.Result, strict bool) string {
	s := result.Summarize(result.Summary{Name: info.Name, Version: info.Version, Runtime: info.Runtime}, results, strict)
	if s.NotRun == "" {
		return ""
	}
	return fmt.Sprintf("the parser did not run: %s. Does Info declare the parser's capabilities (%q has %v)?",
		s.NotRun, info.Name, info.Capabilities)
}

// selectForTest checks the options and selects the cases.
func selectForTest(opts SuiteOptions) ([]Case, error) {
	profile := opts.Profile
	if profile == "" {
		profile = result.ProfileRFC
	}
	if profile != result.ProfileRFC && profile != result.ProfileGoogle && profile != result.ProfileAIPref {
		return nil, fmt.Errorf("cases: Profile %q: want %q, %q or %q", profile, result.ProfileRFC, result.ProfileGoogle, result.ProfileAIPref)
	}
	for _, lv := range opts.Levels {
		if lv.Rank() > result.Interpretation.Rank() {
			return nil, fmt.Errorf("cases: Levels: %q is not a level (want result.MUST, SHOULD, MAY or Interpretation)", lv)
		}
	}
	all := opts.Cases
	if all == nil {
		var err error
		if all, err = LoadEmbedded(); err != nil {
			return nil, fmt.Errorf("loading the embedded corpus: %w", err)
		}
	}
	sel := SelectLevels(Select(all, profile, opts.Run, opts.Skip), opts.Levels)
	if len(sel) == 0 {
		return nil, fmt.Errorf("cases: no case selected (profile %q, levels %q, run %q, skip %q)", profile, opts.Levels, opts.Run, opts.Skip)
	}
	return sel, nil
}

// harnessReports sorts results into one report per case, in case order.
func harnessReports(cs []Case, results []result.Result, strict bool) (reports []CaseReport) {
	byCase := make(map[string][]result.Result, len(cs))
	for _, r := range results {
		byCase[r.Case] = append(byCase[r.Case], r)
	}
	for i := range cs {
		c := &cs[i]
		cr := CaseReport{ID: c.ID}
		rs := byCase[c.ID]
		skipped := 0
		for _, r := range rs {
			switch {
			case r.Outcome == result.Skipped:
				skipped++
			case r.Outcome.Fails(strict):
				cr.Failures = append(cr.Failures, describeResult(c, r))
			case r.Outcome != result.Pass:
				cr.Logs = append(cr.Logs, describeResult(c, r))
			}
		}
		if skipped > 0 && skipped == len(rs) {
			cr.Skip = rs[0].Detail
		}
		reports = append(reports, cr)
	}
	return reports
}

// describeResult formats a non-passing result for a test log: what was
// asked, what was expected and answered, where the check is written, the
// reference's trace, and the robots.txt or the responses served.
func describeResult(c *Case, r result.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s %s): agent %q url %q: want %s", r.Outcome, r.Level, strings.Join(r.Req, ","), r.Agent, r.URL, r.Expect)
	if len(r.Accept) > 0 {
		fmt.Fprintf(&b, " (or %v)", r.Accept)
	}
	if r.Verdict != "" {
		fmt.Fprintf(&b, ", got %s", r.Verdict)
	}
	if r.Step != "" {
		fmt.Fprintf(&b, " at %s", r.Step)
	}
	if chk := checkAt(c, r.Check); chk != nil && chk.Source != "" {
		fmt.Fprintf(&b, "\n  check: %s", chk.Source)
	}
	if r.Detail != "" {
		fmt.Fprintf(&b, "\n  %s", strings.ReplaceAll(r.Detail, "\n", "\n  "))
	}
	if r.Trace != "" {
		// A trace quotes the file's lines, which may hold any byte.
		fmt.Fprintf(&b, "\n  reference: %s", visible.String(r.Trace))
	}
	switch {
	case c.Robots != nil:
		b.WriteString("\n  robots.txt:")
		writeNumbered(&b, c.Robots)
	case len(c.Fetch) > 0:
		b.WriteString("\n  served:")
		for _, resp := range c.Fetch {
			writeServed(&b, resp)
		}
	case len(c.Timeline) > 0:
		b.WriteString("\n  served, step by step:")
		for _, st := range c.Timeline {
			fmt.Fprintf(&b, "\n    at %s:", FormatAt(st.At))
			writeServed(&b, st.Response)
		}
	}
	return b.String()
}

// checkAt returns the check of index i, counted as the runner counts.
func checkAt(c *Case, i int) *Check {
	if all := c.AllChecks(); i >= 0 && i < len(all) {
		return all[i]
	}
	return nil
}

// writeNumbered writes a body as numbered lines, with bytes that are not
// printable UTF-8 shown as escapes (package visible), so that a test log
// stays text.
func writeNumbered(b *strings.Builder, body []byte) {
	const maxLines, maxLine = 40, 200
	lines := reference.SplitLines(string(body))
	for n, line := range lines {
		if n == maxLines {
			fmt.Fprintf(b, "\n    … %d more lines", len(lines)-maxLines)
			return
		}
		cut := ""
		if len(line) > maxLine {
			line, cut = line[:maxLine], fmt.Sprintf(" … (%d bytes)", len(line))
		}
		fmt.Fprintf(b, "\n  %4d| %s%s", n+1, visible.String(line), cut)
	}
}

func writeServed(b *strings.Builder, r Response) {
	fmt.Fprintf(b, "\n    %s → ", r.URL)
	if r.Status != 0 {
		fmt.Fprintf(b, "%d", r.Status)
	}
	if r.Fault != "" {
		fmt.Fprintf(b, " fault %s", r.Fault)
	}
	keys := make([]string, 0, len(r.Headers))
	for k := range r.Headers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, ", %s: %s", k, visible.String(r.Headers[k]))
	}
	if n := r.bodySize(); n > 0 {
		fmt.Fprintf(b, ", %d-byte body", n)
	}
	if len(r.Body) > 0 && len(r.Body) <= 200 {
		fmt.Fprintf(b, " \"%s\"", visible.String(string(r.Body)))
	}
}

// referenceTracer explains failures in the harness with the reference's
// decision, for parse and status requests (fetching needs the test
// server's history, which the reference adapter of package parsers
// keeps: set RunOptions.Explain to it for traces of HTTP cases).
type referenceTracer struct{}

func (referenceTracer) Trace(_ context.Context, req Request) (Explanation, error) {
	opts, _ := reference.OptionsFor(req.Profile)
	var d reference.Decision
	var err error
	switch req.Kind() {
	case result.CapFetch:
		return Explanation{}, fmt.Errorf("no trace for fetch requests")
	case result.CapStatus:
		d, err = reference.FromStatus(req.Status, req.Robots, opts).Decide(req.Agent, req.URL)
	default:
		d, err = reference.Parse(req.Robots, opts).Decide(req.Agent, req.URL)
	}
	if err != nil {
		return Explanation{}, err
	}
	return ExplainDecision(d), nil
}

// SelectLevels returns the cases of cs whose level is one of levels, in
// order; all of cs when levels is empty. It reuses cs's storage.
func SelectLevels(cs []Case, levels []result.Level) []Case {
	if len(levels) == 0 {
		return cs
	}
	return slices.DeleteFunc(cs, func(c Case) bool { return !slices.Contains(levels, c.Level) })
}

// ParseLevel reads a level as a person writes it: MUST, SHOULD, MAY or
// interpretation, in any case.
func ParseLevel(s string) (result.Level, error) {
	for _, lv := range []result.Level{result.MUST, result.SHOULD, result.MAY, result.Interpretation} {
		if strings.EqualFold(s, string(lv)) {
			return lv, nil
		}
	}
	return "", fmt.Errorf("level %q: want MUST, SHOULD, MAY or interpretation", s)
}
