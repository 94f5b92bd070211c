package parsers

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// Program is a parser outside reptest named by its command line: a
// long-lived program that speaks the reptest/1 protocol (NewExec, the
// CLI's --exec) or a template run once per check (NewCommand, the CLI's
// --command).
type Program struct {
	// Exec is true for a protocol program, false for a command template.
	Exec bool
	// Line is the program's command line, or the command template.
	Line string
	// Name is the parser's name. Empty means the name a protocol program
	// gives in its hello, else "exec" or "command"; a name another parser
	// of the set already has is numbered ("exec-2").
	Name string
}

// SetOptions configures Open. The zero value is usable.
type SetOptions struct {
	// Options configures the built-in parsers. Its Timeout and Procs are
	// also those of the programs.
	Options
	// AllowedPattern and DisallowedPattern are the CommandOptions patterns
	// of every command template among the programs.
	AllowedPattern, DisallowedPattern string
}

// Unavailable is a parser of a Set that could not start, and why.
type Unavailable struct {
	// Name is the parser's name in the set.
	Name string
	// Err says why; for a built-in parser it wraps ErrUnavailable and
	// names the package to install.
	Err error
	// Builtin is true for a built-in parser that cannot run here: its
	// stand-in in Set.Parsers has no capability, so a runner skips its
	// every check. It is false for a program that did not start or did
	// not answer its hello: its stand-in takes every kind of check and
	// fails each with Err, so a run records that parser's errors.
	Builtin bool

	prog int // index of the program in Set.programs; -1 for a built-in
}

// Set is the parsers of one run, opened together by Open.
type Set struct {
	// Parsers are the built-in parsers in the order of the names, then the
	// programs in theirs; each has a name no other has. Those that could
	// not start are stand-ins (see Unavailable).
	Parsers []cases.Parser
	// Unavailable are the parsers that could not start.
	Unavailable []Unavailable

	names    []string
	programs []Program
	opts     SetOptions
}

// Open starts the built-in parsers called names (as New) and the
// programs, for a run that puts the same checks to each. A built-in
// parser whose runtime is missing, and a protocol program that does not
// start or answer its hello, are not errors: they are listed in
// Unavailable and stand in Parsers. A name given twice, an unknown name,
// a program's Name already taken, a bad command template or an empty
// command line is an error, and nothing is left running. Errors name
// programs by the CLI's flags (--exec, --command).
//
// Close the set when done.
func Open(ctx context.Context, names []string, programs []Program, opts SetOptions) (*Set, error) {
	s := &Set{names: names, programs: programs, opts: opts}
	taken := map[string]bool{}
	fail := func(err error) (*Set, error) {
		s.Close()
		return nil, err
	}
	for _, name := range names {
		if taken[name] {
			return fail(fmt.Errorf("--parser %s is given twice", name))
		}
		taken[name] = true
		p, err := New(ctx, name, opts.Options)
		switch {
		case errors.Is(err, ErrUnavailable):
			s.Unavailable = append(s.Unavailable, Unavailable{Name: name, Err: err, Builtin: true, prog: -1})
			s.Parsers = append(s.Parsers, absent{name})
		case err != nil:
			return fail(err)
		default:
			s.Parsers = append(s.Parsers, p)
		}
	}
	for i, pr := range programs {
		if pr.Name != "" && taken[pr.Name] {
			return fail(fmt.Errorf("--name %s is taken", pr.Name))
		}
		p, err := pr.open(ctx, opts, taken)
		var b broken
		switch {
		case errors.As(err, &b):
			s.Unavailable = append(s.Unavailable, Unavailable{Name: b.name, Err: b.err, prog: i})
		case err != nil:
			return fail(err)
		}
		taken[p.Info().Name] = true
		s.Parsers = append(s.Parsers, p)
	}
	return s, nil
}

// Close stops the parsers that hold processes. A closed set can still be
// reopened.
func (s *Set) Close() {
	for _, p := range s.Parsers {
		if c, ok := p.(cases.Closer); ok {
			c.Close()
		}
	}
}

