package reference

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Fetcher fetches robots.txt files and keeps them per authority (§2.4):
// a copy is used for at most Options.CacheTTL (CACHE-2). When the file is
// then unreachable, everything is disallowed (§2.3.1.4), or the copy kept
// in use if Options.OutageIgnoresCache is false; once the outage has
// lasted Options.OutageLimit, Options.OutagePolicy applies (ACC-8). A Fetcher is safe for concurrent
// use; its zero value is not ready: set Options (RFC() or Google()).
type Fetcher struct {
	// Client makes the requests; nil means http.DefaultClient.
	Client *http.Client
	// Options governs parsing and the access method.
	Options Options
	// Now is the clock; nil means time.Now. Tests inject a fake one.
	Now func() time.Time

	mu    sync.Mutex
	cache map[string]*entry
}

// entry is what the cache knows of one authority's robots.txt. Its mutex
// is held across a fetch, so that one authority is fetched once at a time
// while others proceed.
type entry struct {
	mu     sync.Mutex
	good   *Result   // the last Success or NotAvailable result
	goodAt time.Time // when it was fetched
	// outage is when the file was first found unreachable since the last
	// good fetch; zero when it is not unreachable.
	outage time.Time
}

func (f *Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

// Get returns the robots.txt that governs pageURL, fetching it when the
// cache holds no fresh copy. The error is non-nil only when pageURL has no
// robots.txt (not http or https, or malformed); fetch failures are results.
func (f *Fetcher) Get(ctx context.Context, pageURL string) (*Result, error) {
	robotsURL, err := RobotsURL(pageURL)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	if f.cache == nil {
		f.cache = make(map[string]*entry)
	}
	e := f.cache[robotsURL]
	if e == nil {
		e = &entry{}
		f.cache[robotsURL] = e
	}
	f.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	now := f.now()
	if e.good != nil && f.Options.CacheTTL > 0 && now.Sub(e.goodAt) <= f.Options.CacheTTL {
		return e.cached(now, "cached copy is fresh"), nil
	}
	res := Fetch(ctx, f.Client, robotsURL, f.Options)
	res.Info.FetchedAt = now
	if res.Info.Access != NotReachable {
		e.good, e.goodAt, e.outage = res, now, time.Time{}
		return res, nil
	}
	if e.outage.IsZero() {
		e.outage = now
	}
	out := now.Sub(e.outage)
	long := f.Options.OutageLimit > 0 && out >= f.Options.OutageLimit
	switch {
	case long && (f.Options.OutagePolicy == OutageUnavailable || e.good == nil):
		r := &Result{Info: res.Info, opts: res.opts}
		r.Info.Access = NotAvailable
		r.Info.Why = fmt.Sprintf("unreachable for %s, at least %s: treated as unavailable, allow all (%s)", out, f.Options.OutageLimit, res.Info.Why)
		return r, nil
	case e.good != nil && long:
		return e.cached(now, fmt.Sprintf("unreachable for %s, at least %s (%s); using the last good copy", out, f.Options.OutageLimit, res.Info.Why)), nil
	case e.good != nil && !f.Options.OutageIgnoresCache:
		// §2.4: a cached copy may be used beyond its lifetime while the
		// file is unreachable.
		return e.cached(now, fmt.Sprintf("unreachable for %s (%s); using the last good copy", out, res.Info.Why)), nil
	case e.good != nil && f.Options.OutageLimit > 0:
		res.Info.Why = fmt.Sprintf("unreachable for %s, less than %s: disallow all, the cached copy is not used until then (%s)", out, f.Options.OutageLimit, res.Info.Why)
	case e.good != nil:
		res.Info.Why = fmt.Sprintf("unreachable for %s: disallow all, the cached copy is not used (%s)", out, res.Info.Why)
	}
	return res, nil
}

// cached returns the cached result marked with its age and why it was used.
func (e *entry) cached(now time.Time, why string) *Result {
	r := &Result{Info: e.good.Info, Robots: e.good.Robots, opts: e.good.opts}
	r.Info.FromCache = true
	r.Info.Age = now.Sub(e.goodAt)
	r.Info.Why = why + "; " + e.good.Info.Why
	return r
}

// Decide fetches (or reuses) the robots.txt that governs pageURL and
// decides whether agent may access it. The rules of a file reached through
// redirects apply to pageURL's own authority (ACC-4).
func (f *Fetcher) Decide(ctx context.Context, agent, pageURL string) (Decision, error) {
	if !f.Options.validAgent(agent) {
		return Decision{}, fmt.Errorf("%w: %q", ErrInvalidToken, agent)
	}
	res, err := f.Get(ctx, pageURL)
	if err != nil {
		return Decision{}, err
	}
	return res.Decide(agent, pageURL)
}

// Forget drops every cached copy.
func (f *Fetcher) Forget() {
	f.mu.Lock()
	f.cache = nil
	f.mu.Unlock()
}
