package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/result"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/internal/cmdline"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
)

// crawlConfig is what the flags of `reptest crawl` ask for.
type crawlConfig struct {
	crawler                crawl.Crawler
	version                string // the command that prints the crawler's version
	layout                 string // empty: picked by crawl.NewLab
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

	version, err := cfg.crawler.Version(ctx, cfg.version)
	if err != nil {
		fmt.Fprintf(stderr, "reptest crawl: --crawler-version: %v\n", err)
		return exitUsage
	}
	if cfg.crawler.Requirements, err = cases.RequirementTable(); err != nil {
		fmt.Fprintln(stderr, "reptest crawl:", err)
		return exitUsage
	}
	lab, err := crawl.NewLab(crawl.LabOptions{Layout: crawl.Layout(cfg.layout)})
	if err != nil {
		fmt.Fprintf(stderr, "reptest crawl: %v\n", err)
		return exitUsage
	}
	defer lab.Close()
	if lab.Note() != "" && !cfg.quiet {
		fmt.Fprintf(stderr, "reptest crawl: %s\n", lab.Note())
	}
	cfg.crawler.Lab = lab
	results, runs := crawl.RunAll(ctx, selected, &cfg.crawler, crawlProgress(stderr, cfg.quiet))
	meta := result.Meta{Version: reference.Version, Profile: cfg.profile, Strict: cfg.strict}
	if err := ctx.Err(); err != nil {
		meta.Interrupted = interruption(ctx, err)
		fmt.Fprintln(stderr, "reptest crawl: interrupted; the results so far are reported")
	}
	// NewDocument counts and judges the crawler as it does a parser
	// (result.Summarize, the not-run rule included).
	doc := cases.NewDocument(meta, []result.Summary{{Name: cfg.crawler.Name, Version: version}}, results, selected)
	doc.Crawls = crawl.Timelines(runs, results, cfg.crawler.Name)
	doc.CrawlLayout, doc.CrawlLayoutNote = string(lab.Layout()), lab.Note()
	if doc.Diagnosis, err = diagnose.Fit(ctx, crawl.Evidence(runs, results, cfg.crawler.Name)); err != nil {
		fmt.Fprintln(stderr, "reptest crawl: diagnosis:", err)
	}
	if table, err := cases.RequirementTable(); err == nil {
		doc.Requirements, doc.Areas = cases.Coverage(table.Requirements, all), table.Areas
	}
	if !cfg.out.write("crawl", doc, stdout, stderr) {
		return exitUsage
	}
	if !cfg.quiet && !cfg.out.toStdout() {
		report.Text(stdout, doc, report.TextOptions{Verbose: cfg.verbose, Color: report.IsTerminal(stdout)})
	}
	crawlNote(stderr, cfg.crawler.Name, runs)
	return resultStatus(doc)
}

// parseCrawlFlags reads the flags of `reptest crawl` and checks them, and
// the expected-failure file. When ok is false the command returns code.
func parseCrawlFlags(args []string, stderr io.Writer) (cfg *crawlConfig, code int, ok bool) {
	cfg = &crawlConfig{}
	c := &cfg.crawler
	fs := newFlags("crawl", stderr)
	fs.StringVar(&c.Template, "crawler", "", "the crawler command, with {url} {agent} {ua} {dir} {proxy} {ca}")
	fs.StringVar(&c.Name, "name", "crawler", "the crawler's name in reports")
	fs.StringVar(&cfg.version, "crawler-version", "", "a command printing the crawler's version, whose first line reports keep (default: the template's program with --version)")
	cfg.corpus.register(fs)
	cfg.sel.registerGlobs(fs, "run")
	fs.StringVar(&cfg.profile, "profile", result.ProfileRFC, "the cases to run: rfc9309 or google")
	fs.BoolVar(&cfg.strict, "strict", false, "deviations (failed SHOULD checks) count against conformance")
	fs.DurationVar(&c.Timeout, "timeout", 30*time.Second, "stop a crawler run (its whole process group) after this long")
	fs.IntVar(&c.Budget, "budget", 200, "stop a crawler run after this many requests")
	fs.BoolVar(&c.NoTimeline, "no-timeline", false, "skip the timeline cases (run by default under libfaketime when it is installed)")
	fs.IntVar(&c.Jobs, "jobs", runtime.NumCPU(), "run this many scenarios at once, each on addresses of its own")
	fs.StringVar(&cfg.layout, "layout", "", "addresses or ports (default: addresses when port 80 of 127.0.0.0/8 can be bound, else ports)")
	cfg.out.register(fs, flagJSON|flagJUnit|flagHTML|flagBadge|flagExpect|flagWriteExpect)
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
		return errors.New("--crawler is required, e.g. --crawler 'wget -r -H -l 1 -e robots=on -U {ua} -P {dir} {url}'")
	case c.Timeout <= 0 || c.Budget <= 0 || c.Jobs <= 0:
		return errors.New("--timeout, --budget and --jobs must be positive")
	}
	switch crawl.Layout(cfg.layout) {
	case "", crawl.LayoutAddresses, crawl.LayoutPorts:
	default:
		return fmt.Errorf("--layout %q: want %s or %s", cfg.layout, crawl.LayoutAddresses, crawl.LayoutPorts)
	}
	if err := profileError(cfg.profile); err != nil {
		return err
	}
	if _, err := cmdline.Split(c.Template); err != nil {
		return fmt.Errorf("--crawler %q: %w", c.Template, err)
	}
	c.Faketime = crawl.FindFaketime()
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
