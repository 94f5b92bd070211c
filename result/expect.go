package result

import (
	"cmp"
	"slices"
)

// Expectation is one entry of an expected-failure file (reptest run
// --expect): the cases of one parser whose failures are known, with the
// reason and a link to the upstream bug. Package expect reads and writes
// the file.
type Expectation struct {
	Parser string
	// Cases are case patterns: case ids, or patterns in the syntax of
	// --run and --skip.
	Cases  []string
	Reason string
	Link   string
}

// MarkExpected marks in d the failures that es expects (Expected) and
// lists the entries that no failure matched (Unexpected), replacing
// earlier marks. A result is covered by the first entry of its parser
// with a pattern that match accepts for its case id; a failing check
// (Outcome.Fails(true)) so covered is expected, and a skipped check
// counts for no entry. Entries without a failing check are listed by
// parser name, then in the order given. match is the pattern rule of the
// selection (cases.Glob).
func (d *Document) MarkExpected(es []Expectation, match func(pattern, id string) bool) {
	d.Expected, d.Unexpected = nil, nil
	if len(es) == 0 {
		return
	}
	byParser := map[string][]int{} // parser → its entries' indexes, in order
	for i, e := range es {
		byParser[e.Parser] = append(byParser[e.Parser], i)
	}
	matched, failing := make([]int, len(es)), make([]int, len(es))
	for _, r := range d.Results {
		i, pat, ok := firstMatch(es, byParser[r.Parser], r.Case, match)
		if !ok || r.Outcome == Skipped {
			continue
		}
		matched[i]++
		if r.Outcome.Fails(true) {
			failing[i]++
			d.Expected = append(d.Expected, ExpectedFailure{Parser: r.Parser, Case: r.Case, Check: r.Check,
				Pattern: pat, Reason: es[i].Reason, Link: es[i].Link})
		}
	}
	order := make([]int, len(es))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(es[a].Parser, es[b].Parser) })
	for _, i := range order {
		if failing[i] == 0 {
			e := es[i]
			d.Unexpected = append(d.Unexpected, UnexpectedPass{Parser: e.Parser, Cases: e.Cases,
				Reason: e.Reason, Link: e.Link, Matched: matched[i]})
		}
	}
}

// firstMatch returns the first of the entries at idx with a pattern that
// matches id, and that pattern.
func firstMatch(es []Expectation, idx []int, id string, match func(pattern, id string) bool) (int, string, bool) {
	for _, i := range idx {
		for _, p := range es[i].Cases {
			if match(p, id) {
				return i, p, true
			}
		}
	}
	return 0, "", false
}
