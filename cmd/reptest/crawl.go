package main

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"syscall"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/diff/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
)

// cmdCrawl judges a whole crawler by the requests it makes on scenario
// sites built from the corpus.
func cmdCrawl(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("crawl", stderr)
	var corpora, runGlobs, skipGlobs multi
	template := fs.String("crawler", "", "the crawler command, with {url} {agent} {ua} {dir} {proxy}")
	name := fs.String("name", "crawler", "the crawler's name in reports")
	version := fs.String("crawler-version", "", "the crawler's version, for reports")
	fs.Var(&corpora, "corpus", "a directory of YAML cases (repeatable; default: the embedded corpus)")
	fs.Var(&runGlobs, "run", "run only cases whose id or requirement ID matches the glob (repeatable)")
	fs.Var(&skipGlobs, "skip", "skip cases whose id or requirement ID matches the glob (repeatable)")
	profile := fs.String("profile", cases.ProfileRFC, "the cases to run: rfc9309 or google")
	strict := fs.Bool("strict", false, "deviations (failed SHOULD checks) count against conformance")
	timeout := fs.Duration("timeout", 30*time.Second, "stop a crawler run (its whole process group) after this long")
	budget := fs.Int("budget", 200, "stop a crawler run after this many requests")
	jsonOut := fs.String("json", "", "write the results as JSON to `FILE`")
	junitOut := fs.String("junit", "", "write JUnit XML to `FILE`")
	htmlOut := fs.String("html", "", "write a self-contained HTML report to `FILE`")
	badgeDir := fs.String("badge", "", "write a shields.io endpoint JSON into `DIR`")
	expectFile := fs.String("expect", "", "a YAML file of expected failures; only new failures fail the run")
	verbose := fs.Bool("v", false, "list every failing check with the crawler's requests")
	quiet := fs.Bool("quiet", false, "print nothing but errors")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(pos) > 0:
		fmt.Fprintf(stderr, "reptest crawl: unexpected argument %q\n", pos[0])
		return 2
	case *template == "":
		fmt.Fprintln(stderr, "reptest crawl: --crawler is required, e.g. --crawler 'wget -r -l 1 -e robots=on -U {ua} -P {dir} {url}'")
		return 2
	case *timeout <= 0 || *budget <= 0:
		fmt.Fprintln(stderr, "reptest crawl: --timeout and --budget must be positive")
		return 2
	case !checkProfile("crawl", *profile, stderr):
		return 2
	}
	if _, err := parsers.SplitWords(*template); err != nil {
		fmt.Fprintf(stderr, "reptest crawl: --crawler %q: %v\n", *template, err)
		return 2
	}
	var expect *report.Expectations
	if *expectFile != "" {
		var err error
		if expect, err = readExpectations(*expectFile); err != nil {
			fmt.Fprintln(stderr, "reptest crawl:", err)
			return exitUsage
		}
	}
	all, err := loadCorpus(corpora)
	if err != nil {
		printLoadError(stderr, err)
		return 2
	}
	selected := cases.Select(all, *profile, runGlobs, skipGlobs)
	if len(selected) == 0 {
		fmt.Fprintf(stderr, "reptest crawl: no case of profile %s matches the selection\n", *profile)
		return 2
	}

	// A stop by SIGTERM (CI cancelling a job) ends the run as an interrupt
	// does, so that the crawler's process group is killed, not orphaned.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	c := &crawl.Crawler{Name: *name, Template: *template, Timeout: *timeout, Budget: *budget}
	results, runs := crawl.RunAll(ctx, selected, c, crawlProgress(stderr, *quiet))
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "reptest crawl: interrupted; the results so far are reported")
	}
	sum := crawl.Summarize(*name, *version, results, *strict)
	doc := report.FromResults(report.Meta{Version: reference.Version, Profile: *profile, Strict: *strict}, []cases.Summary{sum}, results, selected)
	doc.Crawls = crawl.Timelines(runs, results, *name)
	if reqs, err := cases.Requirements(); err == nil {
		doc.Requirements = cases.Coverage(reqs, all)
	}
	if expect != nil {
		doc.ApplyExpectations(expect)
	}
	out := docOutputs{json: *jsonOut, junit: *junitOut, html: *htmlOut, badges: *badgeDir, title: "reptest crawl: " + *name}
	if !out.write("crawl", doc, stdout, stderr) {
		return exitUsage
	}
	if !*quiet {
		report.Text(stdout, doc, report.TextOptions{Verbose: *verbose, Color: report.IsTerminal(stdout)})
	}
	if ctx.Err() != nil {
		return exitFail
	}
	return resultStatus(doc)
}

// crawlProgress draws the progress bar on a terminal, and otherwise
// prints a line every 25 scenarios, so that CI logs show a long run move.
func crawlProgress(stderr io.Writer, quiet bool) func(done, total int, run *crawl.Run) {
	if quiet {
		return nil
	}
	if report.IsTerminal(stderr) {
		var p *report.Progress
		return func(done, total int, _ *crawl.Run) {
			if p == nil {
				p = report.NewProgress(stderr)
				p.Start(total)
			}
			p.Step()
			if done == total {
				p.Done()
			}
		}
	}
	start := time.Now()
	return func(done, total int, run *crawl.Run) {
		if done%25 == 0 || done == total {
			fmt.Fprintf(stderr, "reptest crawl: %d/%d scenarios (%s)\n", done, total, time.Since(start).Round(time.Second))
		}
	}
}
