package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff/parsers"
)

// unavailable is a parser that could not be started, with the reason
// (a missing runtime names its package).
type unavailable struct {
	name string
	err  error
}

// absent stands in for an unavailable parser: it has no capability, so
// the runner skips its every check.
type absent struct{ name string }

func (a absent) Info() cases.Info { return cases.Info{Name: a.name} }
func (a absent) Check(context.Context, cases.Request) (cases.Verdict, error) {
	return "", errors.New("unavailable")
}

// openParsers starts the parsers named on the command line. Built-in
// parsers whose runtime is missing are returned as unavailable, not as an
// error; an unknown name is an error.
func openParsers(ctx context.Context, names, execs, commands []string, allowedRE, disallowedRE string, timeout time.Duration) ([]cases.Parser, []unavailable, error) {
	var ps []cases.Parser
	var missing []unavailable
	// External programs get half the check's time, so that a hung one is
	// killed and restarted by its adapter before the runner gives up.
	popts := parsers.Options{Timeout: timeout / 2}
	taken := map[string]bool{}
	for _, name := range names {
		if taken[name] {
			closeParsers(ps)
			return nil, nil, fmt.Errorf("--parser %s is given twice", name)
		}
		taken[name] = true
		p, err := parsers.New(ctx, name, popts)
		switch {
		case errors.Is(err, parsers.ErrUnavailable):
			missing = append(missing, unavailable{name, err})
			ps = append(ps, absent{name})
		case err != nil:
			closeParsers(ps)
			return nil, nil, err
		default:
			ps = append(ps, p)
		}
	}
	for _, cmd := range execs {
		p, err := parsers.NewExec(ctx, cmd, parsers.ExecOptions{Timeout: popts.Timeout})
		if err == nil && taken[p.Info().Name] {
			// Results are kept by parser name: a second program that
			// calls itself by a taken name runs under a numbered one.
			p.Close()
			p, err = parsers.NewExec(ctx, cmd, parsers.ExecOptions{Timeout: popts.Timeout, Name: freeName(p.Info().Name, taken)})
		}
		if err != nil {
			closeParsers(ps)
			return nil, nil, fmt.Errorf("--exec %q: %w", cmd, err)
		}
		taken[p.Info().Name] = true
		ps = append(ps, p)
	}
	for _, tmpl := range commands {
		name := freeName("command", taken)
		taken[name] = true
		p, err := parsers.NewCommand(tmpl, parsers.CommandOptions{Name: name, AllowedPattern: allowedRE, DisallowedPattern: disallowedRE, Timeout: popts.Timeout})
		if err != nil {
			closeParsers(ps)
			return nil, nil, fmt.Errorf("--command %q: %w", tmpl, err)
		}
		ps = append(ps, p)
	}
	return ps, missing, nil
}

// freeName returns name, or name-2, name-3, ... if it is taken.
func freeName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s-%d", name, i); !taken[n] {
			return n
		}
	}
}

func closeParsers(ps []cases.Parser) {
	for _, p := range ps {
		if c, ok := p.(cases.Closer); ok {
			c.Close()
		}
	}
}

// markUnavailable puts the reason on the skipped checks of unavailable
// parsers.
func markUnavailable(rep cases.Report, missing []unavailable) cases.Report {
	for i := range rep.Results {
		for _, u := range missing {
			if rep.Results[i].Parser == u.name {
				rep.Results[i].Detail = u.err.Error()
			}
		}
	}
	return rep
}

func isUnavailable(name string, missing []unavailable) bool {
	for _, u := range missing {
		if u.name == name {
			return true
		}
	}
	return false
}

// versionList names each parser with its version and, for external
// peers, its runtime: "reference 0.1.0, protego 0.2.1 (CPython 3.11.2)".
func versionList(ps []cases.Parser) string {
	parts := make([]string, 0, len(ps))
	for _, p := range ps {
		info := p.Info()
		s := info.Name
		if info.Version != "" {
			s += " " + info.Version
		}
		if info.Runtime != "" {
			s += " (" + info.Runtime + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
