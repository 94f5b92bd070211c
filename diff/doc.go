// Package diff is reptest's differential engine: it asks several robots.txt
// parsers the same questions and reports where they disagree.
//
// The inputs are Files: the bodies of corpus cases with their checks
// (FromCases), directories of real robots.txt files (ReadDir), and files
// from a seeded grammar of realistic and hostile content (Generate). A file
// without checks is asked about probes derived from its own content
// (DeriveProbes): the agents it names and one it does not, and URLs at,
// past, inside and around each rule.
//
// Run compares the parsers a Factory makes, one instance per worker, on
// every probe of every file, in parallel and with a deterministic result.
// Each disagreement is a result.Finding (docs/FORMAT.md §4): the verdicts by parser, a
// Signature saying which parsers side with which, and requirement IDs from
// the reference's reading of the input (Tags). Findings are minimised
// (Minimize: lines, then characters, then the URL and the agent, keeping
// the verdicts and the reference's kind of reason), merged when equal, and
// grouped by signature and primary requirement (result.GroupFindings) into a
// result.DiffSummary with per-pair disagreement rates.
//
// WriteFindings and ReadFindings read and write findings as JSON lines;
// ReadFuzzFile reads a Go fuzzing corpus file; NewDraft and MarshalDrafts
// turn a finding into a YAML case draft whose expectation is the
// reference's verdict, for a person to review.
//
// The subpackage parsers holds the adapters (reference, grobotstxt,
// temoto, external programs).
package diff
