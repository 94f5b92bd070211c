package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/reptest/reptest/reference"
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
	if *robots == "" || *agent == "" || len(pos) == 0 {
		fmt.Fprintln(stderr, "usage: reptest check --robots FILE --agent TOKEN URL...")
		return 2
	}
	if !checkProfile("check", *profile, stderr) {
		return 2
	}
	opts, _ := reference.OptionsFor(*profile)
	var body []byte
	var err error
	if *robots == "-" {
		body, err = io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
	} else {
		body, err = os.ReadFile(*robots)
	}
	if err != nil {
		fmt.Fprintln(stderr, "reptest check:", err)
		return 2
	}
	r := reference.Parse(body, opts)
	if r.Truncated() {
		fmt.Fprintf(stdout, "note: the file is %d bytes; only the first %d were parsed\n", len(body), r.ParsedBytes())
	}
	code = 0
	for _, u := range pos {
		d, err := r.Decide(*agent, u)
		if err != nil {
			fmt.Fprintf(stderr, "reptest check: %s: %v\n", u, err)
			code = 2
			continue
		}
		fmt.Fprintf(stdout, "%s\t%s\n", u, d)
	}
	return code
}
