package diagnose

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// evaluator answers questions of the evidence as variants of the
// reference read them. Positions index the questions in body order, so
// that a variant parses each body once per pass.
type evaluator struct {
	ev     *Evidence
	order  []int   // position → question index, sorted by body
	bodyAt []int32 // position → body index
	first  []int32 // body index → its first position
	ref    []uint8 // position → the reference's verdict code
	// reach holds per single misreading the positions where its variant
	// differs from the reference; on holds the bodies of those positions.
	reach map[string][]int32
	on    map[string][]int32
	// bits holds reach as bit sets over the positions, made when first
	// asked: the fitter asks of one position often.
	bits  map[string][]uint64
	cands []misreading // the misreadings a variant models
	rank  map[string]int
	// memo keeps each variant's verdict codes by its options (variantOf),
	// then by body and the body's positions, as far as asked: variants
	// recur across parsers and steps, and a verdict once read is not read
	// again. Variants whose options are alike on a profile (a misreading
	// that is the profile's own reading) share their codes.
	memo map[string][][]uint8
	vars map[string]*variantOpts // by variant key and profile
	// strata numbers the questions' URLs and agents (chance.go), once asked.
	strata *strata
	// readings keeps the variants' readings of bodies read last, refs
	// the reference's (shared with forks).
	readings kept[readingKey]
	refs     *refReadings
	// parses keeps per body the variant's reading made last, which
	// the next variant rereads when it reads lines (and compiles rules)
	// as that one does.
	parses kept[int32]
}

// variantOpts is a variant's options on one profile, with the key its
// codes are kept under: the options without their name, which only
// traces read.
type variantOpts struct {
	opts reference.Options
	key  string
}

// The verdict codes.
const (
	codeUnknown uint8 = iota // not asked yet (memo only)
	codeAllow
	codeDisallow
	codeNone // neither allow nor disallow
)

// code returns the code of a verdict.
func code(v result.Verdict) uint8 {
	switch v {
	case result.Allow:
		return codeAllow
	case result.Disallow:
		return codeDisallow
	}
	return codeNone
}

// verdictOf returns the verdict of a code.
func verdictOf(c uint8) result.Verdict {
	switch c {
	case codeAllow:
		return result.Allow
	case codeDisallow:
		return result.Disallow
	}
	return ""
}

// knownCode reports whether c says allow or disallow.
func knownCode(c uint8) bool { return c == codeAllow || c == codeDisallow }

// newEvaluator reads the reference's verdicts and every single variant's
// reach.
func newEvaluator(ev *Evidence) *evaluator {
	e := newLayout(ev)
	all := make([]int32, len(e.order))
	for i := range all {
		all[i] = int32(i)
	}
	e.knownReference()
	e.ref = e.codes(nil, all)
	urls := make([][]string, len(ev.Bodies))
	for p, q := range e.order {
		b := e.bodyAt[p]
		urls[b] = append(urls[b], ev.Questions[q].URL)
	}
	reach, on := make([][]int32, len(e.cands)), make([][]int32, len(e.cands))
	forks := e.parallel(len(e.cands), func(f *evaluator, i int) {
		pos := f.shown(f.cands[i].ID, urls)
		vs := f.codes([]string{f.cands[i].ID}, pos)
		for k, v := range vs {
			if p := pos[k]; knownCode(v) && knownCode(f.ref[p]) && v != f.ref[p] {
				reach[i] = append(reach[i], p)
				if b := f.bodyAt[p]; len(on[i]) == 0 || on[i][len(on[i])-1] != b {
					on[i] = append(on[i], b)
				}
			}
		}
	})
	for i, m := range e.cands {
		e.reach[m.ID], e.on[m.ID] = reach[i], on[i]
	}
	for _, f := range forks {
		e.absorb(f)
	}
	return e
}

// parallel calls do(f, i) for i from 0 to n-1, on as many goroutines as
// the machine runs at once, each with a fork of e (see fork) as f, and
// returns the forks. Nothing of e may change meanwhile.
func (e *evaluator) parallel(n int, do func(f *evaluator, i int)) []*evaluator {
	forks := make([]*evaluator, min(n, runtime.GOMAXPROCS(0)))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range forks {
		forks[w] = e.fork()
		wg.Add(1)
		go func(f *evaluator) {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				do(f, i)
			}
		}(forks[w])
	}
	wg.Wait()
	return forks
}

