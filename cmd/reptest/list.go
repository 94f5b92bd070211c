package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
	"github.com/reptest/reptest/visible"
)

// listing is what `reptest list` shows, and its --json form.
type listing struct {
	Cases    []listedCase         `json:"cases"`
	Checks   int                  `json:"checks"`
	Loaded   int                  `json:"loaded"` // cases loaded before the selection
	Coverage []result.Requirement `json:"coverage"`
	scope    string               // "all loaded cases" or "the 3 cases listed, of 9 loaded"
	holes    int                  // requirements without cases
}

type listedCase struct {
	ID      string   `json:"id"`
	Profile string   `json:"profile"`
	Level   string   `json:"level"`
	Req     []string `json:"req"`
	Checks  int      `json:"checks"`
	Kind    string   `json:"kind"`
	Title   string   `json:"title"`
	Source  string   `json:"source"`
}

// cmdList prints the selected cases and the requirement coverage table;
// it runs nothing. A selection with no case is a usage error, as for run.
func cmdList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", stderr)
	var corpus corpusFlags
	var sf selectFlags
	corpus.register(fs)
	sf.register(fs, "list")
	profile := fs.String("profile", "", "list only the cases of this profile (rfc9309, google or aipref; default: all)")
	asJSON := fs.Bool("json", false, "print the listing as JSON")
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	if *profile != "" && !checkProfile("list", *profile, stderr) {
		return exitUsage
	}
	if err := sf.parseLevels(); err != nil {
		fmt.Fprintln(stderr, "reptest list:", err)
		return exitUsage
	}
	all, err := corpus.load(stderr)
	if err != nil {
		printLoadError(stderr, err)
		return exitUsage
	}
	sel := sf.of(all, *profile)
	if len(sel) == 0 {
		if *profile == "" {
			fmt.Fprintln(stderr, "reptest list: no case matches the selection")
		} else {
			fmt.Fprintf(stderr, "reptest list: %s\n", emptySelection(all, *profile, &sf))
		}
		return exitUsage
	}
	reqs, err := cases.Requirements()
	if err != nil {
		fmt.Fprintln(stderr, "reptest list:", err)
		return exitUsage
	}
	warnInvalid(stderr, sel)
	l := newListing(sel, len(all), reqs)
	if err := writeJSONOr(stdout, *asJSON, l, l.writeText); err != nil {
		fmt.Fprintln(stderr, "reptest list:", err)
		return exitUsage
	}
	return exitOK
}

// newListing describes the selected cases and their coverage of reqs.
func newListing(sel []cases.Case, loaded int, reqs []result.Requirement) *listing {
	l := &listing{Loaded: loaded, scope: "all loaded cases", Cases: []listedCase{}, Coverage: cases.Coverage(reqs, sel)}
	if len(sel) < loaded {
		l.scope = fmt.Sprintf("the %d cases listed, of %d loaded", len(sel), loaded)
	}
	for i := range sel {
		c := &sel[i]
		n := len(c.AllChecks())
		l.Checks += n
		l.Cases = append(l.Cases, listedCase{ID: c.ID, Profile: c.Profile, Level: string(c.Level), Req: c.Req,
			Checks: n, Kind: kind(c), Title: c.Title, Source: c.Source})
	}
	for _, r := range l.Coverage {
		if r.Cases == 0 {
			l.holes++
		}
	}
	return l
}

// writeText writes the listing as two tables. Ids, titles and the other
// text of case files are escaped (package visible): a hostile corpus
// cannot drive the terminal.
func (l *listing) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tPROFILE\tLEVEL\tREQ\tCHECKS\tKIND\tTITLE")
	for _, c := range l.Cases {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", visible.String(c.ID), c.Profile, c.Level,
			visible.String(strings.Join(c.Req, ",")), c.Checks, c.Kind, visible.String(c.Title))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d cases, %d checks\n\nRequirement coverage (%s):\n", len(l.Cases), l.Checks, l.scope)
	tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "REQ\tLEVEL\tSECTION\tCASES\tCHECKS\t")
	for _, r := range l.Coverage {
		flag := ""
		if r.Cases == 0 {
			flag = "NO CASES"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\n", r.ID, r.Level, r.Section, r.Cases, r.Checks, flag)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d requirements, %d without cases among %s\n", len(l.Coverage), l.holes, l.scope)
	return err
}

func kind(c *cases.Case) string {
	switch {
	case len(c.Timeline) > 0:
		return "timeline"
	case len(c.Fetch) > 0:
		return "http"
	}
	return "parse"
}
