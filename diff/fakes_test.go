package diff

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// naive is a deliberately simple parser for tests. It reads every
// "allow:" and "disallow:" line of the file, whatever group it is in,
// compares the rule as a plain prefix of the URL's path and query as
// given (no "*", no "$", no decoding), lets the longest rule win and
// disallow win ties. It rejects a file that holds "REJECT".
type naive struct {
	name  string
	calls *atomic.Int64 // counts checks when set
	owner *atomic.Int64 // detects concurrent use when set
}

func (n *naive) Info() result.Info {
	return result.Info{Name: n.name, Capabilities: []result.Capability{result.CapParse}}
}

func (n *naive) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	if n.owner != nil {
		if n.owner.Add(1) != 1 {
			panic("naive: called concurrently")
		}
		defer n.owner.Add(-1)
	}
	if n.calls != nil {
		n.calls.Add(1)
	}
	body := string(req.Robots)
	if strings.Contains(body, "REJECT") {
		return result.Reject, nil
	}
	path := reference.PathQuery(req.URL)
	best, allow := -1, true
	for _, line := range strings.FieldsFunc(body, func(r rune) bool { return r == '\n' || r == '\r' }) {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		if key != "allow" && key != "disallow" || value == "" || !strings.HasPrefix(path, value) {
			continue
		}
		if len(value) > best || len(value) == best && key == "disallow" {
			best, allow = len(value), key == "allow"
		}
	}
	if allow {
		return result.Allow, nil
	}
	return result.Disallow, nil
}

// broken fails every check with an error, or panics.
type broken struct {
	name  string
	panic bool
	calls *atomic.Int64 // counts checks when set
}

func (b *broken) Info() result.Info { return result.Info{Name: b.name} }

func (b *broken) Check(context.Context, cases.Request) (result.Verdict, error) {
	if b.calls != nil {
		b.calls.Add(1)
	}
	if b.panic {
		panic("broken parser")
	}
	return "", errors.New("broken parser")
}

// ref returns the reference under the RFC options, and refGoogle under
// Google's: the two disagree on percent-encoding of URIs, on the
// user-agent reading, on misspelt keys and on /robots.txt.
func ref() cases.Parser       { return &refParser{name: "reference", opts: reference.RFC()} }
func refGoogle() cases.Parser { return &refParser{name: "reference-google", opts: reference.Google()} }

// refParser adapts the reference for tests without importing the adapters
// under parsers.
type refParser struct {
	name string
	opts reference.Options
}

func (r *refParser) Info() result.Info {
	return result.Info{Name: r.name, Capabilities: []result.Capability{result.CapParse}}
}

func (r *refParser) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	ok, err := reference.Parse(req.Robots, r.opts).Allowed(req.Agent, req.URL)
	if err != nil {
		return "", err
	}
	if ok {
		return result.Allow, nil
	}
	return result.Disallow, nil
}
