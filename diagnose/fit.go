package diagnose

import (
	"cmp"
	"context"
	"slices"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// MinExplains is the fewest departures a misreading must explain, beyond
// the misreadings chosen before it, to be claimed.
const MinExplains = 3

// MinBodies is the fewest robots.txt bodies the departures a misreading
// explains, beyond the misreadings chosen before it, must come from for
// it to be claimed. The departures of one body often share one cause, a
// line read otherwise, which several misreadings can explain: temoto's
// nine departures on one real-world file that opens with "UserAgent: *"
// are explained by orphan-rules-apply as well as by the misspelling it
// accepts. They are one observation, whatever their number; a second body
// that departs the same way is what tells the readings apart.
const MinBodies = 2

// ContradictShare bounds the contradictions a claimed misreading may
// add: at most one per ContradictShare departures it explains (so none
// for fewer than ContradictShare). Real parsers misread in ways the
// catalogue models only nearly, so a few contradictions are allowed.
const ContradictShare = 10

// The bounds of the joint search (see parserFit.joint): the blocked
// misreadings tried, and the variants of two or three misreadings
// evaluated per step.
const (
	jointBlocked = 4
	jointTrials  = 96
)

// Fit diagnoses every parser of the evidence: the smallest set of
// misreadings whose combined variant explains its departures from the
// reference (see result.Diagnosis). It chooses them greedily, the one that
// explains most departures first, claims one only when it explains at
// least MinExplains more, on at least MinBodies bodies, adds at most
// one contradiction per ContradictShare it explains and agrees with the
// parser more than chance would (ChanceLevel), then drops any that the
// others make unnecessary. When no single misreading qualifies, it tries two or
// three together, a bounded number: misreadings that explain departures
// only jointly (one alone contradicts what the other then corrects).
// Misreadings the evidence cannot tell apart are named together
// (result.Behaviour.Alternatives). Crawler-only misreadings are recognised from
// Evidence.Requests first. Fit stops early with ctx.Err() when ctx ends.
//
// The counts it reports are exact: each chosen set is evaluated on
// every departure and on every question its misreadings alone reach.
// The search itself evaluates a candidate only on the bodies where the
// candidate alone departs from the reference, which is where it changes
// verdicts unless misreadings interact.
func Fit(ctx context.Context, ev *Evidence) ([]result.Diagnosis, error) {
	return FitFrom(ctx, ev, NewStart(ev))
}

// parserFit is the fitting state of one parser.
type parserFit struct {
	e      *evaluator
	col    int
	mine   []uint8 // position → the parser's verdict code
	dep    []int32 // departures still to explain, sorted
	agree  []bool  // position → the parser agreed with the reference
	isDep  []bool  // position → in dep
	tested map[string]bool
	// explained tracks what the chosen misreadings explain, as the
	// search found it (see trial).
	explained []bool
	// odds counts what the parser departs on for byChance, as of the
	// chosen misreadings; nil when they changed.
	odds *chance
	// depBodies marks the bodies with departures (departsOn).
	depBodies []bool
	// rivals is the number of misreadings that could each explain
	// MinExplains of the parser's departures: those that might be
	// claimed, among which byChance shares ChanceLevel.
	rivals int
}

// score is what one variant does on a parser's evidence.
type score struct {
	explained   []int32
	contradicts int
}

// diagnose fits parser col.
func (e *evaluator) diagnose(col int, name string) result.Diagnosis {
	n := len(e.order)
	f := &parserFit{e: e, col: col, mine: make([]uint8, n), agree: make([]bool, n), isDep: make([]bool, n),
		tested: map[string]bool{}, explained: make([]bool, n)}
	answered := 0
	for p := range e.order {
		v := code(e.question(int32(p)).Verdicts[col])
		f.mine[p] = v
		switch {
		case !knownCode(v) || !knownCode(e.ref[p]):
			continue
		case v == e.ref[p]:
			f.agree[p] = true
		default:
			f.isDep[p] = true
			f.dep = append(f.dep, int32(p))
		}
		answered++
	}
	d := result.Diagnosis{Parser: name, Behaviours: []result.Behaviour{}}
	if answered == 0 && !slices.ContainsFunc(e.ev.Requests, func(r Request) bool { return r.Parser == col }) {
		d.NoEvidence = true
		return d
	}
	for _, m := range e.cands {
		f.bound(m.ID) // marks what the evidence tests, whatever the fit picks
	}
	crawlBs, extra := f.crawl(&d)
	clear(f.isDep)
	for _, p := range f.dep {
		f.isDep[p] = true
	}
	d.Departures = len(f.dep) + extra
	for _, m := range e.cands {
		if f.bound(m.ID) >= MinExplains {
			f.rivals++
		}
	}
	chosen, alts := f.search()
	chosen, alts = f.prune(chosen, alts)
	d.Behaviours = slices.Concat([]result.Behaviour{}, crawlBs, f.behaviours(chosen, alts))
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
// the reference: exactly, on every body.
func (f *parserFit) score(ids []string) score {
	lists := [][]int32{f.dep}
	for _, id := range ids {
		lists = append(lists, f.e.reach[id])
	}
	pos := union(lists...)
	vs := f.e.codes(ids, pos)
	var s score
	for k, p := range pos {
		switch {
		case f.isDep[p] && vs[k] == f.mine[p]:
			s.explained = append(s.explained, p)
		case f.agree[p] && knownCode(vs[k]) && vs[k] != f.e.ref[p]:
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

// trial is what adding misreadings to the chosen ones changes, on the
// bodies where the added ones alone depart from the reference.
type trial struct {
	add            []string
	gained, lost   []int32 // departures explained, and no longer explained
	contradicts    int     // contradictions added (fewer when negative)
	contradictions []int32 // the contradictions of the combined variant
	bodies         int     // the bodies of gained
	changed        []int32 // the questions whose verdict add changes
	tied           []string
}

// gain is the number of departures the trial explains beyond the chosen.
func (t *trial) gain() int { return len(t.gained) - len(t.lost) }

// qualifies reports whether the trial may be claimed: it explains enough
// more departures, on enough bodies, and adds few enough contradictions.
func (t *trial) qualifies() bool {
	return t.gain() >= MinExplains && t.bodies >= MinBodies && t.contradicts*ContradictShare <= t.gain()
}

// better reports whether t is to be preferred to u (nil for none): more
// departures explained net of contradictions, then fewer contradictions.
func (t *trial) better(u *trial) bool {
	if u == nil {
		return true
	}
	tv, uv := t.gain()-t.contradicts, u.gain()-u.contradicts
	return tv > uv || tv == uv && t.contradicts < u.contradicts
}

// sameAs reports whether t and u explain the very same departures with
// the same contradictions.
func (t *trial) sameAs(u *trial) bool {
	return t.contradicts == u.contradicts && slices.Equal(t.gained, u.gained) && slices.Equal(t.lost, u.lost)
}

// try evaluates chosen with add on the bodies where a misreading of add
// alone departs from the reference (elsewhere the variant is taken to
// read as chosen does), on the departures and the questions a
// misreading of either reaches there. With partial, it reads the bodies
// with departures first and stops there when the trial explains too few
// to be claimed or tried jointly (the other bodies change nothing it
// explains): its contradictions are then not counted.
func (f *parserFit) try(chosen, add []string, partial bool) *trial {
	ids := slices.Concat(chosen, add)
	var bodies [][]int32
	for _, id := range add {
		bodies = append(bodies, f.e.on[id])
	}
	var departing, rest []int32
	for _, b := range union(bodies...) {
		if f.departsOn(b) {
			departing = append(departing, b)
		} else {
			rest = append(rest, b)
		}
	}
	t := &trial{add: add}
	f.tryOn(t, chosen, ids, departing)
	if partial && (t.gain() < MinExplains || t.bodies < MinBodies) {
		return t
	}
	f.tryOn(t, chosen, ids, rest)
	slices.Sort(t.changed)
	slices.Sort(t.contradictions)
	return t
}

// tryOn adds to t what the trial changes on the bodies bs.
func (f *parserFit) tryOn(t *trial, chosen, ids []string, bs []int32) {
	var pos []int32
	for _, b := range bs {
		for p := f.e.first[b]; p < f.e.first[b+1]; p++ {
			if f.isDep[p] || f.agree[p] && f.reached(p, ids) {
				pos = append(pos, p)
			}
		}
	}
	was, now := f.e.codes(chosen, pos), f.e.codes(ids, pos)
	for k, p := range pos {
		if was[k] != now[k] {
			t.changed = append(t.changed, p)
		}
		if f.isDep[p] {
			switch e, n := was[k] == f.mine[p], now[k] == f.mine[p]; {
			case n && !e:
				t.gained = append(t.gained, p)
				if len(t.gained) == 1 || f.e.bodyAt[p] != f.e.bodyAt[t.gained[len(t.gained)-2]] {
					t.bodies++
				}
			case e && !n:
				t.lost = append(t.lost, p)
			}
			continue
		}
		if knownCode(was[k]) && was[k] != f.e.ref[p] && f.reached(p, chosen) {
			t.contradicts--
		}
		if knownCode(now[k]) && now[k] != f.e.ref[p] {
			t.contradicts++
			t.contradictions = append(t.contradictions, p)
		}
	}
}

// departsOn reports whether the parser departs from the reference on
// body b.
func (f *parserFit) departsOn(b int32) bool {
	if f.depBodies == nil {
		f.depBodies = make([]bool, len(f.e.ev.Bodies))
		for _, p := range f.dep {
			f.depBodies[f.e.bodyAt[p]] = true
		}
	}
	return f.depBodies[b]
}

// reached reports whether a misreading of ids alone departs from the
// reference at p.
func (f *parserFit) reached(p int32, ids []string) bool {
	for _, id := range ids {
		if bits := f.e.reachBits(id); bits[p>>6]&(1<<(p&63)) != 0 {
			return true
		}
	}
	return false
}

// search adds misreadings while some qualify: the single one that
// explains most more departures first, else two or three together
// (joint). alts[i] lists the misreadings indistinguishable from
// chosen[i] when it was chosen.
func (f *parserFit) search() (chosen []string, alts [][]string) {
	for {
		t, blocked := f.single(chosen)
		if t == nil {
			t = f.joint(chosen, blocked)
		}
		if t == nil {
			return chosen, alts
		}
		f.odds = nil
		for i, id := range t.add {
			chosen = append(chosen, id)
			if i == 0 {
				alts = append(alts, t.tied)
			} else {
				alts = append(alts, nil)
			}
		}
		for _, p := range t.gained {
			f.explained[p] = true
		}
		for _, p := range t.lost {
			f.explained[p] = false
		}
	}
}

// candidate is a misreading that may be added, with the most departures
// it could explain beyond those explained already.
type candidate struct {
	id    string
	upper int
}

// candidates returns the misreadings that may be added to chosen, the
// one that could explain most first.
func (f *parserFit) candidates(chosen []string, need int) []candidate {
	var out []candidate
	for _, m := range f.e.cands {
		if slices.Contains(chosen, m.ID) || f.bound(m.ID) < need || !combinable(append(slices.Clone(chosen), m.ID)) {
			continue
		}
		n := 0
		for _, b := range f.e.on[m.ID] {
			for p := f.e.first[b]; p < f.e.first[b+1]; p++ {
				if f.isDep[p] && !f.explained[p] {
					n++
				}
			}
		}
		out = append(out, candidate{m.ID, n})
	}
	slices.SortStableFunc(out, func(a, b candidate) int { return cmp.Compare(b.upper, a.upper) })
	return out
}

// single returns the best misreading to add alone, or nil, and the
// misreadings that would explain enough but contradict too much
// (blocked), the one explaining most first.
func (f *parserFit) single(chosen []string) (best *trial, blocked []*trial) {
	for _, c := range f.candidates(chosen, MinExplains) {
		if c.upper < MinExplains || best != nil && c.upper < best.gain()-best.contradicts {
			break
		}
		t := f.try(chosen, []string{c.id}, true)
		switch {
		case t.gain() < MinExplains || t.bodies < MinBodies:
			// Too little evidence to claim it, or to try it jointly.
		case !t.qualifies():
			blocked = append(blocked, t)
		case f.byChance(t):
			// Its agreement could be chance (ChanceLevel): neither claimed
			// nor tried jointly.
		case best != nil && best.sameAs(t):
			best.tied = append(best.tied, c.id)
		case t.better(best):
			best = t
		}
	}
	slices.SortStableFunc(blocked, func(a, b *trial) int { return cmp.Compare(b.gain(), a.gain()) })
	return best, blocked
}

// joint returns the best qualifying set of two or three misreadings to
// add together, or nil: a blocked one (which explains departures but
// contradicts too much alone) with one or two others that reach the
// bodies of its contradictions. At most jointTrials sets are evaluated.
func (f *parserFit) joint(chosen []string, blocked []*trial) *trial {
	var best *trial
	budget := jointTrials
	for _, a := range blocked[:min(len(blocked), jointBlocked)] {
		id := a.add[0]
		with := append(slices.Clone(chosen), id)
		rescue := f.rescuers(with, a.contradictions)
		for _, r := range rescue {
			if budget == 0 {
				return best
			}
			budget--
			if !f.rescues(a, []string{id, r}, chosen) {
				continue
			}
			if t := f.try(chosen, []string{id, r}, true); t.qualifies() && t.better(best) && !f.byChance(t) {
				best = t
			}
		}
		if best != nil {
			continue
		}
		for i, r := range rescue {
			for _, s := range rescue[i+1:] {
				if budget == 0 {
					return best
				}
				if !combinable(append(slices.Clone(with), r, s)) {
					continue
				}
				budget--
				if !f.rescues(a, []string{id, r, s}, chosen) {
					continue
				}
				if t := f.try(chosen, []string{id, r, s}, true); t.qualifies() && t.better(best) && !f.byChance(t) {
					best = t
				}
			}
		}
	}
	return best
}

// rescues reports whether adding add to chosen leaves few enough of the
// contradictions of the blocked trial a for its gain: a test on those
// questions alone, body by body, given up as soon as too many are left.
func (f *parserFit) rescues(a *trial, add, chosen []string) bool {
	ids := slices.Concat(chosen, add)
	left := 0
	for i := 0; i < len(a.contradictions); {
		j := i + 1
		for j < len(a.contradictions) && f.e.bodyAt[a.contradictions[j]] == f.e.bodyAt[a.contradictions[i]] {
			j++
		}
		part := a.contradictions[i:j]
		for k, c := range f.e.codes(ids, part) {
			if knownCode(c) && c != f.e.ref[part[k]] {
				left++
			}
		}
		if left*ContradictShare > a.gain() {
			return false
		}
		i = j
	}
	return true
}

// rescuers returns the misreadings that may be added to chosen whose
// reach touches the bodies of the contradictions, the one touching most
// first.
func (f *parserFit) rescuers(chosen []string, contradictions []int32) []string {
	var bodies []int32
	for _, p := range contradictions {
		if b := f.e.bodyAt[p]; len(bodies) == 0 || bodies[len(bodies)-1] != b {
			bodies = append(bodies, b)
		}
	}
	var out []candidate
	for _, m := range f.e.cands {
		if slices.Contains(chosen, m.ID) || !combinable(append(slices.Clone(chosen), m.ID)) {
			continue
		}
		n := 0
		for _, b := range f.e.on[m.ID] {
			if _, ok := slices.BinarySearch(bodies, b); ok {
				n++
			}
		}
		if n > 0 {
			out = append(out, candidate{m.ID, n})
		}
	}
	slices.SortStableFunc(out, func(a, b candidate) int { return cmp.Compare(b.upper, a.upper) })
	ids := make([]string, len(out))
	for i, c := range out {
		ids[i] = c.id
	}
	return ids
}

// prune drops every chosen misreading the others make unnecessary: one
// whose removal loses fewer than MinExplains explained departures and
// adds no contradiction. Like the search, it compares on the bodies
// where the misreading alone departs from the reference.
func (f *parserFit) prune(chosen []string, alts [][]string) ([]string, [][]string) {
	for i := len(chosen) - 1; i >= 0 && len(chosen) > 1; i-- {
		without := slices.Delete(slices.Clone(chosen), i, i+1)
		if t := f.try(without, chosen[i:i+1], false); (t.gain() < MinExplains || t.bodies < MinBodies) && t.contradicts >= 0 {
			chosen, alts = without, slices.Delete(alts, i, i+1)
		}
	}
	return chosen, alts
}

// behaviours describes the chosen misreadings, each with what it adds to
// those before it.
func (f *parserFit) behaviours(chosen []string, alts [][]string) []result.Behaviour {
	out := make([]result.Behaviour, 0, len(chosen))
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
		b := result.Behaviour{ID: id, Title: m.Title, RFC: m.RFC, Req: slices.Clone(m.Req),
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
