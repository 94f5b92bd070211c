package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/report"
)

// colorFor reports whether to colour output written to w: only on a
// terminal, and not when NO_COLOR is set.
func colorFor(w io.Writer) bool {
	return report.IsTerminal(w) && os.Getenv("NO_COLOR") == ""
}

// writeFileWith creates path ("-" is stdout) and writes it with fn.
func writeFileWith(path string, stdout io.Writer, fn func(io.Writer) error) error {
	if path == "-" {
		return fn(stdout)
	}
	var buf bytes.Buffer
	if err := fn(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// cmdReport renders saved results: reptest report FILE.json... [flags].
// Several files (the shards of one run) are merged first.
func cmdReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report", stderr)
	var (
		htmlOut  = fs.String("html", "", "write the HTML report to `FILE`")
		junitOut = fs.String("junit", "", "write JUnit XML to `FILE`")
		badgeDir = fs.String("badge", "", "write a shields.io endpoint badge per parser into `DIR`")
		expect   = fs.String("expect", "", "expected-failure `FILE` (YAML): known failures do not fail the run")
		mergeOut = fs.String("merge-out", "", "write the merged results JSON to `FILE` (- for stdout)")
		title    = fs.String("title", "", "title of the HTML report")
		verbose  = fs.Bool("v", false, "list every failing check")
		quiet    = fs.Bool("quiet", false, "print no summary")
		findings multi
	)
	fs.Var(&findings, "findings", "add differential findings (JSON lines) from `FILE`; repeatable")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reptest report FILE.json... [--html F] [--junit F] [--badge DIR] [--expect F] [--merge-out F] [--findings F]... [-v] [--quiet]")
		fs.PrintDefaults()
	}
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fs.Usage()
		return 2
	}
	if isDiffReport(files[0]) { // the shards of reptest diff --report
		return reportDiff(files, *mergeOut, *htmlOut, *quiet, stdout, stderr)
	}
	var docs []*report.Document
	for _, name := range files {
		d, err := readDocument(name)
		if err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
		docs = append(docs, d)
	}
	doc := docs[0]
	doc.Recount() // the counts always follow the results
	if len(docs) > 1 {
		var err error
		if doc, err = report.Merge(docs...); err != nil {
			fmt.Fprintf(stderr, "reptest report: merging %d files: %v\n", len(docs), err)
			return 2
		}
	}
	for _, name := range findings {
		fsf, err := readFindings(name)
		if err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
		doc.Findings = append(doc.Findings, fsf...)
	}
	if *expect != "" {
		f, err := os.Open(*expect)
		if err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
		e, err := report.ReadExpectations(f, *expect)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
		doc.ApplyExpectations(e)
	}
	outputs := []struct {
		path string
		fn   func(io.Writer) error
	}{
		{*mergeOut, doc.WriteJSON},
		{*htmlOut, func(w io.Writer) error { return report.WriteHTML(w, doc, report.HTMLOptions{Title: *title}) }},
		{*junitOut, func(w io.Writer) error { return report.JUnit(w, doc) }},
	}
	for _, o := range outputs {
		if o.path == "" {
			continue
		}
		if err := writeFileWith(o.path, stdout, o.fn); err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
	}
	if *badgeDir != "" {
		if _, err := report.WriteBadges(*badgeDir, doc); err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
	}
	if !*quiet && *mergeOut != "-" {
		if err := report.Text(stdout, doc, report.TextOptions{Verbose: *verbose, Color: colorFor(stdout)}); err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
	}
	if doc.ShouldFail() {
		return 1
	}
	return 0
}

func readDocument(name string) (*report.Document, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := report.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}

func readFindings(name string) ([]diff.Finding, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fs, err := diff.ReadFindings(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return fs, nil
}
