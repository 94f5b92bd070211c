package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/setup"
)

// doctorConfig is what the flags of `reptest doctor` ask for.
type doctorConfig struct {
	parsers, crawlers, tools multi
	json, install, apt       bool
}

// doctorReport is the document of `reptest doctor --json` (docs/FORMAT.md
// §6).
type doctorReport struct {
	Ready bool           `json:"ready"`
	Items []setup.Status `json:"items"`
	Apt   string         `json:"apt,omitempty"`
	Npm   string         `json:"npm,omitempty"`
	// NpmDirs are the folders where `npm ci` installs what the missing
	// items need (the Node peers', a crawler's); Npm is the first.
	NpmDirs []string        `json:"npm_dirs,omitempty"`
	Steps   []doctorStepOut `json:"install_steps,omitempty"`
}

// doctorStepOut is one step --install took, and how it ended.
type doctorStepOut struct {
	Command string `json:"command"`
	Error   string `json:"error,omitempty"`
}

// cmdDoctor lists what reptest can run here, what is missing and the
// commands that install it; with --install it runs them.
func cmdDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg := &doctorConfig{}
	fs := newFlags("doctor", stderr)
	fs.Var(&cfg.parsers, "parser", "check only this built-in parser (repeatable)")
	fs.Var(&cfg.crawlers, "crawler", "check only this crawler (repeatable)")
	fs.Var(&cfg.tools, "tool", "check only this optional tool (repeatable)")
	fs.BoolVar(&cfg.json, "json", false, "write the table as JSON (docs/FORMAT.md §6)")
	fs.BoolVar(&cfg.install, "install", false, "install the npm libraries of the Node peers into their folder, and print the apt-get line for the rest")
	fs.BoolVar(&cfg.apt, "apt", false, "with --install, as root: run that apt-get line too")
	if code, ok := parseChecked(fs, args, cfg.check); !ok {
		return code
	}
	rep := cfg.survey(ctx)
	if cfg.install {
		rep.Steps = cfg.installMissing(ctx, rep, stderr)
		rep = cfg.survey(ctx).withSteps(rep.Steps)
	}
	if cfg.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "reptest doctor:", err)
			return exitUsage
		}
	} else {
		printDoctor(stdout, rep, cfg.install)
	}
	if !rep.Ready {
		return exitFail
	}
	return exitOK
}

func (r doctorReport) withSteps(steps []doctorStepOut) doctorReport {
	r.Steps = steps
	return r
}

// check checks the names asked for.
func (cfg *doctorConfig) check(pos []string) error {
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q", pos[0])
	}
	if cfg.apt && !cfg.install {
		return errors.New("--apt goes with --install")
	}
	known := parsers.Names()
	for _, n := range cfg.parsers {
		if !slices.Contains(known, n) {
			return fmt.Errorf("--parser %q: unknown (known: %s)", n, strings.Join(known, ", "))
		}
	}
	for _, f := range []struct {
		flag  string
		kind  setup.Kind
		names []string
	}{{"--crawler", setup.KindCrawler, cfg.crawlers}, {"--tool", setup.KindTool, cfg.tools}} {
		var known []string
		for _, p := range setup.Programs() {
			if p.Kind == f.kind {
				known = append(known, p.Name)
			}
		}
		for _, n := range f.names {
			if !slices.Contains(known, n) {
				return fmt.Errorf("%s %q: unknown (known: %s)", f.flag, n, strings.Join(known, ", "))
			}
		}
	}
	return nil
}

// doctorChecksAtOnce bounds the checks run at once: most of their time is
// spent waiting for interpreters to start, but many at once on a busy
// machine would make each slow.
const doctorChecksAtOnce = 4

// survey checks everything asked for (all of it when no name is given),
// doctorChecksAtOnce at a time.
func (cfg *doctorConfig) survey(ctx context.Context) doctorReport {
	all := len(cfg.parsers)+len(cfg.crawlers)+len(cfg.tools) == 0
	var checks []func() setup.Status
	for _, n := range parsers.Names() {
		if all || slices.Contains(cfg.parsers, n) {
			checks = append(checks, func() setup.Status { return parsers.Readiness(ctx, n, parsers.Options{}) })
		}
	}
	for _, p := range setup.Programs() {
		asked := cfg.crawlers
		if p.Kind == setup.KindTool {
			asked = cfg.tools
		}
		if all || slices.Contains(asked, p.Name) {
			checks = append(checks, func() setup.Status { return p.Check(ctx) })
		}
	}
	rep := doctorReport{Ready: true, Items: make([]setup.Status, len(checks))}
	var wg sync.WaitGroup
	slots := make(chan struct{}, doctorChecksAtOnce)
	for i, c := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			rep.Items[i] = c()
		}()
	}
	wg.Wait()
	for _, st := range rep.Items {
		if st.Ready {
			continue
		}
		rep.Ready = false
		if st.NpmDir != "" && !slices.Contains(rep.NpmDirs, st.NpmDir) {
			rep.NpmDirs = append(rep.NpmDirs, st.NpmDir)
		}
	}
	if len(rep.NpmDirs) > 0 {
		rep.Npm = rep.NpmDirs[0]
	}
	rep.Apt = setup.AptCommand(missingPackages(ctx, rep.Items))
	return rep
}

