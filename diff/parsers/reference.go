package parsers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// Reference adapts the reference implementation to cases.Parser. It has
// every capability: parse, status, fetch (through the request's client)
// and clock (one cache per session, on the request's time).
type Reference struct {
	name  string
	fixed *reference.Options // nil: the case's profile chooses

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
func (p *Reference) Info() cases.Info {
	return cases.Info{
		Name:         p.name,
		Version:      Version,
		Capabilities: []cases.Capability{cases.CapParse, cases.CapStatus, cases.CapFetch, cases.CapClock},
	}
}

// Options returns the options the reference uses for a profile.
func (p *Reference) Options(profile string) reference.Options {
	if p.fixed != nil {
		return *p.fixed
	}
	opts, _ := reference.OptionsFor(profile)
	return opts
}

// Decide returns the reference's decision with its trace.
func (p *Reference) Decide(ctx context.Context, req cases.Request) (reference.Decision, error) {
	opts := p.Options(req.Profile)
	switch req.Kind() {
	case cases.CapFetch:
		f := p.fetcher(req, opts)
		return f.Decide(ctx, req.Agent, req.URL)
	case cases.CapStatus:
		return reference.FromStatus(req.Status, req.Robots, opts).Decide(req.Agent, req.URL)
	}
	return reference.Parse(req.Robots, opts).Decide(req.Agent, req.URL)
}

// Check implements cases.Parser. It builds no trace: a parse request,
// the differential engine's usual question, takes the one-shot
// reference.AllowedOnce.
func (p *Reference) Check(ctx context.Context, req cases.Request) (cases.Verdict, error) {
	var allowed bool
	var err error
	if req.Kind() == cases.CapParse {
		allowed, err = reference.AllowedOnce(string(req.Robots), p.Options(req.Profile), req.Agent, req.URL)
	} else {
		var d reference.Decision
		d, err = p.Decide(ctx, req)
		allowed = d.Allowed
	}
	if err != nil {
		if errors.Is(err, reference.ErrInvalidToken) {
			return "", fmt.Errorf("%s: %w", p.name, err)
		}
		return "", err
	}
	if allowed {
		return cases.Allow, nil
	}
	return cases.Disallow, nil
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

// Version is reptest's version, reported by the reference adapters.
const Version = "0.1.0"

// CheckBatch implements cases.Batcher: a parse request is parsed once for
// all the questions; other requests are checked one by one.
func (p *Reference) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]cases.Verdict, []error) {
	vs := make([]cases.Verdict, len(qs))
	errs := make([]error, len(qs))
	if req.Kind() != cases.CapParse {
		for k, q := range qs {
			r := req
			r.Agent, r.URL = q.Agent, q.URL
			vs[k], errs[k] = p.Check(ctx, r)
		}
		return vs, errs
	}
	robots := reference.Parse(req.Robots, p.Options(req.Profile))
	for k, q := range qs {
		allowed, err := robots.Allowed(q.Agent, q.URL)
		switch {
		case err != nil:
			errs[k] = fmt.Errorf("%s: %w", p.name, err)
		case allowed:
			vs[k] = cases.Allow
		default:
			vs[k] = cases.Disallow
		}
	}
	return vs, errs
}
