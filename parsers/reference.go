package parsers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// Reference adapts the reference implementation to cases.Parser. It has
// every capability: parse, status, fetch (through the request's client)
// and clock (one cache per session, on the request's time). It is safe
// for concurrent use, Check and CheckBatch included.
type Reference struct {
	name  string
	fixed *reference.Options // nil: the case's profile chooses
	// misread lists the misreadings applied to the options of every
	// profile (see NewVariant), in order; profiles holds the result for
	// each profile, made once.
	misread  []reference.Misreading
	profiles map[string]reference.Options

	mu       sync.Mutex
	sessions map[string]*session
}

// session is the cache of one timeline case, on a clock the runner sets.
type session struct {
	now     time.Time
	fetcher *reference.Fetcher
}

// NewReference returns the reference under the option set of each
// request's profile: RFC for "rfc9309", Google for "google".
func NewReference() *Reference { return &Reference{name: "reference"} }

// NewReferenceWith returns the reference under fixed options, named name.
func NewReferenceWith(name string, opts reference.Options) *Reference {
	return &Reference{name: name, fixed: &opts}
}

// Info implements cases.Parser.
func (p *Reference) Info() result.Info {
	return result.Info{
		Name:         p.name,
		Version:      reference.Version,
		Capabilities: []result.Capability{result.CapParse, result.CapStatus, result.CapFetch, result.CapClock, result.CapUsage},
	}
}

// Options returns the options the reference uses for a profile.
func (p *Reference) Options(profile string) reference.Options {
	if p.fixed != nil {
		return *p.fixed
	}
	if opts, ok := p.profiles[profile]; ok {
		return opts
	}
	opts, _ := reference.OptionsFor(profile)
	return applyAll(opts, p.misread)
}

// applyAll returns opts with the misreadings ms applied in order, named
// as reference.WithMisreadings names them.
func applyAll(opts reference.Options, ms []reference.Misreading) reference.Options {
	for _, m := range ms {
		m.Apply(&opts)
		opts.Name += "+" + m.ID
	}
	return opts
}

// NewVariant returns a variant of the reference: base, "reference" or
// "reference-google", with the misreadings ids applied in order (see
// reference.Misreadings). It is named base+"+"+id for each id, as
// "reference+first-match+no-wildcards". Under "reference" each request's
// profile chooses the options the misreadings then change. An id that
// is unknown, given twice, or of a misreading that only crawlers can
// make (Kind "crawl") is an error that wraps ErrUnknown and lists the
// valid ids; so is a pair that reference.Conflict refuses.
func NewVariant(base string, ids ...string) (*Reference, error) {
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: %s+ names no misreading (known: %s)", ErrUnknown, base, parserMisreadings())
	}
	p := &Reference{name: base}
	seen := map[string]bool{}
	for i, id := range ids {
		m, ok := reference.LookupMisreading(id)
		switch {
		case !ok:
			return nil, fmt.Errorf("%w: misreading %q in %s+%s (known: %s)", ErrUnknown, id, base, strings.Join(ids, "+"), parserMisreadings())
		case !m.ForParsers():
			return nil, fmt.Errorf("%w: misreading %q applies to crawlers only, not to a parser (parsers take: %s)", ErrUnknown, id, parserMisreadings())
		case seen[id]:
			return nil, fmt.Errorf("%w: misreading %q is given twice in %s+%s", ErrUnknown, id, base, strings.Join(ids, "+"))
		}
		for _, prev := range ids[:i] {
			if reference.Conflict(prev, id) {
				return nil, fmt.Errorf("%w: misreadings %s and %s cannot be combined in %s+%s: one decides what the other does, or makes it moot", ErrUnknown, prev, id, base, strings.Join(ids, "+"))
			}
		}
		seen[id] = true
		p.misread = append(p.misread, m)
		p.name += "+" + id
	}
	switch base {
	case "reference":
		p.profiles = map[string]reference.Options{}
		for _, profile := range []string{result.ProfileRFC, result.ProfileGoogle, result.ProfileAIPref} {
			opts, _ := reference.OptionsFor(profile)
			p.profiles[profile] = applyAll(opts, p.misread)
		}
	case "reference-google":
		opts := applyAll(reference.Google(), p.misread)
		p.fixed = &opts
	default:
		return nil, fmt.Errorf("%w %q: misreadings apply to reference and reference-google", ErrUnknown, base)
	}
	return p, nil
}

