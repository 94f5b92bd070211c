package reference

import (
	"slices"
	"sync/atomic"
)

// A parsed file decides its first question as AllowedOnce does: it rules
// most rules out by their literal prefix and compiles only the others,
// into a buffer of its own, so that Parse + one decision costs no more
// than it must. From the second decision on, the file is evidently being
// reused: each group a decision consults is compiled once, whole, and
// kept sorted for longest match, so that later decisions match compiled
// patterns and stop at a group's first match, without compiling or
// allocating anything.

// preparation is the state a parsed file keeps for its decisions: how
// many it has made, then the compiled groups. Its fields are atomic, as a
// Robots is safe for concurrent use; two decisions that compile the same
// group at once compile the same thing, and one of them is kept.
type preparation struct {
	decisions atomic.Int32
	index     atomic.Pointer[ruleIndex]
}

// ruleIndex holds a compiled group per group of the file, and one for the
// orphan rules (the last), each compiled on first use.
type ruleIndex struct {
	groups []atomic.Pointer[compiledGroup]
	// chosen is the last agent's groups as the group misreadings choose
	// them (misreadGroupsOf): a variant's questions come agent by agent.
	chosen atomic.Pointer[agentGroups]
}

// agentGroups is what misreadGroups returned for agent.
type agentGroups struct {
	agent          string
	groups, global []int32
}

// misreadGroupsOf is misreadGroups, from the file's index when the last
// agent it chose groups for was agent.
func (r *Robots) misreadGroupsOf(agent string, named []int32) (groups, global []int32) {
	ix := r.prep.index.Load()
	if ix == nil {
		return r.misreadGroups(agent, named)
	}
	if c := ix.chosen.Load(); c != nil && c.agent == agent {
		return c.groups, c.global
	}
	groups, global = r.misreadGroups(agent, named)
	ix.chosen.Store(&agentGroups{agent, groups, global})
	return groups, global
}

// compiledGroup is the rules of one group (and the rules Google derives
// from them), compiled and sorted so that the first that matches a path
// decides over the others (see Options.beats). Rules with an empty path,
// which match nothing (PAT-2), are left out.
//
// A large group is also indexed by the rules' literal prefixes, as most
// rules of a large group are literal paths that a given path rules out by
// their first octets: a rule whose literal prefix is L octets long or
// longer matches only paths that begin with the same L octets. Each rule
// is filed under the longest of prefixLens its prefix reaches, by a hash
// of that many octets, and a decision tries only the rules filed under
// the hashes of its path's own prefixes and those with a prefix shorter
// than any (wild), merged in sorted order.
type compiledGroup struct {
	rules []compiledCandidate
	// levels holds the rules filed under each of prefixLens, none when
	// the group has too few rules to be worth indexing; wild holds the
	// positions of the others, ascending.
	levels []prefixLevel
	wild   []int32
}

// prefixLens are the prefix lengths rules are filed under. The first
// octet is nearly always "/", so one octet would say little.
var prefixLens = [...]int{2, 4, 8, 16}

// prefixLevel holds the rules filed under one prefix length: bucket h
// (a hash of their prefix, masked) holds their positions in the group at
// at[start[h]:start[h+1]], ascending.
type prefixLevel struct {
	start []int32
	at    []int32
	mask  uint32
}

// indexedGroup is the fewest compiled rules a group is indexed from: for
// fewer, trying them all costs about as much as reading an index.
const indexedGroup = 24

type compiledCandidate struct {
	candidate
	pat  pattern
	text string
}

// prepared returns the file's rule index, or nil while the file has made
// fewer than two decisions.
func (r *Robots) prepared() *ruleIndex {
	if ix := r.prep.index.Load(); ix != nil {
		return ix
	}
	if r.prep.decisions.Add(1) < 2 {
		return nil
	}
	ix := &ruleIndex{groups: make([]atomic.Pointer[compiledGroup], len(r.groups)+1)}
	if !r.prep.index.CompareAndSwap(nil, ix) {
		return r.prep.index.Load()
	}
	return ix
}

// index returns the file's rule index, made now if the file has none
// yet: for a caller that reads the compiled groups themselves.
func (r *Robots) index() *ruleIndex {
	if ix := r.prep.index.Load(); ix != nil {
		return ix
	}
	r.prep.index.CompareAndSwap(nil, &ruleIndex{groups: make([]atomic.Pointer[compiledGroup], len(r.groups)+1)})
	return r.prep.index.Load()
}

// compiledGroup returns group gi of the index (len(r.groups): the orphan
// rules), compiling it on first use.
func (r *Robots) compiledGroup(ix *ruleIndex, gi int) *compiledGroup {
	if cg := ix.groups[gi].Load(); cg != nil {
		return cg
	}
	cg := r.compileGroup(r.groupRules(gi))
	if !ix.groups[gi].CompareAndSwap(nil, cg) {
		cg = ix.groups[gi].Load()
	}
	return cg
}

// groupRules returns the rules of group gi, or the orphan rules for
// gi == len(r.groups).
func (r *Robots) groupRules(gi int) []rule {
	if gi == len(r.groups) {
		return r.orphan
	}
	g := r.groups[gi].rules
	return r.rules[g[0]:g[1]]
}

