package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
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

// parseShard reads "K/N" (1 ≤ K ≤ N); "" means no sharding.
func parseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("--shard %q: want K/N with 1 ≤ K ≤ N", s)
	}
	return k, n, nil
}

// writer returns a function that renders into the file at path (nothing
// when path is empty) and reports a failure on stderr as the command cmd.
func writer(cmd string, stderr io.Writer) func(path string, render func(io.Writer) error) bool {
	return func(path string, render func(io.Writer) error) bool {
		if path == "" {
			return true
		}
		f, err := os.Create(path)
		if err == nil {
			err = render(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "reptest %s: writing %s: %v\n", cmd, path, err)
			return false
		}
		return true
	}
}