// missingPackages returns the Debian packages of the items not ready
// that are not installed.
func missingPackages(ctx context.Context, items []setup.Status) []string {
	var pkgs []string
	for _, st := range items {
		if !st.Ready {
			pkgs = append(pkgs, st.Apt...)
		}
	}
	return setup.MissingPackages(ctx, pkgs)
}

// installMissing runs npm ci for the Node peers that need it and, with
// --apt, apt-get for the rest; it reports each step on w as it goes.
func (cfg *doctorConfig) installMissing(ctx context.Context, rep doctorReport, w io.Writer) []doctorStepOut {
	var steps []doctorStepOut
	for _, dir := range rep.NpmDirs {
		step := doctorStepOut{Command: setup.NpmCommand(dir)}
		fmt.Fprintf(w, "reptest doctor: %s\n", step.Command)
		if err := setup.NpmInstall(ctx, dir, w); err != nil {
			step.Error = err.Error()
			fmt.Fprintf(w, "reptest doctor: %v\n", err)
		}
		steps = append(steps, step)
	}
	if pkgs := missingPackages(ctx, rep.Items); cfg.apt && len(pkgs) > 0 {
		step := doctorStepOut{Command: setup.AptCommand(pkgs)}
		fmt.Fprintf(w, "reptest doctor: apt-get update && %s\n", step.Command)
		if err := setup.AptInstall(ctx, pkgs, w); err != nil {
			step.Error = err.Error()
			fmt.Fprintf(w, "reptest doctor: %v\n", err)
		}
		steps = append(steps, step)
	}
	return steps
}

// printDoctor writes the table, one row per item, then for each missing
// one the reason and the command that installs it, then what to do next.
func printDoctor(w io.Writer, rep doctorReport, installed bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tNAME\tSTATUS\tVERSION\tRUNTIME")
	var missing []setup.Status
	for _, st := range rep.Items {
		status := "ready"
		if !st.Ready {
			status = "MISSING"
			missing = append(missing, st)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", st.Kind, st.Name, status, orDash(st.Version), orDash(st.Runtime))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d of %d ready.\n", len(rep.Items)-len(missing), len(rep.Items))
	for _, st := range missing {
		fmt.Fprintf(w, "\n%s %s: %s\n", st.Kind, st.Name, st.Reason)
		if st.Install != "" {
			fmt.Fprintf(w, "  install: %s\n", st.Install)
		}
	}
	if rep.Ready {
		return
	}
	fmt.Fprintln(w)
	if len(rep.NpmDirs) > 0 && !installed {
		fmt.Fprintf(w, "The npm libraries: `reptest doctor --install` runs npm ci in %s (each pinned by its package-lock.json).\n", strings.Join(rep.NpmDirs, " and in "))
	}
	if rep.Apt != "" {
		fmt.Fprintf(w, "The Debian packages not installed, as root (or `reptest doctor --install --apt`):\n  apt-get update && %s\n", rep.Apt)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// doctorNote points, after the summary, to reptest doctor for the
// built-in parsers that did not run. It is a line of its own on w.
func doctorNote(w io.Writer, cmd string, names []string) {
	if len(names) == 0 {
		return
	}
	flags := ""
	for _, n := range names {
		flags += " --parser " + n
	}
	fmt.Fprintf(w, "reptest %s: %s did not run; `reptest doctor%s` says what is missing, and `reptest doctor --install` installs it\n",
		cmd, strings.Join(names, ", "), flags)
}

// crawlNote points, after the summary, to reptest doctor when the crawler
// could not be started in some scenarios.
func crawlNote(w io.Writer, name string, runs []crawl.Run) {
	n, first := 0, ""
	for _, r := range runs {
		if strings.HasPrefix(r.Failure, crawl.NotStarted) {
			if n == 0 {
				first = r.Failure
			}
			n++
		}
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "reptest crawl: %s did not run in %d of %d scenarios: %s\n", name, n, len(runs), first)
	if !strings.Contains(first, "reptest doctor") {
		fmt.Fprintln(w, "reptest crawl: `reptest doctor` lists the crawlers it knows and how to install them")
	}
}
