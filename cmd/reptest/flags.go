package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/reptest/reptest/reference"
)

// multi is a flag that may be given several times.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

// newFlags returns a flag set that reports errors to stderr and does not
// exit, so that the caller turns them into status 2.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("reptest "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseInterleaved parses flags that may come before, between or after
// the positional arguments ("reptest report a.json --html out.html
// b.json"), and returns the positional arguments. "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseArgs parses a command's flags, which may stand before, between or
// after its positional arguments, and returns the positional arguments.
// When ok is false the command returns code: 0 after -h (help was asked
// for and printed), 2 after a bad flag (the flag package printed why) or
// two outputs on stdout (stdoutOnce; said here).
func parseArgs(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	pos, err := parseInterleaved(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, 0, false
	case err != nil:
		return nil, exitUsage, false
	}
	if err := stdoutOnce(fs); err != nil {
		fmt.Fprintf(fs.Output(), "%s: %v\n", fs.Name(), err)
		return nil, exitUsage, false
	}
	return pos, 0, true
}

// parseChecked parses the flags of a command, then checks them with
// check, which is given the positional arguments; its error is printed
// as the command's, and is a usage error. When ok is false the command
// returns code, as after parseArgs.
func parseChecked(fs *flag.FlagSet, args []string, check func(pos []string) error) (code int, ok bool) {
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code, false
	}
	if err := check(pos); err != nil {
		fmt.Fprintf(fs.Output(), "%s: %v\n", fs.Name(), err)
		return exitUsage, false
	}
	return exitOK, true
}

// parseOperands parses the flags of a command that takes between min and
// max positional arguments (max < 0: no limit). -h, and a wrong number of
// arguments, print usage and then the flags; the wrong number is a usage
// error. When ok is false the command returns code, as after parseArgs.
func parseOperands(fs *flag.FlagSet, args []string, usage string, min, max int) (pos []string, code int, ok bool) {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), usage)
		fs.PrintDefaults()
	}
	pos, code, ok = parseArgs(fs, args)
	if ok && (len(pos) < min || max >= 0 && len(pos) > max) {
		fs.Usage()
		return nil, exitUsage, false
	}
	return pos, code, ok
}

// parseNoArgs parses the flags of a command that takes no positional
// argument: one is a usage error. When ok is false the command returns
// code, as after parseArgs.
func parseNoArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	pos, code, ok := parseArgs(fs, args)
	if ok && len(pos) > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), pos[0])
		return exitUsage, false
	}
	return code, ok
}

// checkProfile reports whether p names a case profile, and otherwise says
// so on stderr as the command cmd.
func checkProfile(cmd, p string, stderr io.Writer) bool {
	if err := profileError(p); err != nil {
		fmt.Fprintf(stderr, "reptest %s: %v\n", cmd, err)
		return false
	}
	return true
}

// profileError says why p names no case profile, or returns nil.
func profileError(p string) error {
	if _, ok := reference.OptionsFor(p); !ok {
		return fmt.Errorf("--profile must be rfc9309, google or aipref, not %q", p)
	}
	return nil
}
