// Package report renders reptest's one results document (package result;
// docs/FORMAT.md §5) in every form: JSON, terminal text (Text, and
// AuditText for an audit), self-contained HTML (WriteHTML), JUnit XML
// and shields.io badges. It also reads and applies expected-failure files
// (ReadExpectations, ApplyExpectations, ExpectationsFor), draws the
// terminal progress bar, and prints the verdict matrix that package
// matrix builds for "reptest matrix".
//
// The producers (package cases' runner, diff, crawl, accesslog) fill the
// document, and package result summarises and merges it; report renders
// what the document records and decides nothing again. Levels, sections,
// summaries and area titles come from the requirement table the document
// carries, and from the embedded table only for what it does not carry.
// Every form is rendered from the document, so that a saved results file
// renders again later as it did first: reptest report X.json prints the
// text of the command that wrote X.json. The package never runs a parser.
//
// Everything a result.Document holds that came from a case, a parser, a
// crawler, a log or a finding (robots.txt bodies, URLs, agents, parser
// stderr) is treated as untrusted: the HTML report escapes it through
// html/template alone, the terminal and JUnit forms show control, format
// and bidirectional characters as visible escapes.
package report
