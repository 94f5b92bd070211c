package diagnose

import (
	"math"
	"math/bits"
	"slices"

	"github.com/reptest/reptest/reference"
)

// ChanceLevel bounds how likely a claimed misreading's agreement with a
// parser may be by chance. A parser that departs from the reference for
// reasons of its own agrees with some misreading on a few questions, the
// more often the more it departs: one that turns round the verdict of
// every path with an "e" agrees with small-size-limit on the 12
// questions of the generated files where that departs. So a misreading
// is claimed only when the parser departs on the questions whose verdict
// it changes more than on comparable questions it leaves alone: those of
// the same body, those of the same path (and query) and those of the
// same agent, each in turn. For each, the probability that questions
// drawn at random from those comparable ones, as many as the misreading
// changes, hold as many of the parser's departures still unexplained as
// it explains, must be below ChanceLevel shared among the misreadings
// that could each explain MinExplains of its departures (a Bonferroni
// bound). A departure no misreading models depends on the body, the
// URL or the agent as far as the evidence shows, so one of the three
// comparisons finds the parser departing as much where the misreading
// does not reach. Strata of fewer than minStratum questions are
// compared together; a stratum the misreading changes whole is compared
// with the strata of its size (a body read as all-allow by a 5xx
// misreading with the bodies the parser departs on whole).
const ChanceLevel = 0.001

// The strata chance compares a question with: the other questions of its
// body, of its URL and of its agent.
const (
	byBody = iota
	byURL
	byAgent
	strataKinds
)

// strata numbers the questions' URLs and agents, by position.
type strata struct {
	url, agent []int32
}

// strataOf returns the positions' URL and agent numbers, made once.
func (e *evaluator) strataOf() *strata {
	if e.strata != nil {
		return e.strata
	}
	s := &strata{url: make([]int32, len(e.order)), agent: make([]int32, len(e.order))}
	urls, agents := map[string]int32{}, map[string]int32{}
	number := func(m map[string]int32, k string) int32 {
		n, ok := m[k]
		if !ok {
			n = int32(len(m))
			m[k] = n
		}
		return n
	}
	for p := range e.order {
		q := e.question(int32(p))
		s.url[p], s.agent[p] = number(urls, reference.PathQuery(q.URL)), number(agents, q.Agent)
	}
	e.strata = s
	return s
}

// chance is what a parser departs on, as of the misreadings chosen so
// far, per kind of stratum.
type chance [strataKinds]stratified

// stratified counts a parser's questions in the strata of one kind.
type stratified struct {
	of               []int32 // position → stratum
	tested, residual []int32 // stratum → questions answered, departures left unexplained
	// pool sums tested and residual over the strata of fewer than
	// minStratum questions.
	poolTested, poolResidual int
	// shares holds, per size class (sizeClass), the residual shares of
	// the strata of that class or a smaller one, sorted.
	shares [][]float64
}

// minStratum is the fewest questions a parser answered in a stratum for
// a part of it to be compared with the rest: the questions of smaller
// strata are compared together. One or two questions of a case's body
// say little of how the parser reads the rest of that body.
const minStratum = 10

// sizeClass groups strata by the number of questions answered in them:
// 1, 2–3, 4–7, ….
func sizeClass(tested int32) int { return bits.Len32(uint32(tested)) - 1 }

// chanceState returns the parser's chance, counted again after the
// chosen misreadings changed (search resets f.odds).
func (f *parserFit) chanceState() *chance {
	if f.odds != nil {
		return f.odds
	}
	s := f.e.strataOf()
	c := &chance{}
	for k, of := range [strataKinds][]int32{f.e.bodyAt, s.url, s.agent} {
		c[k] = f.stratify(of)
	}
	f.odds = c
	return c
}

// stratify counts the parser's questions in the strata of (position →
// stratum).
func (f *parserFit) stratify(of []int32) stratified {
	n := int32(0)
	for _, x := range of {
		n = max(n, x+1)
	}
	st := stratified{of: of, tested: make([]int32, n), residual: make([]int32, n)}
	for p, x := range of {
		if f.isDep[p] || f.agree[p] {
			st.tested[x]++
		}
		if f.isDep[p] && !f.explained[p] {
			st.residual[x]++
		}
	}
	classes := 0
	for x, t := range st.tested {
		if t == 0 {
			continue
		}
		if t < minStratum {
			st.poolTested += int(t)
			st.poolResidual += int(st.residual[x])
		}
		classes = max(classes, sizeClass(t)+1)
	}
	st.shares = make([][]float64, classes)
	for x, t := range st.tested {
		if t == 0 {
			continue
		}
		share := float64(st.residual[x]) / float64(t)
		for cl := sizeClass(t); cl < classes; cl++ {
			st.shares[cl] = append(st.shares[cl], share)
		}
	}
	for cl := range st.shares {
		slices.Sort(st.shares[cl])
	}
	return st
}

// byChance reports whether the trial's agreement with the parser could
// be chance (see ChanceLevel).
//
// Misreadings of the access kind are not weighed: they change the
// verdicts of the responses of one status class whole, and a parser or
// crawler that departs on those alone reads the status so, which is what
// they name; a crawl of a few scenarios has only two or three such
// responses, too few for any comparison.
func (f *parserFit) byChance(t *trial) bool {
	if !slices.ContainsFunc(t.add, func(id string) bool { m, _ := lookup(id); return m.Kind != reference.KindAccess }) {
		return false
	}
	c := f.chanceState()
	limit := math.Log(ChanceLevel / float64(max(1, f.rivals)))
	for k := range c {
		if f.logTail(&c[k], t, limit) > limit {
			return true
		}
	}
	return false
}

