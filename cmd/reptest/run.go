package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/result"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
)

// runConfig is what the flags of `reptest run` ask for.
type runConfig struct {
	names                  []string
	progs                  *programs
	corpus                 corpusFlags
	profile                string
	strict, verbose, quiet bool
	sel                    selectFlags
	out                    outputFlags
	shardFlag              string
	shard                  cases.Shard
	timeout                time.Duration
	stderr                 io.Writer
	notRun                 []string // the built-in parsers that could not run
}

// cmdRun runs the corpus against parsers (docs/FORMAT.md §5): it reads the
// flags, selects the cases, runs them, and writes and judges the results.
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, code, ok := parseRunFlags(args, stderr)
	if !ok {
		return code
	}
	all, selected, sel, code := cfg.selectCases()
	if code != exitOK {
		return code
	}
	rep, interrupted, code := cfg.execute(ctx, selected)
	if code != exitOK {
		return code
	}
	meta := result.Meta{Version: reference.Version, Profile: cfg.profile, Strict: cfg.strict, Drafts: reference.ProfileDrafts(cfg.profile),
		Selection: sel, Interrupted: interrupted}
	doc := cases.NewDocument(meta, rep.Summaries, rep.Results, selected)
	var err error
	if doc.Diagnosis, err = diagnose.Fit(ctx, diagnose.FromResults(selected, rep.Results)); err != nil {
		fmt.Fprintln(stderr, "reptest run: diagnosis:", err)
	}
	if table, err := cases.RequirementTable(); err == nil {
		doc.Requirements, doc.Areas = cases.Coverage(table.Requirements, all), table.Areas
	}
	if !cfg.out.write("run", doc, stdout, stderr) {
		return exitUsage
	}
	if !cfg.quiet && !cfg.out.toStdout() {
		report.Text(stdout, doc, report.TextOptions{Verbose: cfg.verbose, Color: colorFor(stdout)})
	}
	doctorNote(stderr, "run", cfg.notRun)
	return resultStatus(doc)
}

// parseRunFlags reads the flags of `reptest run` and checks them, and the
// expected-failure file. When ok is false the command returns code.
func parseRunFlags(args []string, stderr io.Writer) (cfg *runConfig, code int, ok bool) {
	cfg = &runConfig{stderr: stderr}
	fs := newFlags("run", stderr)
	fs.Var((*multi)(&cfg.names), "parser", "a built-in parser to test (repeatable; default: reference); one of "+fmt.Sprint(parsers.Names())+", or reference+ID[+ID…], a variant with misreadings (reptest variants)")
	cfg.progs = addProgramFlags(fs)
	cfg.corpus.register(fs)
	fs.StringVar(&cfg.profile, "profile", result.ProfileRFC, "the cases to run: rfc9309, google or aipref")
	fs.BoolVar(&cfg.strict, "strict", false, "deviations (failed SHOULD checks) count against conformance")
	cfg.sel.register(fs, "run")
	cfg.out.register(fs, flagJSON|flagJUnit|flagHTML|flagBadge|flagExpect|flagWriteExpect)
	fs.StringVar(&cfg.shardFlag, "shard", "", "run only shard `K/N` of the cases")
	fs.BoolVar(&cfg.verbose, "v", false, "list every failing check with its robots.txt, verdicts and the reference's trace")
	fs.BoolVar(&cfg.quiet, "quiet", false, "print nothing but errors")
	fs.DurationVar(&cfg.timeout, "timeout", 10*time.Second, "per-check timeout; an external program must answer within half of it, or it is restarted")
	if code, ok := parseChecked(fs, args, cfg.check); !ok {
		return nil, code, false
	}
	return cfg, exitOK, true
}

// check checks the flags' values and reads the expected-failure file.
func (cfg *runConfig) check(pos []string) error {
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q", pos[0])
	}
	if cfg.timeout <= 0 {
		return fmt.Errorf("--timeout must be positive, not %s", cfg.timeout)
	}
	if err := profileError(cfg.profile); err != nil {
		return err
	}
	var err error
	if cfg.shard, err = cases.ParseShardEnv(cfg.shardFlag, os.Getenv); err != nil {
		return fmt.Errorf("--%w", err)
	}
	if err = cfg.sel.parseLevels(); err != nil {
		return err
	}
	return cfg.out.readExpect()
}

