package diff

import (
	"cmp"
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// VerdictError is the verdict recorded when a parser fails to answer
// (an error or a panic). Like result.Reject it is compared as a verdict of
// its own.
const VerdictError result.Verdict = "error"

// Signature is result.Signature.
func Signature(verdicts map[string]result.Verdict) string { return result.Signature(verdicts) }

// panel asks a fixed list of parsers the same questions. The panel is
// used from one goroutine at a time; it may ask its parsers from
// goroutines of its own, but each parser from one goroutine at a time.
type panel struct {
	parsers []cases.Parser
	names   []string
	timeout time.Duration
	// cache, when not nil, holds verdicts already given, shared by the
	// panels of one run. The reference's own verdicts are left out of
	// it (uncached): deciding again costs it less than a cache key.
	cache    *verdictCache
	uncached []bool
	// disk, when not nil, keeps verdicts and results across runs, by
	// the parsers' identities ids (setIdentities).
	disk *DiskCache
	ids  []string
	// slots, when not nil, bounds the questions being answered at once
	// across the panels of a run (one per core): a panel asks its parsers
	// at the same time only when the other panels leave cores idle.
	slots chan struct{}
	// cost and calls are the time each parser has spent answering single
	// questions and their number, so that the cheap ones are asked first
	// when one answer can settle a question. Batches are left out (a
	// batch's cost per question says little about one check), and so is
	// the time spent waiting for a slot.
	cost  []time.Duration
	calls []int
}

func newPanel(ps []cases.Parser, timeout time.Duration) (*panel, error) {
	p := &panel{parsers: ps, timeout: timeout, cost: make([]time.Duration, len(ps)), calls: make([]int, len(ps)),
		uncached: make([]bool, len(ps))}
	seen := make(map[string]bool)
	for i, q := range ps {
		_, p.uncached[i] = q.(*parsers.Reference)
		name := q.Info().Name
		if name == "" || seen[name] {
			return nil, fmt.Errorf("diff: parser names must be distinct and not empty: %q", name)
		}
		seen[name] = true
		p.names = append(p.names, name)
	}
	return p, nil
}

// referenceColumns returns, by profile, the first of the panel's parsers
// that is the reference itself under that profile's options: its
// verdicts are the reference's own, which the fitter then does not decide
// again (diagnose.Evidence.ReferenceColumns).
func (p *panel) referenceColumns() map[string]int {
	cols := make(map[string]int)
	for i, q := range p.parsers {
		r, ok := q.(*parsers.Reference)
		if !ok {
			continue
		}
		for _, profile := range []string{result.ProfileRFC, result.ProfileGoogle} {
			want, ok := reference.OptionsFor(profile)
			if _, done := cols[profile]; !done && ok && reflect.DeepEqual(r.Options(profile), want) {
				cols[profile] = i
			}
		}
	}
	return cols
}

// body is a robots.txt body with its digest, the part of a cache key
// that is the same for every question about it.
type body struct {
	robots  []byte
	profile string
	sum     [sha256.Size]byte
}

func newBody(in result.Input) body {
	return body{robots: in.Robots, profile: in.Profile, sum: sha256.Sum256(in.Robots)}
}

func (b *body) request() cases.Request {
	return cases.Request{Case: "diff", Profile: b.profile, Robots: b.robots}
}

// verdicts returns each parser's verdict on in, in the panel's order.
func (p *panel) verdicts(ctx context.Context, in result.Input, dst []result.Verdict) []result.Verdict {
	b := newBody(in)
	q := cases.Question{Agent: in.Agent, URL: in.URL}
	k := p.keyOf(&b, q)
	dst = dst[:0]
	for i := range p.parsers {
		dst = append(dst, p.verdict(ctx, i, &b, q, &k))
	}
	return dst
}

// keyOf returns the cache key of q about b (none when no parser's
// verdicts are cached).
func (p *panel) keyOf(b *body, q cases.Question) questionKey {
	if p.cache == nil || !slices.Contains(p.uncached, false) {
		return questionKey{}
	}
	return keyOf(b, q)
}

// cacheOf returns the cache of parser i's verdicts, nil for none.
func (p *panel) cacheOf(i int) *verdictCache {
	if p.uncached[i] {
		return nil
	}
	return p.cache
}

// verdict returns parser i's verdict on one question, from the cache
// when it is there; k is the question's cache key.
func (p *panel) verdict(ctx context.Context, i int, b *body, q cases.Question, k *questionKey) result.Verdict {
	c := p.cacheOf(i)
	if v, ok := c.get(i, k); ok {
		return v
	}
	req := b.request()
	req.Agent, req.URL = q.Agent, q.URL
	v := p.ask(ctx, i, req)
	c.put(i, k, v)
	return v
}

// probe returns each parser's verdicts on every question about one body:
// vs[k][i] is parser i's verdict on qs[k]. The parsers are asked at the
// same time, each from a goroutine of its own; a parser that implements
// cases.Batcher gets the questions the cache does not answer in one
// batch, the others one Check each.
func (p *panel) probe(ctx context.Context, b *body, qs []cases.Question) [][]result.Verdict {
	vs := make([][]result.Verdict, len(qs))
	keys := make([]questionKey, len(qs))
	for k, q := range qs {
		vs[k] = make([]result.Verdict, len(p.parsers))
		keys[k] = p.keyOf(b, q)
	}
	var wg sync.WaitGroup
	for i := range p.parsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.probeOne(ctx, i, b, qs, keys, vs)
		}()
	}
	wg.Wait()
	return vs
}

