// Package reference is reptest's implementation of RFC 9309, the Robots
// Exclusion Protocol: the truth every case, differential verdict and fuzz
// oracle is judged against.
//
// The package follows the RFC's order, one concern per file:
//
//   - syntax.go: lines, records and comments (§2.1, §2.2; SYN-*).
//   - groups.go: Parse, groups, merging and other records (§2.1,
//     §2.2.1, §2.2.4); Groups exports the group structure as plain data.
//   - decide.go: group selection and longest match (§2.2.1–§2.2.2): the
//     one search for the deciding rule, which both ways of deciding use.
//   - once.go: AllowedOnce, one decision in one pass over the body that
//     keeps nothing, for callers that ask one question per file.
//   - pattern.go: percent-encoding normalisation, "*" and "$" (§2.2.2,
//     §2.2.3).
//   - url.go: the robots.txt URL of a page (§2.3).
//   - fetch.go: the access method: status classes, redirects, the body
//     cap (§2.3.1, §2.5).
//   - cache.go: caching with an injectable clock (§2.4).
//   - options.go: every choice the RFC leaves open, with the RFC's
//     recommendation as the default (RFC) and Google's documented
//     behaviour as an alternative set (Google).
//   - misread.go: the catalogue of misreadings, named deviations from
//     the RFC that real implementations make, each a variant of the
//     reference (Misreadings, WithMisreadings; docs/FORMAT.md §6). Their
//     options are the fields of Misread, which RFC and Google leave off;
//     misread_apply.go holds the code only variants run, so that the
//     RFC's path is unchanged. Misreadings of kind "crawl" change no
//     decision here: crawler simulations read their options.
//   - version.go: Version, reptest's version, which the reference's
//     adapters and results documents report.
//
// Every verdict comes with a Decision that says which groups applied, which
// rule decided (or why none did), the normalised path that was matched and,
// for fetched files, how the file was obtained.
package reference