// drawn is what a trial changes in one stratum: the questions whose
// verdict it changes, and the departures among them it explains.
type drawn struct{ changed, gained int32 }

// logTail returns the natural logarithm of the probability that the
// trial's questions, drawn at random, would hold as many of the parser's
// departures left unexplained as it explains, or more: each stratum's
// questions drawn from that stratum, those of small strata (fewer than
// minStratum questions) from all small strata together. A stratum all of
// whose questions the trial changes is drawn whole, among the strata of
// its size or smaller: it departs as much with the probability that one
// of those does.
func (f *parserFit) logTail(st *stratified, t *trial, limit float64) float64 {
	in := map[int32]*drawn{}
	var order []int32
	for _, p := range t.changed {
		if !f.isDep[p] && !f.agree[p] {
			continue
		}
		x := st.of[p]
		d := in[x]
		if d == nil {
			d = &drawn{}
			in[x] = d
			order = append(order, x)
		}
		d.changed++
		if _, ok := slices.BinarySearch(t.gained, p); ok && !f.explained[p] {
			d.gained++
		}
	}
	var pmfs []pmf
	var pool drawn
	want := 0
	for _, x := range order {
		d := in[x]
		want += int(d.gained)
		tested, residual := st.tested[x], int(st.residual[x])
		switch {
		case d.changed == tested:
			shares := st.shares[sizeClass(tested)]
			i, _ := slices.BinarySearch(shares, float64(d.gained)/float64(tested))
			whole := float64(len(shares)-i) / float64(len(shares))
			unit := make(pmf, d.gained+1)
			unit[0] += 1 - whole
			unit[d.gained] += whole
			pmfs = append(pmfs, unit)
		case tested < minStratum:
			pool.changed += d.changed
			pool.gained += d.gained
		default:
			pmfs = append(pmfs, hypergeom(int(tested), residual, int(d.changed)))
		}
	}
	if pool.changed > 0 {
		pmfs = append(pmfs, hypergeom(st.poolTested, st.poolResidual, int(pool.changed)))
	}
	return tail(pmfs, want, limit)
}

// pmf is a probability mass function on 0, 1, ….
type pmf []float64

// exactWork bounds the work of the exact tail (the wanted count times
// the sum of the supports); past it, tail keeps the Chernoff bound.
const exactWork = 1 << 24

// tail returns the natural logarithm of P(X ≥ want), X the sum of
// independent variables of the given mass functions: Chernoff's bound
// when it is limit or less, else the exact value. Either is at least the
// exact value, so a test against limit is never less strict.
func tail(pmfs []pmf, want int, limit float64) float64 {
	if want <= 0 {
		return 0
	}
	mean, support := 0.0, 0
	for _, m := range pmfs {
		support += len(m)
		for x, p := range m {
			mean += float64(x) * p
		}
	}
	if float64(want) <= mean {
		return 0
	}
	bound := chernoff(pmfs, want)
	if bound <= limit || want*support > exactWork {
		return bound
	}
	dist := make([]float64, want+1) // dist[want] holds P(sum ≥ want)
	dist[0] = 1
	next := make([]float64, want+1)
	for _, m := range pmfs {
		clear(next)
		for s, ps := range dist {
			if ps == 0 {
				continue
			}
			for x, px := range m {
				next[min(want, s+x)] += ps * px
			}
		}
		dist, next = next, dist
	}
	return math.Log(dist[want])
}

// chernoff returns Chernoff's bound on the natural logarithm of
// P(X ≥ want): the least over θ ≥ 0 of Σ log E[exp(θ X_i)] − θ want,
// a convex function of θ, minimised by golden-section search.
func chernoff(pmfs []pmf, want int) float64 {
	// The logarithms of the masses, taken once: g is evaluated some 120
	// times.
	type term struct{ x, lp float64 }
	terms := make([][]term, len(pmfs))
	for i, m := range pmfs {
		for x, p := range m {
			if p > 0 {
				terms[i] = append(terms[i], term{float64(x), math.Log(p)})
			}
		}
	}
	g := func(theta float64) float64 {
		sum := -theta * float64(want)
		for _, ts := range terms {
			// log Σ p(x) e^{θx}, shifted by the largest term.
			top := math.Inf(-1)
			for _, t := range ts {
				top = max(top, t.lp+theta*t.x)
			}
			acc := 0.0
			for _, t := range ts {
				acc += math.Exp(t.lp + theta*t.x - top)
			}
			sum += top + math.Log(acc)
		}
		return sum
	}
	lo, hi := 0.0, 64.0
	const phi = 0.6180339887498949
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	ga, gb := g(a), g(b)
	for range 60 {
		if ga < gb {
			hi, b, gb = b, a, ga
			a = hi - phi*(hi-lo)
			ga = g(a)
		} else {
			lo, a, ga = a, b, gb
			b = lo + phi*(hi-lo)
			gb = g(b)
		}
	}
	return min(0, ga, gb)
}

// hypergeom returns P(X = x) for x = 0 … draws, X the successes among
// draws taken from n items of which succ are successes.
func hypergeom(n, succ, draws int) pmf {
	draws = min(draws, n)
	out := make(pmf, draws+1)
	all := logChoose(n, draws)
	for x := range out {
		out[x] = math.Exp(logChoose(succ, x) + logChoose(n-succ, draws-x) - all)
	}
	return out
}

// logChoose returns the natural logarithm of a choose b.
func logChoose(a, b int) float64 {
	if b < 0 || b > a {
		return math.Inf(-1)
	}
	x, _ := math.Lgamma(float64(a + 1))
	y, _ := math.Lgamma(float64(b + 1))
	z, _ := math.Lgamma(float64(a - b + 1))
	return x - y - z
}