// probeOne fills in parser i's column of vs; keys are the questions'
// cache keys.
func (p *panel) probeOne(ctx context.Context, i int, b *body, qs []cases.Question, keys []questionKey, vs [][]result.Verdict) {
	c := p.cacheOf(i)
	var stored map[cases.Question]result.Verdict
	if p.disk != nil {
		stored = p.storedVerdicts(i, b)
		defer func() { p.storeVerdicts(i, b, stored, qs, vs) }()
	}
	var todo []int
	for k := range qs {
		if v, ok := stored[qs[k]]; ok {
			vs[k][i] = v
			c.put(i, &keys[k], v)
		} else if v, ok := c.get(i, &keys[k]); ok {
			vs[k][i] = v
		} else {
			todo = append(todo, k)
		}
	}
	if len(todo) == 0 {
		return
	}
	bt, batched := p.parsers[i].(cases.Batcher)
	if !batched || len(todo) == 1 {
		for _, k := range todo {
			req := b.request()
			req.Agent, req.URL = qs[k].Agent, qs[k].URL
			vs[k][i] = p.ask(ctx, i, req)
			c.put(i, &keys[k], vs[k][i])
		}
		return
	}
	ask := make([]cases.Question, len(todo))
	for j, k := range todo {
		ask[j] = qs[k]
	}
	got := p.askBatch(ctx, bt, b.request(), ask)
	for j, k := range todo {
		vs[k][i] = got[j]
		c.put(i, &keys[k], got[j])
	}
}

// agrees reports whether every parser gives in the verdict of want (in
// the panel's order). It asks the parsers one by one and stops at the
// first that answers otherwise, in the order that makes that answer
// cheapest to get (see order), so that a slow parser is mostly asked only
// to confirm what the fast ones agreed on; o learns from each answer. The
// answer is the same as comparing all verdicts.
// b is in's body when the caller has its digest already, else nil.
func (p *panel) agrees(ctx context.Context, in result.Input, b *body, want []result.Verdict, o *odds) bool {
	if b == nil {
		nb := newBody(in)
		b = &nb
	}
	q := cases.Question{Agent: in.Agent, URL: in.URL}
	k := p.keyOf(b, q)
	for _, i := range p.order(o) {
		o.asked[i]++
		if p.verdict(ctx, i, b, q, &k) != want[i] {
			o.differed[i]++
			return false
		}
	}
	return true
}

// odds counts, over one minimisation, how often each parser was asked
// and how often it answered otherwise than wanted.
type odds struct {
	asked, differed []int
}

// newOdds starts the counts of a minimisation whose wanted verdicts are
// want with a guess: a parser whose wanted verdict is the least common
// one (the minority side of a disagreement) is the likeliest to answer
// otherwise.
func newOdds(want []result.Verdict) *odds {
	o := &odds{asked: make([]int, len(want)), differed: make([]int, len(want))}
	count := make(map[result.Verdict]int)
	for _, v := range want {
		count[v]++
	}
	fewest := len(want)
	for _, n := range count {
		fewest = min(fewest, n)
	}
	for i, v := range want {
		o.asked[i] = 2
		if count[v] == fewest {
			o.differed[i] = 2
		}
	}
	return o
}

// order returns the parsers' indices in the order agrees asks them: by
// the expected cost of finding an answer that differs, a parser's mean
// cost per question so far divided by the share of its answers that
// differed (with one more answer of each kind, so that no share is 0).
// In-process parsers thus come before external programs unless they
// rarely differ, and among the external ones the one that differs most
// often comes first.
func (p *panel) order(o *odds) []int {
	idx := make([]int, len(p.parsers))
	score := make([]float64, len(p.parsers))
	for i := range idx {
		idx[i] = i
		mean := float64(p.cost[i]) / float64(max(p.calls[i], 1))
		share := float64(o.differed[i]+1) / float64(o.asked[i]+2)
		score[i] = mean / share
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(score[a], score[b]) })
	return idx
}

