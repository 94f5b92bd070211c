package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/visible"
)

// cmdCheck prints the reference's verdict and trace for each URL, so that
// a crawler operator can log how a decision was made. It exits 0 when
// every URL may be crawled, 1 when one may not, 2 for a usage error (which
// wins over a verdict). --agent takes a product token or a whole
// User-Agent header, of which the token the file names is used, as a
// crawler would match its own token against the file's groups.
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	robots := fs.String("robots", "", "the robots.txt `FILE` (- for standard input)")
	agent := fs.String("agent", "", "the crawler's product token ([a-zA-Z_-]+) or its whole User-Agent header")
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
	token := *agent
	if !reference.IsProductToken(token) {
		token = headerToken(token, r.Agents())
		fmt.Fprintf(stdout, "note: --agent is a User-Agent header; judged as the product token %s\n", token)
	}
	code = exitOK
	for _, u := range pos {
		if err := checkURL(u); err != nil {
			fmt.Fprintf(stderr, "reptest check: %v\n", err)
			code = exitUsage
			continue
		}
		d, err := r.Decide(token, u)
		if err != nil {
			fmt.Fprintf(stderr, "reptest check: %s: %v\n", u, err)
			code = exitUsage
			continue
		}
		fmt.Fprintf(stdout, "%s\t%s\n", u, d)
		if !d.Allowed && code == exitOK {
			code = exitFail
		}
	}
	return code
}

// headerToken returns the product token a crawler with User-Agent header
// ua goes by for a file that names agents: the longest of them the header
// names as a whole word (crawl.NamedToken, as reptest crawl and audit
// judge); when it names none, a token of the header itself, which then
// falls to the "*" group like any unnamed crawler.
func headerToken(ua string, agents []string) string {
	if t := crawl.NamedToken(ua, agents); t != "*" {
		for i := 0; i+len(t) <= len(ua); i++ {
			if strings.EqualFold(ua[i:i+len(t)], t) {
				return ua[i : i+len(t)] // as the header spells it
			}
		}
		return t
	}
	// Bots that name no group of the file: the token after "compatible;"
	// (Mozilla/5.0 (compatible; Googlebot/2.1; …)), which is the bot's own,
	// else the header's first.
	if _, after, ok := strings.Cut(ua, "compatible;"); ok {
		if t := leadingToken(strings.TrimLeft(after, " ")); t != "" {
			return t
		}
	}
	if t := leadingToken(ua); t != "" {
		return t
	}
	return "unnamed-crawler"
}

// leadingToken returns the first run of product-token characters in s.
func leadingToken(s string) string {
	start := -1
	for i := 0; i <= len(s); i++ {
		in := i < len(s) && reference.IsProductToken(s[i:i+1])
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			return s[start:i]
		}
	}
	return ""
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
