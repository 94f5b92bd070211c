package diagnose

import (
	"cmp"
	"slices"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// evaluator answers questions of the evidence as variants of the
// reference read them. Positions index the questions in body order, so
// that a variant parses each body once per pass.
type evaluator struct {
	ev    *Evidence
	order []int           // position → question index, sorted by body
	ref   []cases.Verdict // position → the reference's verdict
	// reach holds per single misreading the positions where its variant
	// differs from the reference.
	reach map[string][]int32
	cands []misreading // the misreadings a variant models
	// memo keeps each variant's verdicts by position, as far as asked:
	// variants recur across parsers and steps, and a verdict once read
	// is not read again.
	memo map[string][]uint8
}

// The codes of memo.
const (
	codeUnknown uint8 = iota
	codeAllow
	codeDisallow
	codeNone
)

var codes = map[cases.Verdict]uint8{cases.Allow: codeAllow, cases.Disallow: codeDisallow}

// cached returns the verdicts of the variant ids on pos (sorted), asking
// only those not asked before.
func (e *evaluator) cached(ids []string, pos []int32) []cases.Verdict {
	key := strings.Join(ids, "+")
	m := e.memo[key]
	if m == nil {
		m = make([]uint8, len(e.order))
		e.memo[key] = m
	}
	var missing []int32
	for _, p := range pos {
		if m[p] == codeUnknown {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		for k, v := range e.verdicts(ids, missing) {
			m[missing[k]] = cmp.Or(codes[v], codeNone)
		}
	}
	out := make([]cases.Verdict, len(pos))
	for k, p := range pos {
		switch m[p] {
		case codeAllow:
			out[k] = cases.Allow
		case codeDisallow:
			out[k] = cases.Disallow
		}
	}
	return out
}

// newEvaluator reads the reference's verdicts and every single variant's
// reach.
func newEvaluator(ev *Evidence) *evaluator {
	e := &evaluator{ev: ev, order: make([]int, len(ev.Questions)), reach: map[string][]int32{}, memo: map[string][]uint8{}}
	for i := range e.order {
		e.order[i] = i
	}
	slices.SortStableFunc(e.order, func(a, b int) int { return cmp.Compare(ev.Questions[a].Body, ev.Questions[b].Body) })
	all := make([]int32, len(e.order))
	for i := range all {
		all[i] = int32(i)
	}
	e.ref = e.verdicts(nil, all)
	for _, m := range catalogue() {
		if !m.ForParsers() {
			continue
		}
		e.cands = append(e.cands, m)
		vs := e.cached([]string{m.ID}, all)
		var r []int32
		for p, v := range vs {
			if known(v) && known(e.ref[p]) && v != e.ref[p] {
				r = append(r, int32(p))
			}
		}
		e.reach[m.ID] = r
	}
	return e
}

// question returns the question at position p.
func (e *evaluator) question(p int32) *Question { return &e.ev.Questions[e.order[p]] }

// verdicts returns the verdicts of the variant ids on the positions pos,
// which must be sorted.
func (e *evaluator) verdicts(ids []string, pos []int32) []cases.Verdict {
	out := make([]cases.Verdict, len(pos))
	opts := map[string]reference.Options{}
	last := -1
	var res *reference.Result
	for k, p := range pos {
		q := e.question(p)
		if q.Body != last {
			b := &e.ev.Bodies[q.Body]
			o, ok := opts[b.profileOf()]
			if !ok {
				o = variant(b.profileOf(), ids)
				opts[b.profileOf()] = o
			}
			res = fetched(b, o)
			last = q.Body
		}
		out[k] = verdictOn(res, q.Agent, q.URL)
	}
	return out
}

// variant returns the options of a profile's reference with ids applied.
// The ids come from the catalogue, so they are known.
func variant(profile string, ids []string) reference.Options {
	base, _ := reference.OptionsFor(profile)
	o, err := withMisreadings(base, ids...)
	if err != nil {
		panic(err) // ids are the catalogue's own
	}
	return o
}

// verdictOn is the verdict of a fetched file on one question; "" when
// the reference refuses the question (an agent that is no product
// token).
func verdictOn(res *reference.Result, agent, url string) cases.Verdict {
	var allowed bool
	if res.Robots != nil {
		ok, err := res.Robots.Allowed(agent, url)
		if err != nil {
			return ""
		}
		allowed = ok
	} else {
		d, err := res.Decide(agent, url)
		if err != nil {
			return ""
		}
		allowed = d.Allowed
	}
	if allowed {
		return cases.Allow
	}
	return cases.Disallow
}

// union returns the sorted union of sorted position lists.
func union(lists ...[]int32) []int32 {
	var out []int32
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fetched is the body as a fetch under o reads it. Status 0 stands for a
// network failure, which FromStatus reads as unreachable; the misreading
// unreachable-allows reads it as unavailable.
func fetched(b *Body, o reference.Options) *reference.Result {
	if b.Status == 0 && o.UnreachableAllows {
		return reference.FromStatus(404, nil, o)
	}
	return reference.FromStatus(b.Status, b.Robots, o)
}
