package parsers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/setup"
)

// peer describes one shipped external peer program in the peers directory.
type peer struct {
	name string
	// runtime is the interpreter, looked up in PATH unless absolute; apt
	// are the Debian packages of the interpreter (first) and the library.
	runtime string
	apt     []string
	// npm is set when the library comes from npm, pinned by the
	// package-lock.json in the node folder of the peers directory.
	npm bool
	// args go between the interpreter and the script.
	args []string
	// script is the program's path below the peers directory.
	script string
	// probe, run by the interpreter in probeDir (below the peers
	// directory), exits 0 when the library can be loaded. With resolve
	// set it prints the interpreter's real path, which is run instead of
	// runtime (so that a version manager's shim is not run on each start).
	probe    []string
	probeDir string
	resolve  bool
	// missing says what the probe failed to load.
	missing string
}

// peers returns the shipped external peers.
func peers() []peer {
	return []peer{
		{
			name: "python-urllib", runtime: "python3", apt: []string{"python3"},
			args: []string{"-B"}, script: "python/urllib_robotparser.py",
			probe:   []string{"-c", "import sys, urllib.robotparser; print(sys.executable)"},
			resolve: true,
			missing: "cannot import urllib.robotparser",
		},
		{
			name: "protego", runtime: "/usr/bin/python3", apt: []string{"python3", "python3-protego"},
			args: []string{"-B"}, script: "python/protego_peer.py",
			probe:   []string{"-c", "import protego"},
			missing: "cannot import protego",
		},
		{
			name: "perl-robotrules", runtime: "perl", apt: []string{"perl", "libwww-robotrules-perl", "libjson-xs-perl"},
			script:  "perl/robotrules.pl",
			probe:   []string{"-MWWW::RobotRules", "-MURI", "-MJSON::PP", "-MMIME::Base64", "-e", "1"},
			missing: "cannot load WWW::RobotRules",
		},
		{
			name: "webrobots", runtime: "ruby", apt: []string{"ruby", "ruby-webrobots"},
			script:  "ruby/webrobots.rb",
			probe:   []string{"-e", `require "json"; require "webrobots"`},
			missing: "cannot load webrobots",
		},
		{
			name: "robots-parser", runtime: "node", apt: []string{"nodejs", "npm"},
			script:   "node/robots-parser.js",
			probe:    []string{"-e", `require("robots-parser")`},
			probeDir: "node",
			missing:  "cannot load robots-parser (npm robots-parser@3.0.1)", npm: true,
		},
		{
			name: "robots-txt-guard", runtime: "node", apt: []string{"nodejs", "npm"},
			script:   "node/robots-txt-guard.js",
			probe:    []string{"-e", `require("robots-txt-guard"); require("robots-txt-parse")`},
			probeDir: "node",
			missing:  "cannot load robots-txt-guard (npm robots-txt-guard@1.0.2 robots-txt-parse@2.0.1)", npm: true,
		},
		{
			name: "robots-txt-parser", runtime: "node", apt: []string{"nodejs", "npm"},
			script:   "node/robots-txt-parser.js",
			probe:    []string{"-e", `require("robots-txt-parser")`},
			probeDir: "node",
			missing:  "cannot load robots-txt-parser (npm robots-txt-parser@2.0.3)", npm: true,
		},
	}
}

// install is the command that installs what the peer needs, with dir
// the peers directory; Debian's nodejs and npm only where they fit
// (setup.SuggestedApt).
func (p peer) install(ctx context.Context, dir string) string {
	npmDir := ""
	if p.npm {
		npmDir = filepath.Join(dir, "node")
	}
	return setup.InstallCommand(setup.SuggestedApt(ctx, p.apt), npmDir)
}

// hint ends the message of a peer that cannot run.
func (p peer) hint(ctx context.Context, dir string) string {
	return setup.Hint(p.install(ctx, dir), p.name, setup.KindParser)
}

// unavailableError is a peer that cannot run here; it wraps ErrUnavailable
// and says what is missing and, in hint, how to install it.
type unavailableError struct{ name, reason, hint string }

func (e *unavailableError) Error() string {
	if e.hint == "" {
		return e.name + ": " + e.reason
	}
	return e.name + ": " + e.reason + "; " + e.hint
}

func (e *unavailableError) Unwrap() error { return ErrUnavailable }

// start checks that the peer can run and starts its program.
func (p peer) start(ctx context.Context, opts Options) (cases.Parser, error) {
	dir, err := PeersDir(opts)
	if err != nil {
		return nil, &unavailableError{name: p.name, reason: err.Error()}
	}
	script := filepath.Join(dir, filepath.FromSlash(p.script))
	if _, err := os.Stat(script); err != nil {
		return nil, &unavailableError{name: p.name, reason: "peer program missing: " + err.Error()}
	}
	rt, err := exec.LookPath(p.runtime)
	if err != nil {
		return nil, &unavailableError{name: p.name, reason: p.runtime + " not found", hint: p.hint(ctx, dir)}
	}
	out, err := p.runProbe(ctx, rt, filepath.Join(dir, filepath.FromSlash(p.probeDir)), opts)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s: checking %s: %w", p.name, p.runtime, err)
		}
		return nil, &unavailableError{name: p.name, reason: p.runtime + " " + p.missing, hint: p.hint(ctx, dir)}
	}
	if real := strings.TrimSpace(out); p.resolve && filepath.IsAbs(real) {
		if _, err := os.Stat(real); err == nil {
			rt = real
		}
	}
	words := append([]string{"exec", shellQuote(rt)}, quoteAll(p.args)...)
	words = append(words, shellQuote(script))
	return NewExec(ctx, strings.Join(words, " "), ExecOptions{
		Name: p.name, Timeout: opts.Timeout, StartTimeout: opts.StartTimeout, Dir: dir, Procs: opts.Procs,
	})
}

// runProbe runs the interpreter on the probe, bounded by the start
// timeout, and returns what it printed.
func (p peer) runProbe(ctx context.Context, rt, dir string, opts Options) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeoutOr(opts.StartTimeout, opts.Timeout))
	defer cancel()
	cmd := exec.CommandContext(ctx, rt, p.probe...)
	cmd.Dir = dir
	out := &headBuffer{max: 4096}
	cmd.Stdout = out
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	return string(out.b), err
}

// shellQuote quotes s as one word for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func quoteAll(ss []string) []string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = shellQuote(s)
	}
	return q
}
