package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/reptest/reptest/cases"
)

// cmdList prints the selected cases and the requirement coverage table;
// it runs nothing.
func cmdList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", stderr)
	var corpora, runGlobs, skipGlobs multi
	fs.Var(&corpora, "corpus", "a directory of YAML cases (repeatable; default: the embedded corpus)")
	fs.Var(&runGlobs, "run", "list only cases whose id or requirement ID matches the glob (repeatable)")
	fs.Var(&skipGlobs, "skip", "leave out cases whose id or requirement ID matches the glob (repeatable)")
	profile := fs.String("profile", "", "list only the cases of this profile (rfc9309, google or aipref; default: all)")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "reptest list: unexpected argument %q\n", pos[0])
		return 2
	}
	if *profile != "" && !checkProfile("list", *profile, stderr) {
		return 2
	}
	all, err := loadCorpus(corpora)
	if err != nil {
		printLoadError(stderr, err)
		return 2
	}
	sel := cases.Select(all, *profile, runGlobs, skipGlobs)
	warnInvalid(stderr, sel)
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tPROFILE\tLEVEL\tREQ\tCHECKS\tKIND\tTITLE")
	checks := 0
	for _, c := range sel {
		n := len(c.AllChecks())
		checks += n
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", c.ID, c.Profile, c.Level, strings.Join(c.Req, ","), n, kind(&c), c.Title)
	}
	tw.Flush()
	scope := "all loaded cases"
	if len(sel) < len(all) {
		scope = fmt.Sprintf("the %d cases listed, of %d loaded", len(sel), len(all))
	}
	fmt.Fprintf(stdout, "\n%d cases, %d checks\n\nRequirement coverage (%s):\n", len(sel), checks, scope)
	reqs, err := cases.Requirements()
	if err != nil {
		fmt.Fprintln(stderr, "reptest list:", err)
		return 2
	}
	reqs = cases.Coverage(reqs, sel)
	tw = tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "REQ\tLEVEL\tSECTION\tCASES\tCHECKS\t")
	holes := 0
	for _, r := range reqs {
		flag := ""
		if r.Cases == 0 {
			flag = "NO CASES"
			holes++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\n", r.ID, r.Level, r.Section, r.Cases, r.Checks, flag)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\n%d requirements, %d without cases among %s\n", len(reqs), holes, scope)
	return 0
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
