package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/visible"
)

// cmdCheck prints the reference's verdict and trace for each URL, so that
// a crawler operator can log how a decision was made.
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	robots := fs.String("robots", "", "the robots.txt `FILE` (- for standard input)")
	agent := fs.String("agent", "", "the crawler's product token ([a-zA-Z_-]+)")
	profile := fs.String("profile", "rfc9309", "the option set: rfc9309, google or aipref")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	var missing []string
	if *robots == "" {
		missing = append(missing, "--robots FILE (the robots.txt; - for standard input)")
	}
	if *agent == "" {
		missing = append(missing, "--agent TOKEN (the crawler's product token)")
	}
	if len(pos) == 0 {
		missing = append(missing, "a URL to check")
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "reptest check: missing %s\nusage: reptest check --robots FILE --agent TOKEN URL...\n", strings.Join(missing, ", "))
		return exitUsage
	}
	if !checkProfile("check", *profile, stderr) {
		return exitUsage
	}
	opts, _ := reference.OptionsFor(*profile)
	body, err := readInput(ctx, *robots)
	if err != nil {
		fmt.Fprintln(stderr, "reptest check:", err)
		return exitUsage
	}
	r := reference.Parse(body, opts)
	if r.Truncated() {
		fmt.Fprintf(stdout, "note: the file is %d bytes; only the first %d were parsed\n", len(body), r.ParsedBytes())
	}
	code = 0
	for _, u := range pos {
		if err := checkURL(u); err != nil {
			fmt.Fprintf(stderr, "reptest check: %v\n", err)
			code = exitUsage
			continue
		}
		d, err := r.Decide(*agent, u)
		if err != nil {
			fmt.Fprintf(stderr, "reptest check: %s: %v\n", u, err)
			code = exitUsage
			continue
		}
		fmt.Fprintf(stdout, "%s\t%s\n", u, d)
	}
	return code
}

// checkURL accepts a path ("/a?b") or an absolute URL with a host; a URL
// that does not parse ("http://[::1") is an error, not a path to match.
func checkURL(s string) error {
	if strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%s: %w", visible.String(s), errors.Unwrap(err))
	}
	if !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("%s: want an absolute URL (https://example.com/path) or a path (/path)", visible.String(s))
	}
	return nil
}
