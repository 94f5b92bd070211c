package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/reptest/reptest/reference"
)

// variantListing is the --json form of `reptest variants`.
type variantListing struct {
	Misreadings []listedMisreading `json:"misreadings"`
}

// listedMisreading is one misreading of the catalogue as plain data.
type listedMisreading struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	RFC   string   `json:"rfc"`
	Req   []string `json:"req"`
	Kind  string   `json:"kind"`
	// Parsers says the misreading can be given to a parser
	// (--parser reference+ID); crawl misreadings apply to crawlers only.
	Parsers bool `json:"parsers"`
}

// cmdVariants lists the catalogue of misreadings: the names of the ways
// real implementations depart from RFC 9309, each usable as a variant of
// the reference.
func cmdVariants(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("variants", stderr)
	asJSON := fs.Bool("json", false, "print the catalogue as JSON")
	kind := fs.String("kind", "", "list only one kind: matching, groups, syntax, access or crawl")
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	l := variantListing{Misreadings: []listedMisreading{}}
	for _, m := range reference.Misreadings() {
		if *kind == "" || m.Kind == *kind {
			l.Misreadings = append(l.Misreadings, listedMisreading{m.ID, m.Title, m.RFC, m.Req, m.Kind, m.ForParsers()})
		}
	}
	if len(l.Misreadings) == 0 {
		fmt.Fprintf(stderr, "reptest variants: no misreading of kind %q (kinds: matching, groups, syntax, access, crawl)\n", *kind)
		return exitUsage
	}
	if err := writeJSONOr(stdout, *asJSON, l, l.writeText); err != nil {
		fmt.Fprintln(stderr, "reptest variants:", err)
		return exitUsage
	}
	return exitOK
}

// writeText writes the catalogue as a table, then how to use it.
func (l variantListing) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tRFC\tREQ\tTITLE")
	for _, m := range l.Misreadings {
		fmt.Fprintf(tw, "%s\t%s\t§%s\t%s\t%s\n", m.ID, m.Kind, m.RFC, strings.Join(m.Req, ","), m.Title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d misreadings. A variant of the reference makes one or more of them:\n"+
		"  reptest run --parser reference+first-match+no-wildcards   (or reference-google+ID…)\n"+
		"Kind crawl changes no parser's verdict: only crawlers make those (testcrawler -variant ID+ID).\n", len(l.Misreadings))
	return err
}
