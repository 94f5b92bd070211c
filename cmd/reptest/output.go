package main

import (
	"fmt"
	"io"

	"github.com/reptest/reptest/report"
)

// Exit statuses, the same for every command (README "Commands").
const (
	exitOK    = 0 // every parser conforms, or the command succeeded
	exitFail  = 1 // a parser does not conform or did not run, or the run was interrupted
	exitUsage = 2 // a usage error, a corpus that fails to load, an empty selection, an output not written
)

// resultStatus is the exit status of a command that judged a document:
// exitFail when the run was interrupted, a parser did not run, or a
// failure no expected-failure entry covers remains (Document.ShouldFail).
func resultStatus(doc *report.Document) int {
	if doc.ShouldFail() {
		return exitFail
	}
	return exitOK
}

// writeOutput renders into the file at path, atomically (report.WriteFile),
// or to stdout when path is "-" and stdout is not nil; nothing when path is
// empty. A failure is reported on stderr as the command cmd, and false
// returned. Every output file of every command is written here.
func writeOutput(cmd string, stdout, stderr io.Writer, path string, render func(io.Writer) error) bool {
	var err error
	switch {
	case path == "":
		return true
	case path == "-" && stdout != nil:
		err = render(stdout)
	default:
		err = report.WriteFile(path, render)
	}
	if err != nil {
		fmt.Fprintf(stderr, "reptest %s: %v\n", cmd, err)
		return false
	}
	return true
}

// writer returns writeOutput for the command cmd, writing files only.
func writer(cmd string, stderr io.Writer) func(path string, render func(io.Writer) error) bool {
	return func(path string, render func(io.Writer) error) bool {
		return writeOutput(cmd, nil, stderr, path, render)
	}
}

// docOutputs are the files a document is rendered into.
type docOutputs struct {
	json, junit, html, badges, expect string
	title                             string // of the HTML report
}

// write writes every requested rendering of doc, stopping at the first
// that fails; it reports whether all were written.
func (o docOutputs) write(cmd string, doc *report.Document, stdout, stderr io.Writer) bool {
	ok := writeOutput(cmd, stdout, stderr, o.json, doc.WriteJSON) &&
		writeOutput(cmd, stdout, stderr, o.junit, func(w io.Writer) error { return report.JUnit(w, doc) }) &&
		writeOutput(cmd, stdout, stderr, o.html, func(w io.Writer) error {
			return report.WriteHTML(w, doc, report.HTMLOptions{Title: o.title})
		}) &&
		writeOutput(cmd, stdout, stderr, o.expect, report.ExpectationsFor(doc).WriteYAML)
	if ok && o.badges != "" {
		if _, err := report.WriteBadges(o.badges, doc); err != nil {
			fmt.Fprintf(stderr, "reptest %s: %v\n", cmd, err)
			ok = false
		}
	}
	return ok
}
