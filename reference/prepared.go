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
}

// compiledGroup is the rules of one group (and the rules Google derives
// from them), compiled and sorted so that the first that matches a path
// decides over the others (see Options.beats). Rules with an empty path,
// which match nothing (PAT-2), are left out.
type compiledGroup []compiledCandidate

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

// considerGroup considers the rules of group gi (len(r.groups): the
// orphan rules) for the best match of path, through the compiled group
// when the file keeps an index.
func (r *Robots) considerGroup(b *best, ix *ruleIndex, gi int, path []byte) {
	rs := r.orphan
	if gi < len(r.groups) {
		g := r.groups[gi].rules
		rs = r.rules[g[0]:g[1]]
	}
	if ix == nil {
		r.considerAll(b, rs, path)
		return
	}
	cg := ix.groups[gi].Load()
	if cg == nil {
		cg = r.compileGroup(rs)
		if !ix.groups[gi].CompareAndSwap(nil, cg) {
			cg = ix.groups[gi].Load()
		}
	}
	for i := range *cg {
		c := &(*cg)[i]
		if matchText(&c.pat, c.text, path) {
			if !b.found || r.opts.beats(c.pat.length, c.candidate, b) {
				b.candidate, b.length, b.found = c.candidate, c.pat.length, true
			}
			return
		}
	}
}

// compileGroup compiles the rules rs, with the rules Google derives from
// them, and sorts them as Options.beats orders matches. The sort is stable,
// so a derived rule stays after the rule it derives from, as
// best.consider would keep it.
func (r *Robots) compileGroup(rs []rule) *compiledGroup {
	o := &r.opts
	cg := make(compiledGroup, 0, len(rs))
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
	slices.SortStableFunc(cg, func(a, b compiledCandidate) int {
		switch {
		case o.FirstMatch:
			return int(a.line - b.line)
		case a.pat.length != b.pat.length:
			return int(b.pat.length - a.pat.length)
		case a.allow != b.allow:
			if a.allow != o.DisallowWinsTies {
				return -1
			}
			return 1
		}
		return int(a.line - b.line)
	})
	return &cg
}
