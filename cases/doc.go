// Package cases is the centre of reptest: the test cases, how they are
// read, and how they are run against parsers. The formats it reads and
// writes are specified in docs/FORMAT.md; the corpus itself is data in
// package corpus.
//
// The package is laid out by role:
//
//   - Model (model.go, parser.go): a Case with its Checks, HTTP
//     Responses or timeline Steps, and a parser as seen by the runner
//     (Parser, the Request it is asked, and the optional Tracer, Batcher
//     and SessionEnder). The names a result is made of (result.Outcome
//     and the rule that says which outcomes fail, result.Verdict,
//     result.Level, result.Info and its Capabilities, result.Result) are
//     package result's; this package uses them and restates none.
//   - Requirements (requirements.go): the requirement table of
//     corpus/requirements.yaml, the one source of requirement IDs, levels,
//     sections and areas, and Coverage.
//   - Loader (load.go, load_yaml.go, load_case.go, load_usage.go): Load,
//     LoadSources and LoadEmbedded read case files into Cases, every error
//     with file:line:col.
//   - Selection (select.go): Select by Glob over ids and requirement IDs,
//     and Shard, one part of a run.
//   - Runner (run.go, run_usage.go): Run asks every parser about every
//     check and records a Result per check per parser, with Summaries.
//   - Server (server.go): the loopback HTTP server that serves a case's
//     responses, faults and timeline steps to fetching parsers.
//   - Suite (harness.go): RunSuite, the corpus run for one parser and
//     sorted into one report per case; the Go harness that turns those
//     into subtests is package casetest (kept apart so that this package,
//     which the binary links, does not import testing).
//
// Text shown to people (harness failures) is escaped with package
// visible.
package cases
