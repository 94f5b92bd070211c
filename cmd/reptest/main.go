// Command reptest runs the RFC 9309 conformance corpus against robots.txt
// parsers, compares parsers with each other and renders reports.
//
// Usage:
//
//	reptest run   [flags]   run the corpus against parsers
//	reptest list  [flags]   list cases and requirement coverage
//	reptest check [flags]   the reference's verdict and trace for URLs
//	reptest diff  [flags]   differential run over real or generated files
//	reptest promote FINDING...  turn findings into YAML case drafts
//	reptest report [flags]  render saved results (HTML, JUnit, badges)
//	reptest matrix FILE...  agents × paths verdict table with warnings
//	reptest variants [--json]  the misreadings: named ways to depart from
//	                        RFC 9309, each usable as a parser variant of
//	                        the reference (--parser reference+first-match)
//	reptest crawl [flags]   judge a crawler by the requests it makes
//	reptest audit [flags]   judge the bots of access logs
//	reptest doctor [flags]  what can run here, what is missing, and how
//	                        to install it
//	reptest version         the version of reptest and of Go
//
// Exit status: 0 when every parser conforms, 1 when one does not, did not
// run (run and diff alike), or the run was interrupted (SIGINT or SIGTERM);
// for check, 0 when every URL is allowed and 1 when one is not; 2 for a usage error,
// a corpus that fails to load, an empty selection or shard, or an output
// that cannot be written (see exitOK, exitFail, exitUsage).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"

	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
)

// command is one subcommand: it parses its own flags and returns the exit
// status.
type command struct {
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	summary string
}

func commands() map[string]command {
	return map[string]command{
		"run":      {cmdRun, "run the corpus against parsers"},
		"list":     {cmdList, "list cases and requirement coverage"},
		"check":    {cmdCheck, "print the reference's verdict and trace for URLs"},
		"diff":     {cmdDiff, "compare parsers on real or generated robots.txt files"},
		"promote":  {cmdPromote, "turn findings into YAML case drafts"},
		"report":   {cmdReport, "render saved results as HTML, JUnit or badges"},
		"matrix":   {cmdMatrix, "print the verdict table of a robots.txt with warnings"},
		"crawl":    {cmdCrawl, "judge a crawler by the requests it makes on scenario sites"},
		"doctor":   {cmdDoctor, "list the parsers, crawlers and tools that can run here, and install the rest"},
		"audit":    {cmdAudit, "judge the bots of an access log against robots.txt versions"},
		"version":  {cmdVersion, "print the version of reptest and of Go"},
		"variants": {cmdVariants, "list the misreadings, each a variant of the reference"},
	}
}

// stopSignals end a run early, the same way: the context is cancelled
// (context.Cause names the signal), parsers and their processes are
// closed, and what ran is written and judged as interrupted. SIGTERM is
// what CI runners, timeout(1) and Kubernetes send.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

func main() {
	// The isolated Go libraries run in workers that are this binary.
	parsers.ServeWorkerIfAsked()
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args = []string{"version"}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr, cmds)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "reptest: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return exitUsage
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: reptest COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'reptest COMMAND -h' for a command's flags.")
}

func cmdVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", stderr)
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprint(stdout, versionText(info, runtime.Version()))
	return exitOK
}

// versionText is what reptest version prints: the module version the
// binary was built from (go install …@vX.Y.Z records it; a build in a
// checkout records "(devel)"), the Go version, and the draft versions the
// aipref profile follows.
func versionText(info *debug.BuildInfo, goVersion string) string {
	module := "built from a checkout, not a tagged module version"
	if info != nil && info.Main.Version != "" && info.Main.Version != "(devel)" {
		module = "module " + info.Main.Path + "@" + info.Main.Version
	}
	var b strings.Builder
	fmt.Fprintf(&b, "reptest %s (%s; %s)\n", reference.Version, module, goVersion)
	fmt.Fprintln(&b, "aipref profile:")
	for _, d := range reference.Drafts() {
		if d.Pinned {
			fmt.Fprintf(&b, "  %s (%s, %s)\n", d.Name, d.Date, d.Source)
		}
	}
	fmt.Fprintf(&b, "  Content-Signal use key: %s\n", reference.ContentUseSource)
	return b.String()
}