// fork returns an evaluator that reads the same evidence as e, sharing
// what no longer changes (the layout, the reference's codes, reach) and
// keeping verdicts of its own, from a copy of e's: forks evaluate on
// goroutines of their own. What e makes on first use (bit sets, strata)
// must be made before forking (shareReach) for the forks to use it.
func (e *evaluator) fork() *evaluator {
	f := *e
	f.memo = make(map[string][][]uint8, len(e.memo))
	for k, m := range e.memo {
		c := make([][]uint8, len(m))
		for b, codes := range m {
			c[b] = slices.Clone(codes)
		}
		f.memo[k] = c
	}
	f.vars = map[string]*variantOpts{}
	f.readings = kept[readingKey]{limit: readingBytes}
	f.parses = kept[int32]{limit: readingBytes}
	return &f
}

// shareReach makes what fitting makes on first use of reach, once, so
// that forks share it (see fork).
func (e *evaluator) shareReach() {
	for _, m := range e.cands {
		e.reachBits(m.ID)
	}
	e.strataOf()
}

// absorb keeps in e the codes its fork f read.
func (e *evaluator) absorb(f *evaluator) {
	for k, fm := range f.memo {
		m := e.memo[k]
		if m == nil {
			e.memo[k] = fm
			continue
		}
		for b, codes := range fm {
			switch {
			case codes == nil:
			case m[b] == nil:
				m[b] = codes
			default:
				for i, c := range codes {
					if m[b][i] == codeUnknown {
						m[b][i] = c
					}
				}
			}
		}
	}
}

// newLayout orders ev's questions by body and lists the misreadings a
// variant models: the evaluator before it reads anything.
func newLayout(ev *Evidence) *evaluator {
	e := &evaluator{ev: ev, order: make([]int, len(ev.Questions)), reach: map[string][]int32{}, on: map[string][]int32{},
		rank: map[string]int{}, memo: map[string][][]uint8{}, vars: map[string]*variantOpts{}, refs: &refReadings{kept: kept[int32]{limit: refReadingBytes}}, readings: kept[readingKey]{limit: readingBytes},
		parses: kept[int32]{limit: readingBytes}}
	for i := range e.order {
		e.order[i] = i
	}
	slices.SortStableFunc(e.order, func(a, b int) int { return cmp.Compare(ev.Questions[a].Body, ev.Questions[b].Body) })
	e.bodyAt = make([]int32, len(e.order))
	e.first = make([]int32, len(ev.Bodies)+1)
	for p, q := range e.order {
		e.bodyAt[p] = int32(ev.Questions[q].Body)
	}
	for b := range e.first {
		e.first[b] = int32(sortSearch(e.bodyAt, int32(b)))
	}
	for i, m := range catalogue() {
		e.rank[m.ID] = i
		if m.ForParsers() {
			e.cands = append(e.cands, m)
		}
	}
	return e
}

// shown returns the positions of the bodies on which the misreading id
// may change a verdict (reference.MayShow): elsewhere its variant reads
// as the reference does, and is not asked.
func (e *evaluator) shown(id string, urls [][]string) []int32 {
	var pos []int32
	for b := range e.ev.Bodies {
		body := &e.ev.Bodies[b]
		base, _ := reference.OptionsFor(body.profileOf())
		if e.first[b] < e.first[b+1] && reference.MayShow(id, base, body.Robots, body.Status, urls[b]) {
			for p := e.first[b]; p < e.first[b+1]; p++ {
				pos = append(pos, p)
			}
		}
	}
	return pos
}

// reachBits returns the positions of reach[id] as a bit set.
func (e *evaluator) reachBits(id string) []uint64 {
	b, ok := e.bits[id]
	if !ok {
		b = make([]uint64, (len(e.order)+63)/64)
		for _, p := range e.reach[id] {
			b[p>>6] |= 1 << (p & 63)
		}
		if e.bits == nil {
			e.bits = map[string][]uint64{}
		}
		e.bits[id] = b
	}
	return b
}

// sortSearch returns the first index of the sorted s holding v or more.
func sortSearch(s []int32, v int32) int {
	i, _ := slices.BinarySearch(s, v)
	return i
}

// question returns the question at position p.
func (e *evaluator) question(p int32) *Question { return &e.ev.Questions[e.order[p]] }

