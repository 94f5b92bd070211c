// Package fuzz holds reptest's native Go fuzz targets. It has no API: the
// targets are in its test files and run with "go test -fuzz".
//
//   - FuzzParse: any bytes as robots.txt. The reference never panics,
//     allocates at most a fixed multiple of its input, answers within a
//     time bound, and rejects agents that are not product tokens.
//   - FuzzMatch: the reference's matcher against an independent oracle
//     (its own percent-encoding normalisation and an NFA simulation of
//     "*" and "$"), through the public API.
//   - FuzzInvariants: metamorphic properties of the reference on generated
//     files (rule order, group splitting, noise lines, line ends, record
//     name case, BOM, other groups, duplicate rules, the "*" group, ties).
//   - FuzzDifferential: the reference against github.com/jimsmart/grobotstxt
//     (Google options) and github.com/temoto/robotstxt (RFC options). Each
//     known class of disagreement is filtered by a documented predicate, so
//     that only new classes fail.
//
// The oss-fuzz directory holds the build script and project file that let
// OSS-Fuzz or ClusterFuzzLite run the same targets.
package fuzz
