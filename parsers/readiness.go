package parsers

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/setup"
)

// Readiness says whether the built-in parser name can run here, decided
// as New decides it (New starts it: a peer's runtime and library are
// checked and its hello read): ready with its version and runtime, or
// missing with New's reason and the command that installs what it needs.
func Readiness(ctx context.Context, name string, opts Options) setup.Status {
	st := setup.Status{Name: name, Kind: setup.KindParser}
	var pr *peer
	for _, q := range peers() {
		if q.name == name {
			pr = &q
			break
		}
	}
	if pr != nil {
		st.Apt = pr.apt
		dir, err := PeersDir(opts)
		if err == nil {
			st.Install = pr.install(ctx, dir)
			if pr.npm {
				st.NpmDir = filepath.Join(dir, "node")
			}
		}
	}
	p, err := New(ctx, name, opts)
	if err != nil {
		// The install command has a column of its own.
		st.Reason = err.Error()
		var u *unavailableError
		if errors.As(err, &u) {
			st.Reason = u.reason
		}
		return st
	}
	if c, ok := p.(cases.Closer); ok {
		defer c.Close()
	}
	info := p.Info()
	st.Ready, st.Version, st.Runtime = true, info.Version, info.Runtime
	if pr == nil && st.Runtime == "" {
		st.Runtime = "Go " + runtime.Version() + ", in this binary"
	}
	return st
}

// NpmDir returns the folder where `npm ci` installs the Node peers'
// libraries, pinned by its package-lock.json: node in the peers directory
// (see PeersDir).
func NpmDir(opts Options) (string, error) {
	dir, err := PeersDir(opts)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "node"), nil
}
