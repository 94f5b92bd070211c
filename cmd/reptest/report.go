package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

// colorFor reports whether to colour output written to w: only on a
// terminal, and not when NO_COLOR is set.
func colorFor(w io.Writer) bool {
	return report.IsTerminal(w) && os.Getenv("NO_COLOR") == ""
}

// cmdReport renders saved results: reptest report FILE.json... [flags].
// Several files (the shards of one run) are merged first.
func cmdReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report", stderr)
	var out outputFlags
	out.register(fs, flagHTML|flagJUnit|flagBadge|flagExpect|flagMergeOut)
	fs.StringVar(&out.title, "title", "", "title of the HTML report")
	var (
		verbose  = fs.Bool("v", false, "list every failing check")
		quiet    = fs.Bool("quiet", false, "print no summary")
		partial  = fs.Bool("partial", false, "render documents that are not every shard of a run (flagged as partial) instead of refusing them")
		findings multi
	)
	fs.Var(&findings, "findings", "add differential findings (JSON lines) from `FILE`; repeatable")
	files, code, ok := parseOperands(fs, args, "usage: reptest report FILE.json... [--html F] [--junit F] [--badge DIR] [--expect F] [--merge-out F] [--findings F]... [--partial] [-v] [--quiet]", 0, -1)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "reptest report: no results file given: name the FILE.json that reptest run --json (or diff --report) wrote; --findings adds a diff's findings to a run's report")
		fs.Usage()
		return exitUsage
	}
	doc, err := readDocuments(files, *partial, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "reptest report: %v\n", err)
		return exitUsage
	}
	for _, name := range findings {
		fsf, err := readFindings(name)
		if err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return exitUsage
		}
		doc.Findings = append(doc.Findings, fsf...)
	}
	if len(findings) > 0 && doc.Summary == nil && len(doc.Findings) > 0 {
		// Findings read on their own: counted here, once, for every rendering.
		doc.Summary = result.SummarizeFindings(doc.Findings, nil)
		doc.Reference = result.ReferenceOf(doc.Summary.Parsers, doc.Findings[0].Profile)
	}
	if doc.Run != nil && doc.Summary != nil && !doc.Summary.FindingsOnly {
		doc.Run.Command = commandLine("report", args)
	}
	if err := out.readExpect(); err != nil {
		fmt.Fprintf(stderr, "reptest report: %v\n", err)
		return exitUsage
	}
	if !out.write("report", doc, stdout, stderr) {
		return exitUsage
	}
	if !*quiet && !out.toStdout() {
		if err := report.Text(stdout, doc, report.TextOptions{Verbose: *verbose, Color: colorFor(stdout), Top: report.DefaultTop}); err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return exitUsage
		}
	}
	return resultStatus(doc)
}

// readDocuments reads the results documents and merges them into one. They
// must be every shard of one run (result.CheckShards) unless partial, when
// a warning says they are not.
func readDocuments(files []string, partial bool, stderr io.Writer) (*result.Document, error) {
	var docs []*result.Document
	for _, name := range files {
		d, err := readDocument(name)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	if err := result.CheckShards(docs); err != nil {
		if !partial {
			return nil, fmt.Errorf("%w\n(give every shard's file, or --partial to render these anyway)", err)
		}
		fmt.Fprintf(stderr, "reptest report: warning: %v; the results are partial\n", err)
	}
	if len(docs) == 1 && docs[0].Summary == nil {
		docs[0].Summarize() // the counts always follow the results
		return docs[0], nil
	}
	table, err := cases.RequirementTable()
	if err != nil {
		return nil, err
	}
	doc, err := result.Merge(table, docs...)
	if err != nil {
		return nil, fmt.Errorf("merging %d files: %w", len(docs), err)
	}
	return doc, nil
}

func readDocument(name string) (*result.Document, error) {
	d, err := readFile(name, named(result.ReadJSON))
	if err == nil && d.Version == "" && d.Summary != nil {
		d.Version = reference.Version // a differential report of an earlier reptest, which recorded none
	}
	return d, err
}

func readFindings(name string) ([]result.Finding, error) {
	return readFile(name, named(diff.ReadFindings))
}
