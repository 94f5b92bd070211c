// Package report holds reptest's result document (docs/FORMAT.md §4–§5) and
// every rendering of it: JSON, terminal text, HTML, JUnit XML and
// shields.io badges. It also merges the documents of sharded runs, applies
// expected-failure files, draws the terminal progress bar, and prints the
// verdict matrix that package matrix builds for "reptest matrix".
//
// A run is first written as a result.Document (JSON); every other form is
// rendered from it, so a saved results file can be rendered again later.
// The package never runs a parser.
//
// Everything a result.Document holds that came from a case, a parser or a
// finding (robots.txt bodies, URLs, agents, parser stderr) is treated as
// untrusted: the HTML report escapes it through html/template alone, the
// terminal and JUnit forms show control, format and bidirectional
// characters as visible escapes.
package report