// canonical returns ids in catalogue order: the key a variant is kept
// under, whatever order the fitter chose its misreadings in. Misreadings
// that can be combined set different options, so the order of applying
// them does not matter.
func (e *evaluator) canonical(ids []string) []string {
	ids = slices.Clone(ids)
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(e.rank[a], e.rank[b]) })
	return ids
}

// knownReference records as the reference's codes the verdicts that
// Evidence.ReferenceColumns says are the reference's own.
func (e *evaluator) knownReference() {
	for profile, col := range e.ev.ReferenceColumns {
		if col < 0 || col >= len(e.ev.Parsers) {
			continue
		}
		m := e.memoOf(e.variantOf("", nil, profile))
		for b := range e.ev.Bodies {
			if e.ev.Bodies[b].profileOf() != profile || e.first[b] == e.first[b+1] {
				continue
			}
			if m[b] == nil {
				m[b] = make([]uint8, e.first[b+1]-e.first[b])
			}
			for p := e.first[b]; p < e.first[b+1]; p++ {
				if vs := e.question(p).Verdicts; col < len(vs) && known(vs[col]) {
					m[b][p-e.first[b]] = code(vs[col])
				}
			}
		}
	}
}

// variantOf returns the options of the variant ids (key: their canonical
// join) on a profile, made once.
func (e *evaluator) variantOf(key string, ids []string, profile string) *variantOpts {
	vkey := key + "\x00" + profile
	v := e.vars[vkey]
	if v == nil {
		v = &variantOpts{opts: variant(profile, ids)}
		unnamed := v.opts
		unnamed.Name = ""
		v.key = fmt.Sprintf("%#v", unnamed)
		e.vars[vkey] = v
	}
	return v
}

// memoOf returns the codes kept for a variant's options, by body.
func (e *evaluator) memoOf(v *variantOpts) [][]uint8 {
	m := e.memo[v.key]
	if m == nil {
		m = make([][]uint8, len(e.ev.Bodies))
		e.memo[v.key] = m
	}
	return m
}

// codes returns the verdict codes of the variant ids on the sorted
// positions pos, reading only those not read before.
func (e *evaluator) codes(ids []string, pos []int32) []uint8 {
	ids = e.canonical(ids)
	key := strings.Join(ids, "+")
	out := make([]uint8, len(pos))
	var missing []int32
	for i := 0; i < len(pos); {
		b := e.bodyAt[pos[i]]
		j := i
		for j < len(pos) && e.bodyAt[pos[j]] == b {
			j++
		}
		v := e.variantOf(key, ids, e.ev.Bodies[b].profileOf())
		m := e.memoOf(v)
		if m[b] == nil {
			m[b] = make([]uint8, e.first[b+1]-e.first[b])
		}
		missing = missing[:0]
		for _, p := range pos[i:j] {
			if m[b][p-e.first[b]] == codeUnknown {
				missing = append(missing, p)
			}
		}
		if len(missing) > 0 {
			e.read(v, b, missing, m[b])
		}
		for k, p := range pos[i:j] {
			out[i+k] = m[b][p-e.first[b]]
		}
		i = j
	}
	return out
}

// read records the codes of variant v on the positions pos of body b in
// codes, which holds b's positions. Where its reading is alike to the
// reference's for a question (reference.Comparison), it takes the
// reference's code without deciding: most of a variant's questions.
func (e *evaluator) read(v *variantOpts, b int32, pos []int32, codes []uint8) {
	r := e.reading(v, b)
	if r.cmp == nil && e.ref != nil && r.robots != nil {
		if base := e.refs.get(e, b); base != r && base.robots != nil {
			r.cmp = reference.Compare(base.robots, r.robots)
		}
	}
	for _, p := range pos {
		q := e.question(p)
		if r.cmp != nil && r.cmp.Alike(q.Agent, q.URL) {
			codes[p-e.first[b]] = e.ref[p]
			continue
		}
		codes[p-e.first[b]] = code(r.verdict(q.Agent, q.URL))
	}
}

// baseOf returns the reference's options for body b.
func (e *evaluator) baseOf(b int32) *variantOpts {
	return e.variantOf("", nil, e.ev.Bodies[b].profileOf())
}