// selectFlags are the flags that select cases by id, requirement and
// level: --run, --skip and --level, shared by run and list.
type selectFlags struct {
	runGlobs, skipGlobs multi
	levelFlag           string
	levels              []result.Level // from levelFlag, by parseLevels
}

// register adds the flags; verb ("run", "list") is what the command does
// with the cases selected.
func (s *selectFlags) register(fs *flag.FlagSet, verb string) {
	s.registerGlobs(fs, verb)
	fs.StringVar(&s.levelFlag, "level", "", verb+" only cases of these `LEVELS` (comma-separated: MUST, SHOULD, MAY, interpretation)")
}

// registerGlobs adds --run and --skip alone.
func (s *selectFlags) registerGlobs(fs *flag.FlagSet, verb string) {
	fs.Var(&s.runGlobs, "run", verb+" only cases whose id or requirement ID matches the glob (repeatable)")
	fs.Var(&s.skipGlobs, "skip", "skip cases whose id or requirement ID matches the glob (repeatable)")
}

// parseLevels reads --level after the flags are parsed.
func (s *selectFlags) parseLevels() (err error) {
	s.levels, err = parseLevels(s.levelFlag)
	return err
}

// of selects the cases of profile ("" for all) the flags ask for.
func (s *selectFlags) of(all []cases.Case, profile string) []cases.Case {
	return cases.SelectLevels(cases.Select(all, profile, s.runGlobs, s.skipGlobs), s.levels)
}

// parseLevels reads a comma-separated list of levels; "" is none.
func parseLevels(s string) ([]result.Level, error) {
	var out []result.Level
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		lv, err := cases.ParseLevel(f)
		if err != nil {
			return nil, fmt.Errorf("--level: %w", err)
		}
		out = append(out, lv)
	}
	return out, nil
}

// selectCases loads the corpus and selects the cases to run, and the
// shard of them. A selection or shard with no case is a usage error (a
// mistyped glob, a profile or level without cases), not a vacuous pass.
func (cfg *runConfig) selectCases() (all, selected []cases.Case, sel *result.Selection, code int) {
	stderr := cfg.stderr
	all, err := cfg.corpus.load(stderr)
	if err != nil {
		printLoadError(stderr, err)
		return nil, nil, nil, exitUsage
	}
	selected = cfg.sel.of(all, cfg.profile)
	if !cfg.quiet {
		warnInvalid(stderr, selected)
	}
	if len(selected) == 0 {
		fmt.Fprintf(stderr, "reptest run: %s\n", emptySelection(all, cfg.profile, &cfg.sel))
		return nil, nil, nil, exitUsage
	}
	sel = &result.Selection{Cases: len(selected), Shard: "1/1", ShardCases: len(selected)}
	if cfg.shard.N > 0 {
		n := len(selected)
		if selected = cfg.shard.Cases(selected); len(selected) == 0 {
			fmt.Fprintf(stderr, "reptest run: shard %s holds none of the %d cases selected; use fewer shards\n", cfg.shard, n)
			return nil, nil, nil, exitUsage
		}
		sel.Shard, sel.ShardCases = cfg.shard.String(), len(selected)
	}
	return all, selected, sel, exitOK
}

// emptySelection says why no case was selected, pointing to another
// profile when its cases match.
func emptySelection(all []cases.Case, profile string, sel *selectFlags) string {
	msg := fmt.Sprintf("no case of profile %s matches the selection", profile)
	if len(sel.levels) > 0 {
		msg = fmt.Sprintf("no case of profile %s and level %s matches the selection", profile, joinLevels(sel.levels))
	}
	for _, other := range otherProfiles(profile) {
		if len(sel.of(all, other)) > 0 {
			return msg + fmt.Sprintf("; some cases of profile %s do (run them with --profile %s)", other, other)
		}
	}
	return msg
}

