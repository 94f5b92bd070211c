package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

// diffOptions is what the flags of `reptest diff` ask for.
type diffOptions struct {
	names, inputs                           multi
	corpus                                  corpusFlags
	progs                                   *programs
	generate                                int
	seed                                    uint64
	jsonOut, htmlOut, summaryOut, reportOut string
	printShard, noMin, quiet                bool
	shardFlag, profile                      string
	shard                                   cases.Shard
	maxProbes, workers, top                 int
	timeout                                 time.Duration
	leftOut                                 []string // the parsers asked for that could not run: the run exits 1, as run does
	cacheDir                                string
	noCache                                 bool
	cacheMB                                 int64
	// identities says, by parser name, what identifies an external
	// program's answers (diff.Options.Identities).
	identities map[string]string
	// findings holds the run's findings, which are kept on disk
	// (diff.Options.SpillFindings) so that a large run's memory does
	// not grow with its inputs.
	findings *diff.FindingsFile
}

// cmdDiff compares parsers on real, generated or corpus robots.txt files
// (docs/FORMAT.md §4, §5): it reads the flags, gathers the inputs, finds
// the parsers that run here, compares them and writes the findings.
func cmdDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, code, ok := parseDiffFlags(args, stderr)
	if !ok {
		return code
	}
	run := &result.RunInfo{Command: commandLine("diff", args), Profile: o.profile}
	in, ok := o.gatherInputs(run, stderr)
	if !ok {
		return 2
	}
	files, warcs := in.Select(o.shard)
	if o.printShard {
		for _, w := range warcs {
			fmt.Fprintln(stdout, w.Name)
		}
		return 0
	}
	factory, ok := o.parserFactory(ctx, run, stderr)
	if !ok {
		return 2
	}
	doc, code := o.compare(ctx, in, len(files), factory, run, stderr)
	if code == 0 {
		code = o.writeOutputs(doc, stdout, stderr)
	}
	if code == 0 && doc.Interrupted {
		code = 1 // an interrupted run fails, whatever it found
	}
	doctorNote(stderr, "diff", o.leftOut)
	if code == 0 && len(o.leftOut) > 0 {
		fmt.Fprintf(stderr, "reptest diff: exit 1: asked for but did not run: %s\n", strings.Join(o.leftOut, ", "))
		code = 1
	}
	return code
}

// parseDiffFlags reads the flags of `reptest diff` and checks them. When
// ok is false the command returns code.
func parseDiffFlags(args []string, stderr io.Writer) (o *diffOptions, code int, ok bool) {
	o = &diffOptions{}
	fs := newFlags("diff", stderr)
	fs.Var(&o.names, "parser", "a built-in parser to compare (repeatable; default: reference, grobotstxt, temoto, or reference alone beside --exec/--command); one of "+fmt.Sprint(parsers.Names())+", or reference+ID[+ID…], a variant with misreadings (reptest variants)")
	o.progs = addProgramFlags(fs)
	fs.Var(&o.inputs, "inputs", "a directory of robots.txt files (every regular file; WARC files in it are streamed), a WARC or WARC.gz file, or a listing of WARC files NAME.paths[.gz] (repeatable)")
	o.corpus.register(fs)
	fs.IntVar(&o.generate, "generate", 0, "also compare `N` generated files")
	fs.Uint64Var(&o.seed, "seed", 1, "the seed of --generate")
	outputVar(fs, &o.jsonOut, "json", "write the findings as JSON lines to `FILE`")
	outputVar(fs, &o.htmlOut, "html", "write an HTML report of the findings to `FILE`")
	outputVar(fs, &o.summaryOut, "summary", "write the summary (pairs, groups) as JSON to `FILE`")
	outputVar(fs, &o.reportOut, "report", "write findings and summary as one JSON document to `FILE`, for reptest report to merge shards")
	fs.BoolVar(&o.printShard, "print-shard", false, "print the names of the shard's WARC files (as the listing gives them) and exit: a job downloads those")
	fs.StringVar(&o.shardFlag, "shard", "", "compare only shard `K/N` of the inputs (\"/N\": K from $JOB_COMPLETION_INDEX+1)")
	fs.IntVar(&o.maxProbes, "max-probes", diff.DefaultMaxProbes, "probes derived per file at most")
	fs.IntVar(&o.workers, "workers", 0, "files compared at once (default: the number of CPUs)")
	fs.IntVar(&o.top, "top", 15, "groups shown in the summary (0: all)")
	fs.BoolVar(&o.noMin, "no-minimize", false, "report disagreements as found, without minimising them")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "per-check timeout; an external program must answer within half of it, and the questions about one body get the sum of theirs")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress and no summary, only errors")
	fs.StringVar(&o.cacheDir, "cache", "", "keep verdicts and results for later runs in `DIR` (default: reptest in the user cache folder)")
	fs.BoolVar(&o.noCache, "no-cache", false, "neither read nor write the cache: ask every parser everything")
	fs.Int64Var(&o.cacheMB, "cache-size", diff.DefaultCacheBytes>>20, "the cache's size in `MiB` at most (least recently used entries go first)")
	fs.StringVar(&o.profile, "profile", result.ProfileRFC, "the profile of --inputs and --generate files: rfc9309 or google (requests carry it; the reference's traces, tags and minimisation follow it)")
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return nil, code, false
	}
	if !checkProfile("diff", o.profile, stderr) {
		return nil, 2, false
	}
	if o.generate < 0 {
		fmt.Fprintln(stderr, "reptest diff: --generate must not be negative")
		return nil, 2, false
	}
	var err error
	if o.shard, err = cases.ParseShardEnv(o.shardFlag, os.Getenv); err != nil {
		fmt.Fprintln(stderr, "reptest diff:", err)
		return nil, 2, false
	}
	return o, 0, true
}