// A reading is a body as a variant reads it: its fetch's result, or
// only the parsed file when a variant rereads the reference's (see
// reference.Robots.Reread), with its comparison to the reference's
// reading.
type reading struct {
	res    *reference.Result
	robots *reference.Robots
	cmp    *reference.Comparison
	size   int // of the body, as kept
}

// verdict is the reading's verdict on one question; "" when the
// reference refuses the question (an agent that is no product token).
func (r *reading) verdict(agent, url string) result.Verdict {
	var allowed bool
	var err error
	if r.robots != nil {
		allowed, err = r.robots.Allowed(agent, url)
	} else {
		var d reference.Decision
		d, err = r.res.Decide(agent, url)
		allowed = d.Allowed
	}
	if err != nil {
		return ""
	}
	return result.VerdictOf(allowed)
}

// readingKey names a reading: the variant's key and the body.
type readingKey struct {
	variant string
	body    int32
}

// kept holds readings by key, up to limit bytes of bodies (a body counted
// once per reading of it), the oldest dropped first.
type kept[K comparable] struct {
	by           map[K]*reading
	order        []K
	bytes, limit int
}

// put keeps r under key, as a reading of size bytes of body.
func (k *kept[K]) put(key K, r *reading, size int) {
	for len(k.order) > 0 && k.bytes+size > k.limit {
		k.bytes -= k.by[k.order[0]].size
		delete(k.by, k.order[0])
		k.order = k.order[1:]
	}
	if k.by == nil {
		k.by = map[K]*reading{}
	}
	r.size = size
	k.by[key], k.order, k.bytes = r, append(k.order, key), k.bytes+size
}

// replace keeps r under key in place of what key held, if anything.
func (k *kept[K]) replace(key K, r *reading, size int) {
	if old, ok := k.by[key]; ok {
		k.bytes += size - old.size
		r.size = size
		k.by[key] = r
		return
	}
	k.put(key, r, size)
}

// The bounds of the readings kept: a variant's readings are asked for a
// few positions at a time, mostly in a row; the reference's reading of a
// body by every variant of it.
const (
	readingBytes    = 1 << 20
	refReadingBytes = 16 << 20
)

// reading returns variant v's reading of body b, kept or made now.
func (e *evaluator) reading(v *variantOpts, b int32) *reading {
	body := &e.ev.Bodies[b]
	if v.key == e.baseOf(b).key {
		return e.refs.get(e, b)
	}
	key := readingKey{v.key, b}
	if r, ok := e.readings.by[key]; ok {
		return r
	}
	r := &reading{}
	success := body.Status >= 200 && body.Status < 300
	if success {
		// A success is parsed (FromStatus) whatever the options: most
		// variants read its lines as the reference does, and the others
		// as the variant read last on the body (the chosen misreadings
		// with another), whose compiled groups they share when they
		// compile rules alike.
		var last *reference.Robots
		if l, ok := e.parses.by[b]; ok {
			last = l.robots
		}
		r.robots, _ = reference.RereadFrom(v.opts, e.refs.get(e, b).robots, last)
	}
	if r.robots == nil {
		r.res = fetched(body, v.opts)
		r.robots = r.res.Robots
	}
	if success && r.robots != nil {
		e.parses.replace(b, r, len(body.Robots))
	}
	e.readings.put(key, r, len(body.Robots))
	return r
}

// refReadings keeps the reference's readings of bodies for the evaluator
// and its forks: every variant of a body compares its reading to the
// reference's.
type refReadings struct {
	mu   sync.Mutex
	kept kept[int32]
}

// get returns the reference's reading of body b, kept or made now. A
// reading's parsed file is safe for concurrent use; its comparison is
// not, and a reference reading has none.
func (k *refReadings) get(e *evaluator, b int32) *reading {
	k.mu.Lock()
	r, ok := k.kept.by[b]
	k.mu.Unlock()
	if ok {
		return r
	}
	body := &e.ev.Bodies[b]
	r = &reading{res: fetched(body, e.baseOf(b).opts)}
	r.robots = r.res.Robots
	k.mu.Lock()
	defer k.mu.Unlock()
	if kept, ok := k.kept.by[b]; ok {
		return kept
	}
	k.kept.put(b, r, len(body.Robots))
	return r
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

// verdictOn is the verdict of a fetched file on one question (see
// reading.verdict).
func verdictOn(res *reference.Result, agent, url string) result.Verdict {
	return (&reading{res: res, robots: res.Robots}).verdict(agent, url)
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
