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
//   - perl-robotrules: Perl's WWW::RobotRules (parse only).
//   - webrobots: Ruby's WebRobots (parse and status).
//
// The last five are external peers: small programs in diff/peers that speak
// the reptest/1 protocol (docs/FORMAT.md §3) around the library, started through
// NewExec. Their runtimes come from Debian and npm packages that
// diff/peers/install.sh installs; when one is missing, New returns an
// error wrapping ErrUnavailable that names the package, and callers report
// that parser as skipped.
//
// The peer programs are found in the peers directory: Options.PeersDir
// when set, else the directory in the environment variable REPTEST_PEERS,
// else diff/peers in the root of this module, found by walking up from the
// working directory to the go.mod of github.com/reptest/reptest.
//
// Any other parser can be tested in two ways. NewExec runs a long-lived
// program that speaks the reptest/1 protocol (the CLI's --exec); NewCommand
// runs one process per check from a command template compatible with
// Google's robotstxt-spec-test, reading the verdict from the exit code or
// from standard output (the CLI's --command).
package parsers