// gatherInputs collects corpus cases, then directories and files, then
// generated files; WARC files are streamed after them. It describes each
// source in run.
func (o *diffOptions) gatherInputs(run *result.RunInfo, stderr io.Writer) (*diff.Inputs, bool) {
	var in diff.Inputs
	if o.corpus.given() || len(o.inputs) == 0 && o.generate == 0 {
		cs, err := o.corpus.load(stderr)
		if err != nil {
			printLoadError(stderr, err)
			return nil, false
		}
		in.Files = append(in.Files, diff.FromCases(cs)...)
		run.Inputs = append(run.Inputs, fmt.Sprintf("corpus %s: %d cases", &o.corpus, len(cs)))
	}
	for _, path := range o.inputs {
		files, warcs := len(in.Files), len(in.WARC)
		if err := in.AddPath(path); err != nil {
			fmt.Fprintln(stderr, "reptest diff:", err)
			return nil, false
		}
		desc := fmt.Sprintf("%s: %d files", path, len(in.Files)-files)
		if n := len(in.WARC) - warcs; n > 0 {
			desc += fmt.Sprintf(", %d WARC files", n)
		}
		run.Inputs = append(run.Inputs, desc)
	}
	in.Files = append(in.Files, diff.Generate(o.seed, o.generate)...)
	if o.generate > 0 {
		run.Inputs = append(run.Inputs, fmt.Sprintf("%d generated files (seed %d)", o.generate, o.seed))
	}
	if o.shardFlag != "" {
		run.Inputs = append(run.Inputs, "shard "+o.shardFlag)
	}
	return &in, true
}

// parserFactory finds the parsers that cannot run here once, says so and
// leaves them out, records the others in run, and returns how each worker
// opens its own set.
func (o *diffOptions) parserFactory(ctx context.Context, run *result.RunInfo, stderr io.Writer) (diff.Factory, bool) {
	names := o.names
	switch {
	case len(names) == 0 && o.progs.none():
		names = multi{"reference", "grobotstxt", "temoto"}
	case len(names) == 0:
		// Your own programs are compared with the reference.
		names = multi{"reference"}
	}
	set, err := openParsers(ctx, names, o.progs, o.timeout)
	if err != nil {
		fmt.Fprintln(stderr, "reptest diff:", err)
		return nil, false
	}
	for _, p := range set.Parsers {
		run.Parsers = append(run.Parsers, p.Info())
	}
	o.identities = set.Identities()
	set.Close()
	for _, u := range set.Unavailable {
		o.leftOut = append(o.leftOut, u.Name)
		if !o.quiet {
			fmt.Fprintf(stderr, "reptest diff: %s is left out: %v\n", u.Name, u.Err)
		}
	}
	return func(ctx context.Context) ([]cases.Parser, error) {
		s, err := set.Reopen(ctx)
		if err != nil {
			return nil, err
		}
		return s.Parsers, nil
	}, true
}

