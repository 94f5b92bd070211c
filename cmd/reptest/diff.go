package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/diff/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
)

// cmdDiff compares parsers on real, generated or corpus robots.txt files
// (docs/FORMAT.md §4, §5).
func cmdDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	var names, inputs, corpora multi
	fs.Var(&names, "parser", "a built-in parser to compare (repeatable; default: reference, grobotstxt, temoto, or reference alone beside --exec/--command); one of "+fmt.Sprint(parsers.Names()))
	progs := addProgramFlags(fs)
	fs.Var(&inputs, "inputs", "a directory of robots.txt files (every regular file; WARC files in it are streamed), a WARC or WARC.gz file, or a listing of WARC files NAME.paths[.gz] (repeatable)")
	fs.Var(&corpora, "corpus", "a directory of YAML cases whose checks are compared (repeatable)")
	generate := fs.Int("generate", 0, "also compare `N` generated files")
	seed := fs.Uint64("seed", 1, "the seed of --generate")
	jsonOut := fs.String("json", "", "write the findings as JSON lines to `FILE`")
	htmlOut := fs.String("html", "", "write an HTML report of the findings to `FILE`")
	summaryOut := fs.String("summary", "", "write the summary (pairs, groups) as JSON to `FILE`")
	reportOut := fs.String("report", "", "write findings and summary as one JSON document to `FILE`, for reptest report to merge shards")
	printShard := fs.Bool("print-shard", false, "print the names of the shard's WARC files (as the listing gives them) and exit: a job downloads those")
	shard := fs.String("shard", "", "compare only shard `K/N` of the inputs (\"/N\": K from $JOB_COMPLETION_INDEX+1)")
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
	sh, err := cases.ParseShardEnv(*shard, os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "reptest diff:", err)
		return 2
	}

	// Inputs: corpus cases, then directories and files, then generated
	// files; WARC files are streamed after them.
	var in diff.Inputs
	run := &report.DiffRun{Command: commandLine("diff", args), Profile: *profile}
	if len(corpora) > 0 || len(inputs) == 0 && *generate == 0 {
		cs, err := loadCorpus(corpora)
		if err != nil {
			printLoadError(stderr, err)
			return 2
		}
		in.Files = append(in.Files, diff.FromCases(cs)...)
		run.Inputs = append(run.Inputs, fmt.Sprintf("corpus %s: %d cases", strings.Join(corpora, ", "), len(cs)))
	}
	for _, path := range inputs {
		files, warcs := len(in.Files), len(in.WARC)
		if err := in.AddPath(path); err != nil {
			fmt.Fprintln(stderr, "reptest diff:", err)
			return 2
		}
		desc := fmt.Sprintf("%s: %d files", path, len(in.Files)-files)
		if n := len(in.WARC) - warcs; n > 0 {
			desc += fmt.Sprintf(", %d WARC files", n)
		}
		run.Inputs = append(run.Inputs, desc)
	}
	in.Files = append(in.Files, diff.Generate(*seed, *generate)...)
	if *generate > 0 {
		run.Inputs = append(run.Inputs, fmt.Sprintf("%d generated files (seed %d)", *generate, *seed))
	}
	if *shard != "" {
		run.Inputs = append(run.Inputs, "shard "+*shard)
	}
	files, warcs := in.Select(sh)
	if *printShard {
		for _, w := range warcs {
			fmt.Fprintln(stdout, w.Name)
		}
		return 0
	}

	switch {
	case len(names) == 0 && progs.none():
		names = multi{"reference", "grobotstxt", "temoto"}
	case len(names) == 0:
		// Your own programs are compared with the reference.
		names = multi{"reference"}
	}
	// Find the parsers that cannot run here once, and leave them out.
	ps, missing, err := openParsers(ctx, names, progs, *timeout)
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
	for _, u := range missing {
		if u.prog != nil && !*quiet {
			fmt.Fprintf(stderr, "reptest diff: %s is left out: %v\n", u.name, u.err)
		}
	}
	progs = progs.without(missing)
	factory := func(ctx context.Context) ([]cases.Parser, error) {
		ps, _, err := openParsers(ctx, usable, progs, *timeout)
		return ps, err
	}

	opts := diff.Options{Workers: *workers, MaxProbes: *maxProbes, CheckTimeout: *timeout, NoMinimize: *noMin, Profile: *profile}
	var progress *report.Progress
	if !*quiet {
		progress = report.NewProgress(stderr)
		progress.Start(len(files))
		opts.Progress = func(done, total, disagreements int) { progress.Step() }
	}
	rep, err := in.Run(ctx, sh, factory, opts)
	progress.Done()
	if len(in.WARC) > 0 && !*quiet {
		st := in.Stats
		fmt.Fprintf(stderr, "reptest diff: %d WARC files, %d records, %d responses: %d successes compared (%d not text/plain), %d duplicates, %d redirects, %d unavailable, %d unreachable, %d unreadable\n",
			st.Files, st.Records, st.Responses, st.Success-st.Duplicates, st.NotText, st.Duplicates, st.Redirect, st.Unavailable, st.Unreachable, st.Unreadable)
	}
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
		}) &&
		write(*reportOut, func(w io.Writer) error { return diff.WriteReport(w, rep) })
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
	doc := &report.Document{Tool: report.Tool, Version: reference.Version, Profile: run.Profile, Findings: rep.Findings}
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