// parserMisreadings lists the ids of the misreadings a parser can make,
// comma-separated.
func parserMisreadings() string {
	var ids []string
	for _, m := range reference.Misreadings() {
		if m.ForParsers() {
			ids = append(ids, m.ID)
		}
	}
	return strings.Join(ids, ", ")
}

// Usage implements cases.UsageReporter for parse and status requests: the
// preference of each category under the request's profile (for the
// aipref profile, reference.AIPref).
func (p *Reference) Usage(ctx context.Context, req cases.Request, categories []string) (map[string]string, error) {
	if req.Kind() == result.CapFetch {
		return nil, fmt.Errorf("%s: %w: usage preferences of a fetch request", p.name, errCapability)
	}
	res := reference.FromStatus(cmp.Or(req.Status, 200), req.Robots, p.Options(req.Profile))
	out := make(map[string]string, len(categories))
	for _, c := range categories {
		u := reference.UsageUnknown
		if res.Robots != nil {
			d, err := res.Robots.Usage(req.Agent, req.URL, c)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.name, err)
			}
			u = d.Usage
		}
		out[c] = string(u)
	}
	return out, nil
}

// Decide returns the reference's decision with its trace.
func (p *Reference) Decide(ctx context.Context, req cases.Request) (reference.Decision, error) {
	opts := p.Options(req.Profile)
	switch req.Kind() {
	case result.CapFetch:
		f := p.fetcher(req, opts)
		return f.Decide(ctx, req.Agent, req.URL)
	case result.CapStatus:
		return reference.FromStatus(req.Status, req.Robots, opts).Decide(req.Agent, req.URL)
	}
	return reference.Parse(req.Robots, opts).Decide(req.Agent, req.URL)
}

// Check implements cases.Parser. It builds no trace: a parse request,
// the differential engine's usual question, takes the one-shot
// reference.AllowedOnce.
func (p *Reference) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	var allowed bool
	var err error
	if req.Kind() == result.CapParse {
		allowed, err = reference.AllowedOnce(string(req.Robots), p.Options(req.Profile), req.Agent, req.URL)
	} else {
		var d reference.Decision
		d, err = p.Decide(ctx, req)
		allowed = d.Allowed
	}
	return p.verdict(allowed, err)
}

// fetcher returns the fetcher for a request: a fresh one per request, or
// the session's, whose clock reads the request's time.
func (p *Reference) fetcher(req cases.Request, opts reference.Options) *reference.Fetcher {
	if req.Session == "" {
		return &reference.Fetcher{Client: req.Client, Options: opts}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sessions == nil {
		p.sessions = make(map[string]*session)
	}
	s := p.sessions[req.Session]
	if s == nil {
		s = &session{}
		s.fetcher = &reference.Fetcher{Client: req.Client, Options: opts, Now: func() time.Time { return s.now }}
		p.sessions[req.Session] = s
	}
	s.now = req.Now
	s.fetcher.Client = req.Client
	return s.fetcher
}

// EndSession drops a session's cache; the runner calls it after a
// timeline case.
func (p *Reference) EndSession(id string) {
	p.mu.Lock()
	delete(p.sessions, id)
	p.mu.Unlock()
}

// CheckBatch implements cases.Batcher: a parse or status request is parsed
// once for every question; fetch requests are asked one by one.
func (p *Reference) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	var decide func(agent, url string) (bool, error)
	opts := p.Options(req.Profile)
	switch req.Kind() {
	case result.CapParse:
		decide = reference.Parse(req.Robots, opts).Allowed
	case result.CapStatus:
		res := reference.FromStatus(req.Status, req.Robots, opts)
		decide = func(agent, url string) (bool, error) {
			d, err := res.Decide(agent, url)
			return d.Allowed, err
		}
	default:
		return eachCheck(ctx, p, req, qs)
	}
	vs := make([]result.Verdict, len(qs))
	errs := make([]error, len(qs))
	for i, q := range qs {
		vs[i], errs[i] = p.verdict(decide(q.Agent, q.URL))
	}
	return vs, errs
}

// verdict turns the reference's answer into a check's.
func (p *Reference) verdict(allowed bool, err error) (result.Verdict, error) {
	switch {
	case errors.Is(err, reference.ErrInvalidToken):
		return "", fmt.Errorf("%s: %w", p.name, err)
	case err != nil:
		return "", err
	}
	return result.VerdictOf(allowed), nil
}

// Concurrent implements cases.Concurrent: sessions are kept under a lock
// and a case's session is used by one goroutine at a time.
func (p *Reference) Concurrent() bool { return true }