// compare runs the comparison over the shard's inputs (files of them held
// in memory), with progress on stderr, and returns its results document,
// described by run. A failure returns a non-zero code: 1 when the run was
// interrupted, 2 otherwise.
func (o *diffOptions) compare(ctx context.Context, in *diff.Inputs, files int, factory diff.Factory, run *result.RunInfo, stderr io.Writer) (*result.Document, int) {
	opts := diff.Options{Workers: o.workers, MaxProbes: o.maxProbes, CheckTimeout: o.timeout, NoMinimize: o.noMin, Profile: o.profile,
		Cache: o.openCache(stderr), Identities: o.identities, Run: run,
		SpillFindings: func(f *diff.FindingsFile) { o.findings = f }}
	var progress *report.Progress
	if !o.quiet {
		progress = report.NewProgress(stderr)
		progress.Start(files)
		opts.Progress = func(done, total, disagreements int) { progress.Step() }
		opts.Stage = progress.Stage
	}
	var fitted time.Duration
	opts.Fitted = func(d time.Duration) { fitted = d }
	rep, err := in.Run(ctx, o.shard, factory, opts)
	progress.Done()
	if len(in.WARC) > 0 && !o.quiet {
		st := in.Stats
		fmt.Fprintf(stderr, "reptest diff: %d WARC files, %d records, %d responses: %d successes compared (%d not text/plain), %d duplicates, %d redirects, %d unavailable, %d unreachable, %d unreadable\n",
			st.Files, st.Records, st.Responses, st.Success-st.Duplicates, st.NotText, st.Duplicates, st.Redirect, st.Unavailable, st.Unreachable, st.Unreadable)
	}
	switch {
	case err == nil && rep.Interrupted:
		// Always said, --quiet or not: the outputs hold part of the run.
		fmt.Fprintf(stderr, "reptest diff: interrupted (%s): the files compared by then are reported, without a diagnosis\n", rep.InterruptReason)
	case err == nil && !o.quiet:
		fmt.Fprintf(stderr, "reptest diff: diagnosis fitted in %.2f s\n", fitted.Seconds())
	}
	if err != nil {
		fmt.Fprintln(stderr, "reptest diff:", err)
		if ctx.Err() != nil {
			return nil, 1
		}
		return nil, 2
	}
	return rep, 0
}

// openCache opens the cache --cache names (or the default one) unless
// --no-cache; a cache that cannot be opened is said and done without.
func (o *diffOptions) openCache(stderr io.Writer) *diff.DiskCache {
	if o.noCache {
		return nil
	}
	dir := o.cacheDir
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			fmt.Fprintln(stderr, "reptest diff: no cache:", err)
			return nil
		}
		dir = filepath.Join(base, "reptest")
	}
	c, err := diff.OpenCache(dir, o.cacheMB<<20)
	if err != nil {
		fmt.Fprintln(stderr, "reptest diff: no cache:", err)
		return nil
	}
	return c
}

// writeOutputs writes the requested files and, unless quiet or an output
// is stdout ("-"), the summary on stdout; it returns the command's exit
// status. Every output is rendered from one results document.
func (o *diffOptions) writeOutputs(doc *result.Document, stdout, stderr io.Writer) int {
	write := func(path string, render func(io.Writer) error) bool {
		return writeOutput("diff", stdout, stderr, path, render)
	}
	doc.Run.Date = time.Now().UTC().Format(time.RFC3339)
	if o.findings != nil {
		defer o.findings.Remove()
		if o.htmlOut != "" || o.reportOut != "" {
			// The whole document is rendered: its findings are read in.
			var err error
			if doc.Findings, err = o.findings.Load(); err != nil {
				fmt.Fprintln(stderr, "reptest diff:", err)
				return 2
			}
		}
	}
	writeFindings := func(w io.Writer) error { return diff.WriteFindings(w, doc.Findings) }
	if o.findings != nil {
		writeFindings = func(w io.Writer) error { _, err := o.findings.WriteTo(w); return err }
	}
	ok := write(o.jsonOut, writeFindings) &&
		write(o.summaryOut, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(doc.Summary)
		}) &&
		write(o.htmlOut, func(w io.Writer) error { return writeDiffHTML(w, doc) }) &&
		write(o.reportOut, doc.WriteJSON)
	if !ok {
		return 2
	}
	if !o.quiet && !toStdout(o.jsonOut, o.summaryOut, o.htmlOut, o.reportOut) {
		if err := report.Text(stdout, doc, report.TextOptions{Top: o.top}); err != nil {
			fmt.Fprintln(stderr, "reptest diff:", err)
			return 2
		}
	}
	return 0
}

// diffTitle is the title of a differential run's page.
const diffTitle = "reptest: where robots.txt parsers disagree"

// writeDiffHTML renders the run's dashboard with the report package.
func writeDiffHTML(w io.Writer, doc *result.Document) error {
	return report.WriteHTML(w, doc, report.HTMLOptions{Title: diffTitle, Table: ownTable()})
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