// NotRun returns why the built-in parser called name cannot run here, or
// nil when it runs (or is not a built-in parser of the set).
func (s *Set) NotRun(name string) error {
	for _, u := range s.Unavailable {
		if u.Builtin && u.Name == name {
			return u.Err
		}
	}
	return nil
}

// Reopen opens the parsers of s again but the unavailable ones, with the
// same options: each worker of a run that checks in parallel opens its
// own. The parsers keep their names in s, but a numbered default name
// can shift when an earlier program did not start.
func (s *Set) Reopen(ctx context.Context) (*Set, error) {
	var names []string
	for _, n := range s.names {
		if s.NotRun(n) == nil {
			names = append(names, n)
		}
	}
	var programs []Program
	for i, pr := range s.programs {
		if !s.failed(i) {
			programs = append(programs, pr)
		}
	}
	return Open(ctx, names, programs, s.opts)
}

// failed reports whether the i'th program did not start.
func (s *Set) failed(i int) bool {
	for _, u := range s.Unavailable {
		if !u.Builtin && u.prog == i {
			return true
		}
	}
	return false
}

// Identities returns, by parser name, what identifies the answers of
// each program of the set: its kind and command line, and for a command
// template the verdict patterns. A cache of answers keys programs by it,
// since their names say nothing of what runs.
func (s *Set) Identities() map[string]string {
	ids := make(map[string]string)
	for i, p := range s.Parsers[len(s.names):] {
		pr := s.programs[i]
		id := "exec " + pr.Line
		if !pr.Exec {
			id = "command " + pr.Line + "\x00" + s.opts.AllowedPattern + "\x00" + s.opts.DisallowedPattern
		}
		ids[p.Info().Name] = id
	}
	return ids
}

// open starts one program. A protocol program that cannot start gives its
// broken stand-in and, as the error, the same broken value.
func (pr Program) open(ctx context.Context, opts SetOptions, taken map[string]bool) (cases.Parser, error) {
	if !pr.Exec {
		name := pr.Name
		if name == "" {
			name = freeName("command", taken)
		}
		p, err := NewCommand(pr.Line, CommandOptions{Name: name, AllowedPattern: opts.AllowedPattern, DisallowedPattern: opts.DisallowedPattern, Timeout: opts.Timeout})
		if err != nil {
			return nil, fmt.Errorf("--command %q: %w", pr.Line, err)
		}
		return p, nil
	}
	if strings.TrimSpace(pr.Line) == "" {
		return nil, errors.New("--exec: empty command")
	}
	eopts := ExecOptions{Timeout: opts.Timeout, Name: pr.Name, Procs: opts.Procs}
	p, err := NewExec(ctx, pr.Line, eopts)
	if err == nil && taken[p.Info().Name] {
		// A runner keeps results by parser name: a second program that
		// calls itself by a taken name runs under a numbered one.
		p.Close()
		eopts.Name = freeName(p.Info().Name, taken)
		p, err = NewExec(ctx, pr.Line, eopts)
	}
	switch {
	case err == nil:
		return p, nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("--exec %q: %w", pr.Line, err)
	}
	name := pr.Name
	if name == "" {
		name = freeName("exec", taken)
	}
	b := broken{name: name, err: fmt.Errorf("--exec %q did not start: %w", pr.Line, err)}
	return b, b
}

// absent stands in for a built-in parser that cannot run here: it has no
// capability, so a runner skips its every check.
type absent struct{ name string }

func (a absent) Info() result.Info { return result.Info{Name: a.name} }
func (a absent) Check(context.Context, cases.Request) (result.Verdict, error) {
	return "", errors.New("unavailable")
}

// broken stands in for a protocol program that did not start: it takes
// every kind of check and fails each with the reason, so the run records
// that parser's errors and keeps the others' results.
type broken struct {
	name string
	err  error
}

func (b broken) Error() string { return b.err.Error() }
func (b broken) Info() result.Info {
	return result.Info{Name: b.name, Capabilities: []result.Capability{result.CapParse, result.CapStatus, result.CapFetch, result.CapClock}}
}
func (b broken) Check(context.Context, cases.Request) (result.Verdict, error) { return "", b.err }

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
