package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/expect"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
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
func resultStatus(doc *result.Document) int {
	if doc.ShouldFail() {
		return exitFail
	}
	return exitOK
}

// writeOutput renders into the file at path, atomically (report.WriteFile),
// or to stdout when path is "-"; nothing when path is empty. A failure is
// reported on stderr as the command cmd, and false returned. Every output
// file of every command is written here.
func writeOutput(cmd string, stdout, stderr io.Writer, path string, render func(io.Writer) error) bool {
	var err error
	switch path {
	case "":
		return true
	case "-":
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

// toStdout reports whether one of the output paths is "-": the command
// then prints no summary, which would be mixed into the output.
func toStdout(paths ...string) bool {
	for _, p := range paths {
		if p == "-" {
			return true
		}
	}
	return false
}

// outputPath is the value of a flag that names an output file, "-" for
// stdout. Every output flag of every command is one (outputVar), so that
// parseArgs can refuse two of them on stdout (stdoutOnce).
type outputPath string

func (p *outputPath) String() string     { return string(*p) }
func (p *outputPath) Set(s string) error { *p = outputPath(s); return nil }

// outputVar defines an output flag: a file path, "-" for stdout.
func outputVar(fs *flag.FlagSet, p *string, name, usage string) {
	fs.Var((*outputPath)(p), name, usage)
}

// folderPath is the value of a flag that names a folder to write into
// (--badge): "-" is refused, since a folder cannot be stdout and a folder
// named "-" is never what was meant.
type folderPath string

func (p *folderPath) String() string { return string(*p) }
func (p *folderPath) Set(s string) error {
	if s == "-" {
		return errors.New("a folder, not stdout (-)")
	}
	*p = folderPath(s)
	return nil
}

// stdoutOnce returns an error when more than one output flag set in fs
// is "-": each would be written to stdout in turn, one document after
// the other, which no reader can take apart.
func stdoutOnce(fs *flag.FlagSet) error {
	var names []string
	fs.Visit(func(f *flag.Flag) {
		if _, ok := f.Value.(*outputPath); ok && f.Value.String() == "-" {
			names = append(names, "--"+f.Name+" -")
		}
	})
	if len(names) > 1 {
		return fmt.Errorf("%s: only one output can be stdout (-); give the others a FILE", strings.Join(names, " and "))
	}
	return nil
}

// outputSet is a set of output flags: the commands that judge a results document
// (run, crawl, audit, report) each register the ones they have from
// outputFlags.register, so that a flag reads and means the same in all.
type outputSet int

const (
	flagJSON        outputSet = 1 << iota // --json FILE
	flagJUnit                             // --junit FILE
	flagHTML                              // --html FILE
	flagBadge                             // --badge DIR
	flagExpect                            // --expect FILE, read
	flagWriteExpect                       // --write-expect FILE, written
	flagMergeOut                          // --merge-out FILE: the JSON of flagJSON under report's name
)

// outputFlags are the files a document is rendered into, and the
// expected-failure file it is judged against.
type outputFlags struct {
	json, junit, html, badges, writeExpect string
	title                                  string // of the HTML report
	expectFile                             string
	expected                               *expect.File // read from expectFile
}

// register adds the output flags of the set has to fs.
func (o *outputFlags) register(fs *flag.FlagSet, has outputSet) {
	add := func(f outputSet, p *string, name, usage string) {
		if has&f != 0 {
			outputVar(fs, p, name, usage)
		}
	}
	add(flagJSON, &o.json, "json", "write the results as JSON to `FILE`")
	add(flagMergeOut, &o.json, "merge-out", "write the merged results JSON to `FILE` (- for stdout)")
	add(flagJUnit, &o.junit, "junit", "write JUnit XML to `FILE`")
	add(flagHTML, &o.html, "html", "write a self-contained HTML report to `FILE`")
	add(flagWriteExpect, &o.writeExpect, "write-expect", "write the run's failures as an expected-failure `FILE` to start one (see --expect)")
	// Not outputs on stdout: a folder, and a file read.
	if has&flagBadge != 0 {
		fs.Var((*folderPath)(&o.badges), "badge", "write a shields.io endpoint JSON per parser into `DIR`")
	}
	if has&flagExpect != 0 {
		fs.StringVar(&o.expectFile, "expect", "", "a YAML `FILE` of expected failures; only new failures fail the run")
	}
}

// readExpect reads the expected-failure file of --expect, if one is given.
func (o *outputFlags) readExpect() error {
	if o.expectFile == "" {
		return nil
	}
	var err error
	o.expected, err = readFile(o.expectFile, expect.Read)
	return err
}

// write applies the expected failures to doc, then writes every requested
// rendering of it, stopping at the first that fails; it reports whether
// all were written. A path "-" is stdout.
func (o *outputFlags) write(cmd string, doc *result.Document, stdout, stderr io.Writer) bool {
	if o.expected != nil {
		doc.MarkExpected(o.expected.Expectations(), cases.Glob)
	}
	ok := writeOutput(cmd, stdout, stderr, o.json, doc.WriteJSON) &&
		writeOutput(cmd, stdout, stderr, o.junit, func(w io.Writer) error { return report.JUnit(w, doc) }) &&
		writeOutput(cmd, stdout, stderr, o.html, func(w io.Writer) error {
			title := o.title
			if title == "" {
				title = pageTitle(doc)
			}
			return report.WriteHTML(w, doc, report.HTMLOptions{Title: title, Table: ownTable()})
		}) &&
		writeOutput(cmd, stdout, stderr, o.writeExpect, expect.For(doc).WriteYAML)
	if ok && o.badges != "" {
		if _, err := report.WriteBadges(o.badges, doc); err != nil {
			fmt.Fprintf(stderr, "reptest %s: %v\n", cmd, err)
			ok = false
		}
	}
	return ok
}

// toStdout reports whether one of the output files is "-" (stdout).
func (o *outputFlags) toStdout() bool {
	return toStdout(o.json, o.junit, o.html, o.writeExpect)
}

// writeJSONOr writes v to w as indented JSON when asJSON is set, and
// with text otherwise: the two forms of list, variants and matrix.
func writeJSONOr(w io.Writer, asJSON bool, v any, text func(io.Writer) error) error {
	if !asJSON {
		return text(w)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// pageTitle names the page of a document rendered without a title of its
// own (reptest report): a differential run's, a crawl's by its crawlers,
// an audit's; "" leaves report's default.
func pageTitle(doc *result.Document) string {
	switch {
	case doc.Summary != nil && !doc.Summary.FindingsOnly && len(doc.Results) == 0:
		return diffTitle
	case len(doc.Crawls) > 0:
		var names []string
		for _, c := range doc.Crawls {
			if !slices.Contains(names, c.Crawler) {
				names = append(names, c.Crawler)
			}
		}
		return "reptest crawl: " + strings.Join(names, ", ")
	case doc.Audit != nil:
		return "reptest audit"
	}
	return ""
}

// ownTable is reptest's requirement table, which pages look requirement
// IDs up in when their document carries no table (diff's, audit's and
// those of earlier versions). The embedded table is checked by every
// load and by package cases' tests; were it malformed, the lookups would
// find nothing and the page would say "other".
func ownTable() result.Table {
	t, _ := cases.RequirementTable()
	return t
}