func joinLevels(levels []result.Level) string {
	s := make([]string, len(levels))
	for i, lv := range levels {
		s[i] = string(lv)
	}
	return strings.Join(s, ",")
}

// execute starts the parsers and runs the cases. interrupted, when not
// empty, says why the run stopped early (a signal); the results so far
// are kept.
func (cfg *runConfig) execute(ctx context.Context, selected []cases.Case) (rep cases.Report, interrupted string, code int) {
	stderr := cfg.stderr
	names := cfg.names
	if len(names) == 0 && cfg.progs.none() {
		names = []string{"reference"}
	}
	set, err := openParsers(ctx, names, cfg.progs, cfg.timeout)
	if err != nil {
		fmt.Fprintln(stderr, "reptest run:", err)
		return rep, "", exitUsage
	}
	defer set.Close()
	for _, u := range set.Unavailable {
		// A parser asked for that cannot run fails the run (it did not
		// run, or its checks are errors); this says why, whatever
		// --quiet says.
		if !u.Builtin {
			fmt.Fprintf(stderr, "reptest run: %s: %v; its checks are errors\n", u.Name, u.Err)
		} else {
			fmt.Fprintf(stderr, "reptest run: %s did not run: %v\n", u.Name, u.Err)
			cfg.notRun = append(cfg.notRun, u.Name)
		}
	}
	opts := cases.RunOptions{Strict: cfg.strict, Timeout: cfg.timeout, Explain: parsers.NewReference()}
	var progress *report.Progress
	if !cfg.quiet {
		progress = report.NewProgress(stderr)
		progress.Start(len(selected))
		opts.Progress = func(done, total int) { progress.Step() }
	}
	rep, err = cases.Run(ctx, selected, set.Parsers, opts)
	progress.Done()
	if err != nil {
		interrupted = interruption(ctx, err)
		fmt.Fprintln(stderr, "reptest run: interrupted:", interrupted)
	}
	return markUnavailable(rep, set.Unavailable), interrupted, exitOK
}

// interruption says why a run stopped: the signal, or ctx's error.
func interruption(ctx context.Context, err error) string {
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
		return cause.Error()
	}
	return err.Error()
}

// corpusFlags are the flags that choose the case sources of a command:
// every command that takes --corpus (run, list, crawl, diff) registers
// and loads them here, so that they read and load the same in all.
type corpusFlags struct {
	dirs         multi
	withEmbedded bool
}

func (c *corpusFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.dirs, "corpus", "a directory of YAML cases (repeatable; default: the embedded corpus)")
	fs.BoolVar(&c.withEmbedded, "with-embedded", false, "with --corpus: load the embedded corpus too (ids must be unique across all)")
}

// given reports whether a flag asks for a corpus, as opposed to the
// default of a command with no flag at all.
func (c *corpusFlags) given() bool { return len(c.dirs) > 0 || c.withEmbedded }

// String names the sources chosen, for a report of the inputs.
func (c *corpusFlags) String() string {
	names := append([]string(nil), c.dirs...)
	if len(c.dirs) == 0 || c.withEmbedded {
		names = append(names, "embedded")
	}
	return strings.Join(names, ", ")
}

// load loads the chosen sources: the embedded corpus without --corpus,
// the directories given, or both with --with-embedded. Files skipped
// with a warning are reported on stderr.
func (c *corpusFlags) load(stderr io.Writer) ([]cases.Case, error) {
	var srcs []cases.Source
	if len(c.dirs) == 0 || c.withEmbedded {
		srcs = append(srcs, cases.EmbeddedSource())
	}
	for _, d := range c.dirs {
		src, err := cases.DirSource(d)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, src)
	}
	ld := cases.Loader{Warn: func(e *cases.LoadError) { fmt.Fprintln(stderr, "warning:", e) }, Table: ownTable()}
	return ld.Load(srcs...)
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
	for _, q := range []string{result.ProfileRFC, result.ProfileGoogle, result.ProfileAIPref} {
		if q != p {
			out = append(out, q)
		}
	}
	return out
}
