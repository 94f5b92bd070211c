package diff

import (
	"crypto/sha256"
	"sync"

	"github.com/reptest/reptest/cases"
)

// DefaultCacheEntries is the number of verdicts a run remembers when
// Options.CacheEntries is 0: about 150 MB at most.
const DefaultCacheEntries = 1 << 20

// verdictCache remembers the parsers' verdicts by (parser, body digest,
// profile, agent, URL), so that a question asked while probing one file
// and again while minimising it, or about the same small body found in
// many files, costs one check. It is shared by the workers of a run and
// safe for concurrent use. A nil cache remembers nothing. Errors are not
// remembered: a parser that timed out once is asked again.
type verdictCache struct {
	mu  sync.Mutex
	m   map[cacheKey]cases.Verdict
	max int
}

type cacheKey struct {
	parser  string
	sum     [sha256.Size]byte
	profile string
	agent   string
	url     string
}

// newVerdictCache returns a cache of at most max verdicts; once full it
// keeps what it has and remembers nothing more, so that a run's memory is
// bounded and its cost never worse than without a cache.
func newVerdictCache(max int) *verdictCache {
	return &verdictCache{m: make(map[cacheKey]cases.Verdict), max: max}
}

func (c *verdictCache) get(parser string, b *body, q cases.Question) (cases.Verdict, bool) {
	if c == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[cacheKey{parser, b.sum, b.profile, q.Agent, q.URL}]
	return v, ok
}

func (c *verdictCache) put(parser string, b *body, q cases.Question, v cases.Verdict) {
	if c == nil || v == VerdictError {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) < c.max {
		c.m[cacheKey{parser, b.sum, b.profile, q.Agent, q.URL}] = v
	}
}
