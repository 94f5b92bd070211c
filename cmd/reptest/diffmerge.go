package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/reptest/reptest/diff"
)

// isDiffReport reports whether the file is a differential report
// (reptest diff --report) rather than a results document.
func isDiffReport(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(`"kind": "`+diff.ReportKind+`"`)) || bytes.Contains(head[:n], []byte(`"kind":"`+diff.ReportKind+`"`))
}

// reportDiff merges the differential reports of a sharded run and writes
// the merged report (--merge-out), its HTML page (--html) and its text
// summary. command is the command line that merges them.
func reportDiff(command string, files []string, mergeOut, htmlOut string, quiet bool, stdout, stderr io.Writer) int {
	var parts []*diff.Report
	for _, name := range files {
		rep, err := readFile(name, diff.ReadReport)
		if err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
		parts = append(parts, rep)
	}
	rep, err := diff.Merge(parts...)
	if err != nil {
		fmt.Fprintf(stderr, "reptest report: %v\n", err)
		return 2
	}
	rep.Run.Command = command
	rep.Run.Summary = &rep.Summary
	for _, o := range []struct {
		path string
		fn   func(io.Writer) error
	}{
		{mergeOut, func(w io.Writer) error { return diff.WriteReport(w, rep) }},
		{htmlOut, func(w io.Writer) error {
			return writeDiffHTML(w, rep, rep.Run)
		}},
	} {
		if !writeOutput("report", stdout, stderr, o.path, o.fn) {
			return 2
		}
	}
	if !quiet && !toStdout(mergeOut, htmlOut) {
		if err := diff.WriteText(stdout, &rep.Summary, 15); err != nil {
			fmt.Fprintf(stderr, "reptest report: %v\n", err)
			return 2
		}
	}
	return 0
}