// considerGroup considers the rules of group gi (len(r.groups): the
// orphan rules) for the best match of path, through the compiled group
// when the file keeps an index.
func (r *Robots) considerGroup(b *best, ix *ruleIndex, gi int, path []byte) {
	if ix == nil {
		r.considerAll(b, r.groupRules(gi), path)
		return
	}
	cg := r.compiledGroup(ix, gi)
	if cg.levels == nil {
		for i := range cg.rules {
			if r.matchCompiled(b, &cg.rules[i], path) {
				return
			}
		}
		return
	}
	// The lists of rules that may match path, merged in order.
	var lists [len(prefixLens) + 1][]int32
	lists[0] = cg.wild
	n := 1
	for k, l := range prefixLens {
		if len(path) < l {
			break
		}
		lv := &cg.levels[k]
		if lv.start == nil {
			continue
		}
		h := prefixHash(path[:l]) & lv.mask
		if at := lv.at[lv.start[h]:lv.start[h+1]]; len(at) > 0 {
			lists[n] = at
			n++
		}
	}
	for {
		m := -1
		for k := range n {
			if len(lists[k]) > 0 && (m < 0 || lists[k][0] < lists[m][0]) {
				m = k
			}
		}
		if m < 0 {
			return
		}
		i := lists[m][0]
		lists[m] = lists[m][1:]
		if r.matchCompiled(b, &cg.rules[i], path) {
			return
		}
	}
}

// matchCompiled reports whether the compiled rule c matches path, and
// then keeps it in b if it decides over the best so far.
func (r *Robots) matchCompiled(b *best, c *compiledCandidate, path []byte) bool {
	if !matchText(&c.pat, c.text, path) {
		return false
	}
	if !b.found || r.opts.beats(c.pat.length, c.candidate, b) {
		b.candidate, b.length, b.found = c.candidate, c.pat.length, true
	}
	return true
}

// compileGroup compiles the rules rs, with the rules Google derives from
// them, and sorts them as Options.beats orders matches. Rules that beats
// leaves tied keep their order, so a derived rule stays after the rule it
// derives from, as best.consider would keep it.
func (r *Robots) compileGroup(rs []rule) *compiledGroup {
	o := &r.opts
	cg := make([]compiledCandidate, 0, len(rs))
	add := func(c candidate) {
		p, value, text, changed := c.compile(nil, o)
		if p.end == 0 && !p.anchored {
			return
		}
		var t string
		if changed {
			t = string(text)
		} else {
			t = value[:p.end]
		}
		cg = append(cg, compiledCandidate{c, p, t})
	}
	for _, ru := range rs {
		c := r.candidate(ru)
		add(c)
		if d, ok := c.derived(o); ok {
			add(d)
		}
	}
	// Sorted through their positions, the last key, which makes the
	// order total: as a stable sort would leave them, at O(n log n).
	order := make([]int32, len(cg))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		a, b := &cg[i], &cg[j]
		switch {
		case o.FirstMatch:
			if a.line != b.line {
				return int(a.line - b.line)
			}
		case a.pat.length != b.pat.length:
			return int(b.pat.length - a.pat.length)
		case a.allow != b.allow:
			if a.allow != o.DisallowWinsTies {
				return -1
			}
			return 1
		case a.line != b.line:
			return int(a.line - b.line)
		}
		return int(i - j)
	})
	// Position k takes the rule at order[k], moved in place cycle by
	// cycle (a moved position is marked by order[k] == k).
	for i := range order {
		if order[i] == int32(i) {
			continue
		}
		c, k := cg[i], int32(i)
		for order[k] != int32(i) {
			next := order[k]
			cg[k], order[k] = cg[next], k
			k = next
		}
		cg[k], order[k] = c, k
	}
	return newCompiledGroup(cg)
}

// newCompiledGroup returns the group of the sorted rules, indexed when
// there are many.
func newCompiledGroup(rules []compiledCandidate) *compiledGroup {
	g := &compiledGroup{rules: rules}
	if len(rules) < indexedGroup {
		return g
	}
	// level returns the index in prefixLens a rule is filed under, or -1.
	level := func(c *compiledCandidate) int {
		k := -1
		for k+1 < len(prefixLens) && int(c.pat.lit) >= prefixLens[k+1] {
			k++
		}
		return k
	}
	var counts [len(prefixLens)]int
	for i := range rules {
		if k := level(&rules[i]); k >= 0 {
			counts[k]++
		}
	}
	g.levels = make([]prefixLevel, len(prefixLens))
	for k, n := range counts {
		if n == 0 {
			continue
		}
		size := uint32(16)
		for int(size) < n {
			size <<= 1
		}
		g.levels[k] = prefixLevel{start: make([]int32, size+1), at: make([]int32, n), mask: size - 1}
	}
	hashes := make([]uint32, len(rules))
	for i := range rules {
		c := &rules[i]
		k := level(c)
		if k < 0 {
			g.wild = append(g.wild, int32(i))
			continue
		}
		lv := &g.levels[k]
		hashes[i] = prefixHash(c.text[:prefixLens[k]]) & lv.mask
		lv.start[hashes[i]+1]++
	}
	for k := range g.levels {
		lv := &g.levels[k]
		for h := 1; h < len(lv.start); h++ {
			lv.start[h] += lv.start[h-1]
		}
	}
	// Filed in ascending order, each bucket's next free slot in next.
	next := make([][]int32, len(g.levels))
	for k := range g.levels {
		next[k] = slices.Clone(g.levels[k].start)
	}
	for i := range rules {
		if k := level(&rules[i]); k >= 0 {
			h := hashes[i]
			g.levels[k].at[next[k][h]] = int32(i)
			next[k][h]++
		}
	}
	return g
}

// prefixHash is the FNV-1a hash of a prefix.
func prefixHash[T string | []byte](p T) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(p); i++ {
		h ^= uint32(p[i])
		h *= 16777619
	}
	return h
}
