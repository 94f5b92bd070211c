package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/reptest/reptest/diagnose"
	"io"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
)

// crawlConfig is what the flags of `reptest crawl` ask for.
type crawlConfig struct {
	crawler                crawl.Crawler
	version                string // the crawler's, for reports
	corpus                 corpusFlags
	sel                    selectFlags // --run and --skip; crawl has no --level
	profile                string
	strict, verbose, quiet bool
	out                    outputFlags
}

// cmdCrawl judges a whole crawler by the requests it makes on scenario
// sites built from the corpus.
func cmdCrawl(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, code, ok := parseCrawlFlags(args, stderr)
	if !ok {
		return code
	}
	all, err := cfg.corpus.load(stderr)
	if err != nil {
		printLoadError(stderr, err)
		return exitUsage
	}
	selected := cfg.sel.of(all, cfg.profile)
	if len(selected) == 0 {
		fmt.Fprintf(stderr, "reptest crawl: no case of profile %s matches the selection\n", cfg.profile)
		return exitUsage
	}

	results, runs := crawl.RunAll(ctx, selected, &cfg.crawler, crawlProgress(stderr, cfg.quiet))
	meta := report.Meta{Version: reference.Version, Profile: cfg.profile, Strict: cfg.strict}
	if err := ctx.Err(); err != nil {
		meta.Interrupted = interruption(ctx, err)
		fmt.Fprintln(stderr, "reptest crawl: interrupted; the results so far are reported")
	}
	sum := crawl.Summarize(cfg.crawler.Name, cfg.version, results, cfg.strict)
	doc := report.FromResults(meta, []cases.Summary{sum}, results, selected)
	doc.Crawls = crawl.Timelines(runs, results, cfg.crawler.Name)
	if doc.Diagnosis, err = diagnose.Fit(ctx, crawl.Evidence(runs, results, cfg.crawler.Name)); err != nil {
		fmt.Fprintln(stderr, "reptest crawl: diagnosis:", err)
	}
	if reqs, err := cases.Requirements(); err == nil {
		doc.Requirements = cases.Coverage(reqs, all)
	}
	if !cfg.out.write("crawl", doc, stdout, stderr) {
		return exitUsage
	}
	if !cfg.quiet && !cfg.out.toStdout() {
		report.Text(stdout, doc, report.TextOptions{Verbose: cfg.verbose, Color: report.IsTerminal(stdout)})
	}
	return resultStatus(doc)
}

// parseCrawlFlags reads the flags of `reptest crawl` and checks them, and
// the expected-failure file. When ok is false the command returns code.
func parseCrawlFlags(args []string, stderr io.Writer) (cfg *crawlConfig, code int, ok bool) {
	cfg = &crawlConfig{}
	c := &cfg.crawler
	fs := newFlags("crawl", stderr)
	fs.StringVar(&c.Template, "crawler", "", "the crawler command, with {url} {agent} {ua} {dir} {proxy}")
	fs.StringVar(&c.Name, "name", "crawler", "the crawler's name in reports")
	fs.StringVar(&cfg.version, "crawler-version", "", "the crawler's version, for reports")
	cfg.corpus.register(fs)
	cfg.sel.registerGlobs(fs, "run")
	fs.StringVar(&cfg.profile, "profile", cases.ProfileRFC, "the cases to run: rfc9309 or google")
	fs.BoolVar(&cfg.strict, "strict", false, "deviations (failed SHOULD checks) count against conformance")
	fs.DurationVar(&c.Timeout, "timeout", 30*time.Second, "stop a crawler run (its whole process group) after this long")
	fs.IntVar(&c.Budget, "budget", 200, "stop a crawler run after this many requests")
	cfg.out.register(fs, flagJSON|flagJUnit|flagHTML|flagBadge|flagExpect)
	fs.BoolVar(&cfg.verbose, "v", false, "list every failing check with the crawler's requests")
	fs.BoolVar(&cfg.quiet, "quiet", false, "print nothing but errors")
	if code, ok := parseChecked(fs, args, cfg.check); !ok {
		return nil, code, false
	}
	return cfg, exitOK, true
}

// check checks the flags' values and reads the expected-failure file.
func (cfg *crawlConfig) check(pos []string) error {
	c := &cfg.crawler
	switch {
	case len(pos) > 0:
		return fmt.Errorf("unexpected argument %q", pos[0])
	case c.Template == "":
		return errors.New("--crawler is required, e.g. --crawler 'wget -r -l 1 -e robots=on -U {ua} -P {dir} {url}'")
	case c.Timeout <= 0 || c.Budget <= 0:
		return errors.New("--timeout and --budget must be positive")
	}
	if err := profileError(cfg.profile); err != nil {
		return err
	}
	if _, err := parsers.SplitWords(c.Template); err != nil {
		return fmt.Errorf("--crawler %q: %w", c.Template, err)
	}
	cfg.out.title = "reptest crawl: " + c.Name
	return cfg.out.readExpect()
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
