// Package report renders reptest's one results document (package result;
// docs/FORMAT.md §5) in every form: terminal text (Text, with the
// diagnosis's lines, DiagnosisLine, and AuditText for an audit's own
// account), self-contained HTML (WriteHTML), JUnit XML (JUnit) and
// shields.io badges (BadgeFor, WriteBadges); the JSON form is the
// document's own (result.Document.WriteJSON). It also draws the terminal
// progress bar (Progress) and prints the verdict matrix that package
// matrix builds for "reptest matrix" (WriteMatrix).
//
// The producers (package cases' runner, diff, crawl, accesslog, and
// diagnose for the diagnosis) fill the document; package result
// summarises, groups, merges it and marks its expected failures (package
// expect reads the files). report renders what the document records and
// decides nothing again. Levels, sections, summaries and area titles
// come from the requirement table the document carries, and, for a
// document that carries none, from the table the caller passes
// (HTMLOptions.Table). Every form is rendered from the document alone,
// so that a saved results file renders again later as it did first:
// reptest report X.json prints the text of the command that wrote
// X.json. The package never runs a parser.
//
// Everything a result.Document holds that came from a case, a parser, a
// crawler, a log or a finding (robots.txt bodies, URLs, agents, parser
// stderr) is treated as untrusted: the HTML report escapes it through
// html/template alone, the terminal and JUnit forms show control, format
// and bidirectional characters as visible escapes.
package report
