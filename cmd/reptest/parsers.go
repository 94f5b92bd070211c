package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
)

// unavailable is a parser that could not be started, with the reason
// (a missing runtime names its package).
type unavailable struct {
	name string
	err  error
	// prog is the --exec program that did not start, nil for a built-in
	// parser; its checks are errors, not skipped.
	prog *program
}

// absent stands in for an unavailable parser: it has no capability, so
// the runner skips its every check.
type absent struct{ name string }

func (a absent) Info() cases.Info { return cases.Info{Name: a.name} }
func (a absent) Check(context.Context, cases.Request) (cases.Verdict, error) {
	return "", errors.New("unavailable")
}

// programs are the flags that add external programs to a run: --exec and
// --command (repeatable, in command-line order), --name for the one that
// follows it, and the stdout patterns of --command.
type programs struct {
	list                    []program
	pending                 string // a --name not yet followed by a program
	allowedRE, disallowedRE string
}

// program is one --exec or --command.
type program struct {
	exec bool // --exec; else --command
	arg  string
	name string // from --name; "" for the hello's or a default
}

// addProgramFlags defines --exec, --command, --name, --allowed-pattern and
// --disallowed-pattern on fs.
func addProgramFlags(fs *flag.FlagSet) *programs {
	x := &programs{}
	add := func(exec bool) func(string) error {
		return func(s string) error {
			x.list = append(x.list, program{exec: exec, arg: s, name: x.pending})
			x.pending = ""
			return nil
		}
	}
	fs.Func("exec", "a command speaking the JSON-lines protocol (repeatable)", add(true))
	fs.Func("command", "a one-process-per-check command template with %robots%, %url%, %user-agent% (repeatable)", add(false))
	fs.Func("name", "the parser name of the --exec or --command that follows", func(s string) error {
		if x.pending != "" {
			return fmt.Errorf("--name %q is not followed by --exec or --command", x.pending)
		}
		if err := parsers.ValidName(s); err != nil {
			return err
		}
		x.pending = s
		return nil
	})
	fs.StringVar(&x.allowedRE, "allowed-pattern", "", "with --command: a regular expression on stdout meaning allowed")
	fs.StringVar(&x.disallowedRE, "disallowed-pattern", "", "with --command: a regular expression on stdout meaning disallowed")
	return x
}

// without returns the programs but those that did not start.
func (x *programs) without(missing []unavailable) *programs {
	y := *x
	y.list = nil
	for i := range x.list {
		if !slices.ContainsFunc(missing, func(u unavailable) bool { return u.prog == &x.list[i] }) {
			y.list = append(y.list, x.list[i])
		}
	}
	return &y
}

// none reports whether no external program was given.
func (x *programs) none() bool { return len(x.list) == 0 }

// openParsers starts the parsers named on the command line. Built-in
// parsers whose runtime is missing are returned as unavailable, not as an
// error; so is an --exec program that does not start or answer its hello,
// whose stand-in fails its every check with the reason. An unknown name is
// an error.
func openParsers(ctx context.Context, names []string, progs *programs, timeout time.Duration) ([]cases.Parser, []unavailable, error) {
	if progs.pending != "" {
		return nil, nil, fmt.Errorf("--name %q is not followed by --exec or --command", progs.pending)
	}
	var ps []cases.Parser
	var missing []unavailable
	// External programs get half the check's time, so that a hung one is
	// killed and restarted by its adapter before the runner gives up.
	// The Go libraries run isolated, so that the timeout bounds them too.
	// Peers and workers start a second process only for concurrent
	// callers, up to one per CPU.
	popts := parsers.Options{Timeout: timeout / 2, Isolate: true, Procs: runtime.GOMAXPROCS(0)}
	taken := map[string]bool{}
	fail := func(err error) ([]cases.Parser, []unavailable, error) {
		closeParsers(ps)
		return nil, nil, err
	}
	for _, name := range names {
		if taken[name] {
			return fail(fmt.Errorf("--parser %s is given twice", name))
		}
		taken[name] = true
		p, err := parsers.New(ctx, name, popts)
		switch {
		case errors.Is(err, parsers.ErrUnavailable):
			missing = append(missing, unavailable{name: name, err: err})
			ps = append(ps, absent{name})
		case err != nil:
			return fail(err)
		default:
			ps = append(ps, p)
		}
	}
	for i, pr := range progs.list {
		if pr.name != "" && taken[pr.name] {
			return fail(fmt.Errorf("--name %s is taken", pr.name))
		}
		p, err := pr.open(ctx, progs, taken, popts.Timeout)
		var b broken
		switch {
		case errors.As(err, &b):
			missing = append(missing, unavailable{name: b.name, err: b.err, prog: &progs.list[i]})
		case err != nil:
			return fail(err)
		}
		taken[p.Info().Name] = true
		ps = append(ps, p)
	}
	return ps, missing, nil
}

// open starts one program. An --exec program that cannot start gives its
// broken stand-in and, as the error, the same broken value.
func (pr program) open(ctx context.Context, progs *programs, taken map[string]bool, timeout time.Duration) (cases.Parser, error) {
	if !pr.exec {
		name := pr.name
		if name == "" {
			name = freeName("command", taken)
		}
		p, err := parsers.NewCommand(pr.arg, parsers.CommandOptions{Name: name, AllowedPattern: progs.allowedRE, DisallowedPattern: progs.disallowedRE, Timeout: timeout})
		if err != nil {
			return nil, fmt.Errorf("--command %q: %w", pr.arg, err)
		}
		return p, nil
	}
	if strings.TrimSpace(pr.arg) == "" {
		return nil, errors.New("--exec: empty command")
	}
	opts := parsers.ExecOptions{Timeout: timeout, Name: pr.name, Procs: runtime.GOMAXPROCS(0)}
	p, err := parsers.NewExec(ctx, pr.arg, opts)
	if err == nil && taken[p.Info().Name] {
		// Results are kept by parser name: a second program that calls
		// itself by a taken name runs under a numbered one.
		p.Close()
		opts.Name = freeName(p.Info().Name, taken)
		p, err = parsers.NewExec(ctx, pr.arg, opts)
	}
	switch {
	case err == nil:
		return p, nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("--exec %q: %w", pr.arg, err)
	}
	name := pr.name
	if name == "" {
		name = freeName("exec", taken)
	}
	b := broken{name: name, err: fmt.Errorf("--exec %q did not start: %w", pr.arg, err)}
	return b, b
}

// broken stands in for an --exec program that did not start: it takes
// every kind of check and fails each with the reason, so the run records
// that parser's errors and keeps the others' results.
type broken struct {
	name string
	err  error
}

func (b broken) Error() string { return b.err.Error() }
func (b broken) Info() cases.Info {
	return cases.Info{Name: b.name, Capabilities: []cases.Capability{cases.CapParse, cases.CapStatus, cases.CapFetch, cases.CapClock}}
}
func (b broken) Check(context.Context, cases.Request) (cases.Verdict, error) { return "", b.err }

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

// isUnavailable reports whether name is a built-in parser that cannot run
// here; an --exec program that did not start is not: its errors count.
func isUnavailable(name string, missing []unavailable) bool {
	for _, u := range missing {
		if u.name == name && u.prog == nil {
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
