package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
)

// cmdRun runs the corpus against parsers (docs/FORMAT.md §5).
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	var names, corpora, runGlobs, skipGlobs multi
	fs.Var(&names, "parser", "a built-in parser to test (repeatable; default: reference); one of "+fmt.Sprint(parsers.Names()))
	progs := addProgramFlags(fs)
	fs.Var(&corpora, "corpus", "a directory of YAML cases (repeatable; default: the embedded corpus)")
	profile := fs.String("profile", cases.ProfileRFC, "the cases to run: rfc9309, google or aipref")
	strict := fs.Bool("strict", false, "deviations (failed SHOULD checks) count against conformance")
	fs.Var(&runGlobs, "run", "run only cases whose id or requirement ID matches the glob (repeatable)")
	fs.Var(&skipGlobs, "skip", "skip cases whose id or requirement ID matches the glob (repeatable)")
	jsonOut := fs.String("json", "", "write the results as JSON to `FILE`")
	junitOut := fs.String("junit", "", "write JUnit XML to `FILE`")
	htmlOut := fs.String("html", "", "write a self-contained HTML report to `FILE`")
	badgeDir := fs.String("badge", "", "write a shields.io endpoint JSON per parser into `DIR`")
	expectFile := fs.String("expect", "", "a YAML file of expected failures; only new failures fail the run")
	shard := fs.String("shard", "", "run only shard `K/N` of the cases")
	verbose := fs.Bool("v", false, "list every failing check with its robots.txt, verdicts and the reference's trace")
	quiet := fs.Bool("quiet", false, "print nothing but errors")
	timeout := fs.Duration("timeout", 10*time.Second, "per-check timeout; an external program must answer within half of it, or it is restarted")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "reptest run: unexpected argument %q\n", pos[0])
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintf(stderr, "reptest run: --timeout must be positive, not %s\n", *timeout)
		return 2
	}
	if !checkProfile("run", *profile, stderr) {
		return 2
	}
	sh, err := cases.ParseShard(*shard)
	if err != nil {
		fmt.Fprintln(stderr, "reptest run:", err)
		return 2
	}
	var expect *report.Expectations
	if *expectFile != "" {
		f, err := os.Open(*expectFile)
		if err != nil {
			fmt.Fprintln(stderr, "reptest run:", err)
			return 2
		}
		expect, err = report.ReadExpectations(f, *expectFile)
		f.Close()
		if err != nil {
			fmt.Fprintln(stderr, "reptest run:", err)
			return 2
		}
	}

	all, err := loadCorpus(corpora)
	if err != nil {
		printLoadError(stderr, err)
		return 2
	}
	selected := cases.Select(all, *profile, runGlobs, skipGlobs)
	if !*quiet {
		warnInvalid(stderr, selected)
	}
	if len(selected) == 0 {
		// Nothing to run is a mistake (a glob or a profile), not a pass.
		fmt.Fprintf(stderr, "reptest run: no case of profile %s matches the selection", *profile)
		for _, other := range otherProfiles(*profile) {
			if cs := cases.Select(all, other, runGlobs, skipGlobs); len(cs) > 0 {
				fmt.Fprintf(stderr, "; some cases of profile %s do (run them with --profile %s)", other, other)
				break
			}
		}
		fmt.Fprintln(stderr)
		return 2
	}
	selected = sh.Cases(selected)

	if len(names) == 0 && progs.none() {
		names = multi{"reference"}
	}
	ps, unavailable, err := openParsers(ctx, names, progs, *timeout)
	if err != nil {
		fmt.Fprintln(stderr, "reptest run:", err)
		return 2
	}
	defer closeParsers(ps)
	for _, u := range unavailable {
		switch {
		case u.prog != nil:
			fmt.Fprintf(stderr, "reptest run: %s: %v; its checks are errors\n", u.name, u.err)
		case !*quiet:
			fmt.Fprintf(stderr, "reptest run: %s is skipped: %v\n", u.name, u.err)
		}
	}

	opts := cases.RunOptions{Strict: *strict, Timeout: *timeout, Explain: parsers.NewReference()}
	var progress *report.Progress
	if !*quiet && report.IsTerminal(stderr) {
		progress = report.NewProgress(stderr)
		progress.Start(len(selected))
		opts.Progress = func(done, total int) { progress.Step() }
	}
	rep, err := cases.Run(ctx, selected, ps, opts)
	if progress != nil {
		progress.Done()
	}
	if err != nil {
		fmt.Fprintln(stderr, "reptest run: interrupted:", err)
	}
	rep = markUnavailable(rep, unavailable)

	doc := report.FromResults(report.Meta{Version: reference.Version, Profile: *profile, Strict: *strict, Drafts: reference.ProfileDrafts(*profile)}, rep.Summaries, rep.Results, selected)
	if reqs, err := cases.Requirements(); err == nil {
		doc.Requirements = cases.Coverage(reqs, all)
	}
	if expect != nil {
		doc.ApplyExpectations(expect)
	}
	if code := writeOutputs(doc, *jsonOut, *junitOut, *htmlOut, *badgeDir, stderr); code != 0 {
		return code
	}
	if !*quiet {
		report.Text(stdout, doc, report.TextOptions{Verbose: *verbose, Color: report.IsTerminal(stdout)})
	}
	if err != nil {
		return 1
	}
	if expect != nil {
		if doc.ShouldFail() {
			return 1
		}
		return 0
	}
	for _, s := range doc.Parsers {
		if !s.Conforms && !isUnavailable(s.Name, unavailable) {
			return 1
		}
	}
	return 0
}

// loadCorpus loads the given directories, or the embedded corpus.
func loadCorpus(dirs []string) ([]cases.Case, error) {
	if len(dirs) == 0 {
		return cases.LoadEmbedded()
	}
	return cases.LoadDirs(dirs...)
}

// warnInvalid prints, for each check the loader marked invalid, where it
// is and why it will be skipped.
func warnInvalid(w io.Writer, cs []cases.Case) {
	for i := range cs {
		for _, chk := range cs[i].AllChecks() {
			if chk.Invalid != "" {
				fmt.Fprintln(w, "warning:", chk.Invalid)
			}
		}
	}
}

// printLoadError prints each problem of a failed load on its own line.
func printLoadError(w io.Writer, err error) {
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			fmt.Fprintln(w, e)
		}
		return
	}
	var le *cases.LoadError
	if errors.As(err, &le) {
		fmt.Fprintln(w, err)
		return
	}
	fmt.Fprintln(w, "reptest:", err)
}

// otherProfiles names the profiles that are not p.
func otherProfiles(p string) []string {
	var out []string
	for _, q := range []string{cases.ProfileRFC, cases.ProfileGoogle, cases.ProfileAIPref} {
		if q != p {
			out = append(out, q)
		}
	}
	return out
}
