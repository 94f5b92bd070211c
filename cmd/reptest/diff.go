package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/diff/parsers"
	"github.com/reptest/reptest/report"
)

// cmdDiff compares parsers on real, generated or corpus robots.txt files
// (CASES.md §4, §5).
func cmdDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	var names, execs, commands, inputs, corpora multi
	fs.Var(&names, "parser", "a built-in parser to compare (repeatable; default: reference, grobotstxt, temoto, or reference alone beside --exec/--command); one of "+fmt.Sprint(parsers.Names()))
	fs.Var(&execs, "exec", "a command speaking the JSON-lines protocol (repeatable)")
	fs.Var(&commands, "command", "a one-process-per-check command template with %robots%, %url%, %user-agent% (repeatable)")
	allowedRE := fs.String("allowed-pattern", "", "with --command: a regular expression on stdout meaning allowed")
	disallowedRE := fs.String("disallowed-pattern", "", "with --command: a regular expression on stdout meaning disallowed")
	fs.Var(&inputs, "inputs", "a directory of robots.txt files, every regular file (repeatable)")
	fs.Var(&corpora, "corpus", "a directory of YAML cases whose checks are compared (repeatable)")
	generate := fs.Int("generate", 0, "also compare `N` generated files")
	seed := fs.Uint64("seed", 1, "the seed of --generate")
	jsonOut := fs.String("json", "", "write the findings as JSON lines to `FILE`")
	htmlOut := fs.String("html", "", "write an HTML report of the findings to `FILE`")
	summaryOut := fs.String("summary", "", "write the summary (pairs, groups) as JSON to `FILE`")
	shard := fs.String("shard", "", "compare only shard `K/N` of the inputs")
	maxProbes := fs.Int("max-probes", diff.DefaultMaxProbes, "probes derived per file at most")
	workers := fs.Int("workers", 0, "files compared at once (default: the number of CPUs)")
	top := fs.Int("top", 15, "groups shown in the summary (0: all)")
	noMin := fs.Bool("no-minimize", false, "report disagreements as found, without minimising them")
	timeout := fs.Duration("timeout", 10*time.Second, "per-check timeout")
	quiet := fs.Bool("quiet", false, "no progress and no summary, only errors")
	profile := fs.String("profile", cases.ProfileRFC, "the profile of --inputs and --generate files: rfc9309 or google (requests carry it; the reference's traces, tags and minimisation follow it)")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "reptest diff: unexpected argument %q\n", pos[0])
		return 2
	}
	if !checkProfile("diff", *profile, stderr) {
		return 2
	}
	if *generate < 0 {
		fmt.Fprintln(stderr, "reptest diff: --generate must not be negative")
		return 2
	}
	var sh diff.Shard
	if *shard != "" {
		var err error
		if sh, err = diff.ParseShard(*shard); err != nil {
			fmt.Fprintln(stderr, "reptest diff:", err)
			return 2
		}
	}

	// Inputs: corpus cases, then directories, then generated files.
	var files []diff.File
	run := &report.DiffRun{Command: commandLine("diff", args), Profile: *profile}
	if len(corpora) > 0 || len(inputs) == 0 && *generate == 0 {
		cs, err := loadCorpus(corpora)
		if err != nil {
			printLoadError(stderr, err)
			return 2
		}
		files = append(files, diff.FromCases(cs)...)
		run.Inputs = append(run.Inputs, fmt.Sprintf("corpus %s: %d cases", strings.Join(corpora, ", "), len(cs)))
	}
	for _, dir := range inputs {
		fsOf, err := diff.ReadDir(dir)
		if err != nil {
			fmt.Fprintln(stderr, "reptest diff:", err)
			return 2
		}
		files = append(files, fsOf...)
		run.Inputs = append(run.Inputs, fmt.Sprintf("%s: %d files", dir, len(fsOf)))
	}
	files = append(files, diff.Generate(*seed, *generate)...)
	if *generate > 0 {
		run.Inputs = append(run.Inputs, fmt.Sprintf("%d generated files (seed %d)", *generate, *seed))
	}
	if *shard != "" {
		run.Inputs = append(run.Inputs, "shard "+*shard)
	}
	files = sh.Select(files)

	switch {
	case len(names) == 0 && len(execs) == 0 && len(commands) == 0:
		names = multi{"reference", "grobotstxt", "temoto"}
	case len(names) == 0:
		// Your own programs are compared with the reference.
		names = multi{"reference"}
	}
	// Find the parsers that cannot run here once, and leave them out.
	ps, missing, err := openParsers(ctx, names, execs, commands, *allowedRE, *disallowedRE, *timeout)
	if err != nil {
		fmt.Fprintln(stderr, "reptest diff:", err)
		return 2
	}
	for _, p := range ps {
		run.Parsers = append(run.Parsers, p.Info())
	}
	closeParsers(ps)
	var usable multi
	for _, n := range names {
		if isUnavailable(n, missing) {
			if !*quiet {
				fmt.Fprintf(stderr, "reptest diff: %s is left out: %v\n", n, isMissing(n, missing))
			}
			continue
		}
		usable = append(usable, n)
	}
	factory := func(ctx context.Context) ([]cases.Parser, error) {
		ps, _, err := openParsers(ctx, usable, execs, commands, *allowedRE, *disallowedRE, *timeout)
		return ps, err
	}

	opts := diff.Options{Workers: *workers, MaxProbes: *maxProbes, CheckTimeout: *timeout, NoMinimize: *noMin, Profile: *profile}
	var progress *report.Progress
	if !*quiet && report.IsTerminal(stderr) {
		progress = report.NewProgress(stderr)
		progress.Start(len(files))
		opts.Progress = func(done, total, disagreements int) { progress.Step() }
	}
	rep, err := diff.Run(ctx, files, factory, opts)
	progress.Done()
	if err != nil {
		fmt.Fprintln(stderr, "reptest diff:", err)
		if ctx.Err() != nil {
			return 1
		}
		return 2
	}

	write := writer("diff", stderr)
	ok = write(*jsonOut, func(w io.Writer) error { return diff.WriteFindings(w, rep.Findings) }) &&
		write(*summaryOut, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(&rep.Summary)
		}) &&
		write(*htmlOut, func(w io.Writer) error {
			run.Summary = &rep.Summary
			run.Date = time.Now().UTC().Format(time.RFC3339)
			return writeDiffHTML(w, rep, run)
		})
	if !ok {
		return 2
	}
	if !*quiet {
		if err := diff.WriteText(stdout, &rep.Summary, *top); err != nil {
			fmt.Fprintln(stderr, "reptest diff:", err)
			return 2
		}
	}
	return 0
}

// isMissing returns the reason a parser is unavailable.
func isMissing(name string, missing []unavailable) error {
	for _, u := range missing {
		if u.name == name {
			return u.err
		}
	}
	return errors.New("unavailable")
}

// writeDiffHTML renders the run's dashboard with the report package.
func writeDiffHTML(w io.Writer, rep *diff.Report, run *report.DiffRun) error {
	doc := &report.Document{Tool: report.Tool, Version: parsers.Version, Profile: run.Profile, Findings: rep.Findings}
	return report.WriteHTML(w, doc, report.HTMLOptions{Title: "reptest: where robots.txt parsers disagree", Diff: run})
}

// commandLine writes a command as a shell would take it back.
func commandLine(cmd string, args []string) string {
	out := []string{"reptest", cmd}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}