// acquire waits for a slot; it reports false when ctx ends first.
func (p *panel) acquire(ctx context.Context) bool {
	if p.slots == nil {
		return true
	}
	select {
	case p.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (p *panel) release() {
	if p.slots != nil {
		<-p.slots
	}
}

// ask asks parser i one question and adds the time it took to its cost.
func (p *panel) ask(ctx context.Context, i int, req cases.Request) (v result.Verdict) {
	if !p.acquire(ctx) {
		return VerdictError
	}
	defer p.release()
	start := time.Now()
	defer func() {
		p.cost[i] += time.Since(start)
		p.calls[i]++
	}()
	defer func() {
		if recover() != nil {
			v = VerdictError
		}
	}()
	if p.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.timeout)
		defer cancel()
	}
	v, err := p.parsers[i].Check(ctx, req)
	if err != nil {
		return VerdictError
	}
	return verdictOf(v)
}

// askBatch asks a batch of questions, bounded by the sum of their check
// timeouts (parsers.BatchTimeout, what an --exec program is allowed for a
// batch request): a parser asked one question at a time, or one slowed
// down by a busy machine, gets each question's time. A panic or a reply
// of the wrong length is an error on every question.
func (p *panel) askBatch(ctx context.Context, bt cases.Batcher, req cases.Request, qs []cases.Question) (out []result.Verdict) {
	out = make([]result.Verdict, len(qs))
	if !p.acquire(ctx) {
		for k := range out {
			out[k] = VerdictError
		}
		return out
	}
	defer p.release()
	defer func() {
		if recover() != nil {
			for k := range out {
				out[k] = VerdictError
			}
		}
	}()
	if p.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, parsers.BatchTimeout(p.timeout, len(qs)))
		defer cancel()
	}
	vs, errs := bt.CheckBatch(ctx, req, qs)
	for k := range out {
		switch {
		case len(vs) != len(qs) || len(errs) != len(qs) || errs[k] != nil:
			out[k] = VerdictError
		default:
			out[k] = verdictOf(vs[k])
		}
	}
	return out
}

// verdictOf maps anything but a verdict to VerdictError.
func verdictOf(v result.Verdict) result.Verdict {
	switch v {
	case result.Allow, result.Disallow, result.Reject:
		return v
	}
	return VerdictError
}

// finding returns the finding for in, not minimised and without tags.
func (p *panel) finding(ctx context.Context, in result.Input) result.Finding {
	vs := p.verdicts(ctx, in, make([]result.Verdict, 0, len(p.parsers)))
	f := result.Finding{Input: in, Verdicts: make(map[string]result.Verdict, len(vs))}
	for i, v := range vs {
		f.Verdicts[p.names[i]] = v
	}
	f.Signature = Signature(f.Verdicts)
	return f
}

// Compare asks every parser about in and returns the result as a finding,
// not minimised and without requirement IDs. Its Signature is "" when the
// parsers agree. The parsers are called one after the other from the
// calling goroutine. A parser that errors or panics gets VerdictError.
func Compare(ctx context.Context, in result.Input, parsers []cases.Parser) (result.Finding, error) {
	p, err := newPanel(parsers, 0)
	if err != nil {
		return result.Finding{}, err
	}
	return p.finding(ctx, in), nil
}

// SameVerdicts returns a keep function for Minimize that holds when a
// candidate has exactly the verdicts of f: every parser answers as it did
// on f, so the signature is kept too.
func SameVerdicts(f result.Finding) func(result.Finding) bool {
	want := maps.Clone(f.Verdicts)
	return func(g result.Finding) bool { return maps.Equal(want, g.Verdicts) }
}

// SameCause returns a keep function for Minimize that holds when a
// candidate has exactly the verdicts of f and the reference (under the
// input's profile) decides it for the same kind of reason (a matching
// rule, no matching rule, no group, the implicit /robots.txt). It stops a
// minimisation from sliding from one disagreement to another that happens
// to give the same verdicts, such as from "/robots.txt is always allowed"
// to "the file has no group".
func SameCause(f result.Finding) func(result.Finding) bool {
	same := SameVerdicts(f)
	reason, ok := reasonOf(f.Input)
	return func(g result.Finding) bool {
		if !same(g) {
			return false
		}
		r, ok2 := reasonOf(g.Input)
		return ok == ok2 && r == reason
	}
}

// reasonOf returns the kind of reason the reference gives for its verdict
// (read once, without parsing: each candidate of a minimisation asks).
func reasonOf(in result.Input) (reference.Reason, bool) {
	opts, _ := reference.OptionsFor(in.Profile)
	r, err := reference.ReasonOnce(string(in.Robots), opts, in.Agent, in.URL)
	return r, err == nil
}
