package diagnose

import (
	"context"
	"slices"

	"github.com/reptest/reptest/reference"

	"github.com/reptest/reptest/cases"
)

// MinExplains is the fewest departures a misreading must explain, beyond
// the misreadings chosen before it, to be claimed.
const MinExplains = 3

// ContradictShare bounds the contradictions a claimed misreading may
// add: at most one per ContradictShare departures it explains (so none
// for fewer than ContradictShare). Real parsers misread in ways the
// catalogue models only nearly, so a few contradictions are allowed.
const ContradictShare = 10

// Fit diagnoses every parser of the evidence: the smallest set of
// misreadings whose combined variant explains its departures from the
// reference (see Diagnosis). It chooses them greedily, the one that
// explains most departures first, claims one only when it explains at
// least MinExplains more and adds at most one contradiction per
// ContradictShare it explains, then drops any that the others make
// unnecessary. Misreadings the evidence cannot tell apart are named
// together (Behaviour.Alternatives). Crawler-only misreadings are
// recognised from Evidence.Requests first. Fit stops early with
// ctx.Err() when ctx ends.
func Fit(ctx context.Context, ev *Evidence) ([]Diagnosis, error) {
	e := newEvaluator(ev)
	out := make([]Diagnosis, 0, len(ev.Parsers))
	for i, name := range ev.Parsers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, e.diagnose(i, name))
	}
	return out, nil
}

// parserFit is the fitting state of one parser.
type parserFit struct {
	e      *evaluator
	col    int
	mine   []cases.Verdict // position → the parser's verdict
	dep    []int32         // departures still to explain, sorted
	agree  []bool          // position → the parser agreed with the reference
	isDep  []bool
	tested map[string]bool
}

// score is what one variant does on a parser's evidence.
type score struct {
	explained   []int32
	contradicts int
}

// diagnose fits parser col.
func (e *evaluator) diagnose(col int, name string) Diagnosis {
	f := &parserFit{e: e, col: col, mine: make([]cases.Verdict, len(e.order)),
		agree: make([]bool, len(e.order)), isDep: make([]bool, len(e.order)), tested: map[string]bool{}}
	for p := range e.order {
		v := e.question(int32(p)).Verdicts[col]
		f.mine[p] = v
		switch {
		case !known(v) || !known(e.ref[p]):
		case v == e.ref[p]:
			f.agree[p] = true
		default:
			f.isDep[p] = true
			f.dep = append(f.dep, int32(p))
		}
	}
	d := Diagnosis{Parser: name, Behaviours: []Behaviour{}}
	for _, m := range e.cands {
		f.bound(m.ID) // marks what the evidence tests, whatever the fit picks
	}
	crawlBs, extra := f.crawl(&d)
	d.Departures = len(f.dep) + extra
	chosen, alts := f.greedy()
	chosen, alts = f.prune(chosen, alts)
	d.Behaviours = slices.Concat([]Behaviour{}, crawlBs, f.behaviours(chosen, alts))
	d.Unexplained = len(f.dep) - len(f.score(chosen).explained)
	for _, m := range e.cands {
		if !f.tested[m.ID] {
			d.Untested = append(d.Untested, m.ID)
		}
	}
	slices.Sort(d.Untested)
	return d
}

// score evaluates the combined variant ids on the parser's departures
// and on the questions where any of its misreadings alone differs from
// the reference.
func (f *parserFit) score(ids []string) score {
	lists := [][]int32{f.dep}
	for _, id := range ids {
		lists = append(lists, f.e.reach[id])
	}
	pos := union(lists...)
	vs := f.e.cached(ids, pos)
	var s score
	for k, p := range pos {
		switch {
		case f.isDep[p] && vs[k] == f.mine[p]:
			s.explained = append(s.explained, p)
		case f.agree[p] && known(vs[k]) && vs[k] != f.e.ref[p]:
			s.contradicts++
		}
	}
	return s
}

// bound is how many of the parser's departures the misreading alone
// could explain.
func (f *parserFit) bound(id string) int {
	n := 0
	for _, p := range f.e.reach[id] {
		if f.isDep[p] {
			n++
		}
		if f.isDep[p] || f.agree[p] {
			f.tested[id] = true
		}
	}
	return n
}

// greedy adds misreadings one at a time, the one that explains most
// more departures first, while one qualifies. alts[i] lists the
// misreadings indistinguishable from chosen[i] when it was chosen.
func (f *parserFit) greedy() (chosen []string, alts [][]string) {
	var cur score
	for {
		var best score
		bestID, gain, added := "", 0, 0
		var tied []string
		for _, m := range f.e.cands {
			if slices.Contains(chosen, m.ID) || f.bound(m.ID) < MinExplains || !combinable(append(slices.Clone(chosen), m.ID)) {
				continue
			}
			s := f.score(append(slices.Clone(chosen), m.ID))
			g, c := len(s.explained)-len(cur.explained), s.contradicts-cur.contradicts
			if g < MinExplains || c*ContradictShare > g {
				continue
			}
			switch {
			case bestID == "" || g-c > gain-added || g-c == gain-added && c < added:
				best, bestID, gain, added, tied = s, m.ID, g, c, nil
			case g == gain && c == added && slices.Equal(s.explained, best.explained):
				tied = append(tied, m.ID)
			}
		}
		if bestID == "" {
			return chosen, alts
		}
		chosen, alts, cur = append(chosen, bestID), append(alts, tied), best
	}
}

// prune drops every chosen misreading the others make unnecessary: one
// whose removal loses fewer than MinExplains explained departures.
func (f *parserFit) prune(chosen []string, alts [][]string) ([]string, [][]string) {
	for i := len(chosen) - 1; i >= 0 && len(chosen) > 1; i-- {
		all := len(f.score(chosen).explained)
		without := slices.Delete(slices.Clone(chosen), i, i+1)
		if all-len(f.score(without).explained) < MinExplains {
			chosen, alts = without, slices.Delete(alts, i, i+1)
		}
	}
	return chosen, alts
}

// behaviours describes the chosen misreadings, each with what it adds to
// those before it.
func (f *parserFit) behaviours(chosen []string, alts [][]string) []Behaviour {
	out := make([]Behaviour, 0, len(chosen))
	var prev score
	seen := map[int32]bool{}
	for i, id := range chosen {
		s := f.score(chosen[:i+1])
		var added []int32
		for _, p := range s.explained {
			if !seen[p] {
				seen[p] = true
				added = append(added, p)
			}
		}
		m, _ := lookup(id)
		b := Behaviour{ID: id, Title: m.Title, RFC: m.RFC, Req: slices.Clone(m.Req),
			Explains: len(s.explained) - len(prev.explained), Contradicts: max(0, s.contradicts-prev.contradicts),
			Files: f.files(added), Alternatives: alts[i]}
		b.Example = f.example(id, chosen[:i+1], added)
		out = append(out, b)
		prev = s
	}
	return out
}

// files counts the distinct sources of the bodies at positions pos.
func (f *parserFit) files(pos []int32) int {
	seen := map[string]bool{}
	for _, p := range pos {
		seen[f.e.ev.Bodies[f.e.question(p).Body].Source] = true
	}
	return len(seen)
}

// combinable reports whether the catalogue can combine ids: some
// misreadings decide what another does, or make it moot.
func combinable(ids []string) bool {
	_, err := withMisreadings(reference.RFC(), ids...)
	return err == nil
}
