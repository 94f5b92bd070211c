package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/reptest/reptest/matrix"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
)

// cmdMatrix prints the verdict table of robots.txt files, agents ×
// paths, with warnings: reptest matrix FILE... [--agent A]... [--path P]...
// [--fail-on warn] [--profile rfc9309|google] [--json]. Several files
// (a pre-commit hook passes every changed one) are shown one after the
// other, each under its name.
func cmdMatrix(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("matrix", stderr)
	var agents, paths, usage multi
	fs.Var(&agents, "agent", "product `TOKEN` to show (repeatable; default: every agent the file names plus one it does not)")
	fs.Var(&paths, "path", "URL `PATH` to show (repeatable; default: / and one path per rule)")
	fs.Var(&usage, "usage", "usage `CATEGORY` whose preference each cell shows (repeatable; train-ai, search, …; default under --profile aipref: those the file states)")
	failOn := fs.String("fail-on", "never", "exit 1 on `LEVEL`: warn (any warning) or never")
	profile := fs.String("profile", "rfc9309", "reading of the file: rfc9309, google or aipref")
	asJSON := fs.Bool("json", false, "print the matrix as JSON")
	pos, code, ok := parseOperands(fs, args, "usage: reptest matrix FILE... [--agent A]... [--path P]... [--usage CATEGORY]... [--fail-on warn] [--profile rfc9309|google|aipref] [--json]\n\nFILE may be - for standard input; --json takes one FILE.", 1, -1)
	if !ok {
		return code
	}
	if *failOn != "warn" && *failOn != "never" {
		fmt.Fprintf(stderr, "reptest matrix: --fail-on must be warn or never, not %q\n", *failOn)
		return exitUsage
	}
	if !checkProfile("matrix", *profile, stderr) {
		return exitUsage
	}
	if *asJSON && len(pos) > 1 {
		fmt.Fprintln(stderr, "reptest matrix: --json takes one FILE")
		return exitUsage
	}
	opts, _ := reference.OptionsFor(*profile)
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") {
			fmt.Fprintf(stderr, "reptest matrix: --path %q: a path starts with \"/\"\n", p)
			return exitUsage
		}
	}
	for _, c := range usage {
		if !reference.IsUsageCategory(c) {
			fmt.Fprintf(stderr, "reptest matrix: --usage %q: not a usage category (known: %s)\n", c, strings.Join(reference.UsageCategories(), ", "))
			return 2
		}
	}
	mo := matrix.Options{Agents: agents, Paths: paths, Options: opts, Usage: usage}
	warned := false
	for i, name := range pos {
		if len(pos) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "== %s\n", name)
		}
		m, err := matrixOf(ctx, name, mo, *asJSON, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "reptest matrix: %v\n", err)
			return exitUsage
		}
		warned = warned || len(m.Warnings) > 0
	}
	if *failOn == "warn" && warned {
		return exitFail
	}
	return exitOK
}

// matrixOf builds and prints the matrix of one file.
func matrixOf(ctx context.Context, name string, mo matrix.Options, asJSON bool, stdout io.Writer) (*matrix.Matrix, error) {
	body, err := readInput(ctx, name)
	if err != nil {
		return nil, err
	}
	m, err := matrix.Build(body, mo)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, writeJSONOr(stdout, asJSON, m, func(w io.Writer) error { return report.WriteMatrix(w, m, colorFor(stdout)) })
}
