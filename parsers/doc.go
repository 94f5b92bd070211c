// Package parsers adapts robots.txt parsers to cases.Parser, so that the
// runner and the differential engine can put the same checks to each.
//
// Built-in parsers, by the name New takes (Names lists them):
//
//   - reference: reptest's own RFC 9309 implementation, under the option
//     set of each case's profile (RFC for rfc9309, Google for google).
//   - reference-google: the reference under Google's option set always.
//   - grobotstxt: github.com/jimsmart/grobotstxt, a Go port of Google's
//     C++ parser (parse only).
//   - temoto: github.com/temoto/robotstxt (parse and status).
//   - python-urllib: Python's urllib.robotparser (parse and status).
//   - protego: Protego, Scrapy's parser (parse only).
//   - robots-parser: the npm package robots-parser (parse only).
//   - robots-txt-guard, robots-txt-parser: the npm packages of those
//     names (parse only).
//   - perl-robotrules: Perl's WWW::RobotRules (parse only).
//   - webrobots: Ruby's WebRobots (parse and status).
//
// The last seven are external peers: small programs in peers that speak
// the reptest/1 protocol (docs/FORMAT.md §3; peers/README.md) around
// the library, started through NewExec. Their runtimes come from Debian and
// npm packages that peers/install.sh installs; when one is missing, New returns an
// error wrapping ErrUnavailable that names the package, and callers report
// that parser as skipped.
//
// The peer programs are found in the peers directory: Options.PeersDir
// when set, else the directory in the environment variable REPTEST_PEERS,
// else peers in the root of this module when the working directory is
// inside a checkout, else the copies embedded in the binary (package
// peers), written once to the user's cache folder.
//
// With Options.Isolate, grobotstxt and temoto run as Isolated: checks
// beyond a measured fast path go to a worker process (the running binary,
// which must call ServeWorkerIfAsked), so that the timeout and a memory
// limit bound them.
//
// Any other parser can be tested in two ways. NewExec runs a long-lived
// program that speaks the reptest/1 protocol (the CLI's --exec); NewCommand
// runs one process per check from a command template compatible with
// Google's robotstxt-spec-test, reading the verdict from the exit code or
// from standard output (the CLI's --command). Serve is the other side of
// the protocol, for any cases.Parser.
//
// Open starts the parsers of one run together, built-in ones by name and
// programs by command line, as the CLI's --parser, --exec and --command
// do: one that cannot start stands in the Set with the reason, so a run
// skips it or records its errors and keeps the others' results.
//
// Every adapter is safe for concurrent use; Exec and Isolated run up to
// ExecOptions.Procs (Options.Procs) processes for concurrent callers, and
// every adapter but Command implements cases.Batcher, with the verdicts of
// Check.
package parsers
