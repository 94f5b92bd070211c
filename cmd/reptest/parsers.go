package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
)

// programs are the flags that add external programs to a run: --exec and
// --command (repeatable, in command-line order), --name for the one that
// follows it, and the stdout patterns of --command.
type programs struct {
	list                    []parsers.Program
	pending                 string // a --name not yet followed by a program
	allowedRE, disallowedRE string
}

// addProgramFlags defines --exec, --command, --name, --allowed-pattern and
// --disallowed-pattern on fs.
func addProgramFlags(fs *flag.FlagSet) *programs {
	x := &programs{}
	add := func(exec bool) func(string) error {
		return func(s string) error {
			x.list = append(x.list, parsers.Program{Exec: exec, Line: s, Name: x.pending})
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

// none reports whether no external program was given.
func (x *programs) none() bool { return len(x.list) == 0 }

// openParsers starts the parsers named on the command line (see
// parsers.Open). External programs get half the check's time, so that a
// hung one is killed and restarted by its adapter before the runner gives
// up; the Go libraries run isolated, so that the timeout bounds them too;
// peers and workers start a second process only for concurrent callers,
// up to one per CPU.
func openParsers(ctx context.Context, names []string, progs *programs, timeout time.Duration) (*parsers.Set, error) {
	if progs.pending != "" {
		return nil, fmt.Errorf("--name %q is not followed by --exec or --command", progs.pending)
	}
	return parsers.Open(ctx, names, progs.list, parsers.SetOptions{
		Options:           parsers.Options{Timeout: timeout / 2, Isolate: true, Procs: runtime.GOMAXPROCS(0)},
		AllowedPattern:    progs.allowedRE,
		DisallowedPattern: progs.disallowedRE,
	})
}

// markUnavailable puts the reason on the skipped checks of unavailable
// parsers.
func markUnavailable(rep cases.Report, missing []parsers.Unavailable) cases.Report {
	for i := range rep.Results {
		for _, u := range missing {
			if rep.Results[i].Parser == u.Name {
				rep.Results[i].Detail = u.Err.Error()
			}
		}
	}
	return rep
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
