package diff

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
	"sync"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// DefaultCacheEntries is the number of questions a run remembers the
// verdicts of when Options.CacheEntries is 0 (a few megabytes). Bodies are
// compared once however many inputs share them, and each class of
// disagreements is minimised once, the classes of one file together: what
// a run asks again is a file's questions while its classes are
// minimised, and candidates minimisations share soon after. A cache of 2
// Mi questions (some 200 MB once full) saved no CPU measurably on the
// real-world files or 10,000 Common Crawl-like responses, and was most of
// what a 100,000-response run's memory grew by.
const DefaultCacheEntries = 1 << 16

// cacheParsers is the number of parsers whose verdicts the cache holds
// per question; the verdicts of parsers after them are not remembered.
const cacheParsers = 32

// verdictCache remembers the parsers' verdicts by question (body digest,
// profile, agent, URL) and parser, so that a question asked while probing
// one file and again while minimising it, or about the same small body
// found in many files, costs one check. It is shared by the workers of a
// run and safe for concurrent use. A nil cache remembers nothing. Errors
// are not remembered: a parser that timed out once is asked again.
//
// It holds two generations of at most max/2 questions each: when the
// newer is full, the older is forgotten and the newer takes its place,
// and a question found in the older is moved to the newer. What a run
// asks again soon (a file's minimisations, small bodies many files
// share) thus stays, and memory is bounded.
type verdictCache struct {
	mu       sync.Mutex
	cur, old map[questionKey]verdictSet
	max      int
}

// questionKey is a digest of one question about one body.
type questionKey [sha256.Size]byte

// verdictSet holds the verdicts on one question, two bits per parser (in
// the panel's order): 0 for none, else an index into cachedVerdicts.
type verdictSet uint64

var cachedVerdicts = [...]result.Verdict{1: result.Allow, 2: result.Disallow, 3: result.Reject}

func (s verdictSet) get(i int) (result.Verdict, bool) {
	if i >= cacheParsers {
		return "", false
	}
	c := s >> (2 * i) & 3
	return cachedVerdicts[c], c != 0
}

func (s verdictSet) with(i int, v result.Verdict) verdictSet {
	for c, w := range cachedVerdicts {
		if c > 0 && w == v && i < cacheParsers {
			return s&^(3<<(2*i)) | verdictSet(c)<<(2*i)
		}
	}
	return s
}

// keyOf returns the cache key of question q about body b. Each string
// is preceded by its length, so that no two questions share a key.
func keyOf(b *body, q cases.Question) questionKey {
	h := sha256.New()
	h.Write(b.sum[:])
	for _, s := range [...]string{b.profile, q.Agent, q.URL} {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(s))))
		io.WriteString(h, s)
	}
	var k questionKey
	h.Sum(k[:0])
	return k
}

// newVerdictCache returns a cache of at most max questions.
func newVerdictCache(n int) *verdictCache {
	return &verdictCache{cur: make(map[questionKey]verdictSet), max: max(n, 2)}
}

// get returns parser i's verdict on the question k, if remembered.
func (c *verdictCache) get(i int, k *questionKey) (result.Verdict, bool) {
	if c == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.cur[*k]
	if !ok {
		if s, ok = c.old[*k]; ok {
			c.add(k, s)
		}
	}
	return s.get(i)
}

// put remembers parser i's verdict v on the question k, unless it is an
// error.
func (c *verdictCache) put(i int, k *questionKey, v result.Verdict) {
	if c == nil || v == VerdictError || i >= cacheParsers {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.cur[*k]
	if !ok {
		s = c.old[*k]
	}
	c.add(k, s.with(i, v))
}

// add stores s in the newer generation, starting a new one when it is
// full. The caller holds c.mu.
func (c *verdictCache) add(k *questionKey, s verdictSet) {
	if _, ok := c.cur[*k]; !ok && len(c.cur) >= c.max/2 {
		c.old, c.cur = c.cur, make(map[questionKey]verdictSet)
	}
	c.cur[*k] = s
}
