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
)

// peer describes one shipped external peer program in the peers directory.
type peer struct {
	name string
	// runtime is the interpreter, looked up in PATH unless absolute, and
	// runtimePkg the Debian package that provides it.
	runtime    string
	runtimePkg string
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
	// missing says what the probe failed to load and how to install it;
	// %[1]s in it stands for the peers directory.
	missing string
}

// peers returns the shipped external peers.
func peers() []peer {
	return []peer{
		{
			name: "python-urllib", runtime: "python3", runtimePkg: "python3",
			args: []string{"-B"}, script: "python/urllib_robotparser.py",
			probe:   []string{"-c", "import sys, urllib.robotparser; print(sys.executable)"},
			resolve: true,
			missing: "cannot import urllib.robotparser (install Debian package python3)",
		},
		{
			name: "protego", runtime: "/usr/bin/python3", runtimePkg: "python3",
			args: []string{"-B"}, script: "python/protego_peer.py",
			probe:   []string{"-c", "import protego"},
			missing: "cannot import protego (install Debian package python3-protego)",
		},
		{
			name: "perl-robotrules", runtime: "perl", runtimePkg: "perl",
			script:  "perl/robotrules.pl",
			probe:   []string{"-MWWW::RobotRules", "-MURI", "-MJSON::PP", "-MMIME::Base64", "-e", "1"},
			missing: "cannot load WWW::RobotRules (install Debian package libwww-robotrules-perl)",
		},
		{
			name: "webrobots", runtime: "ruby", runtimePkg: "ruby",
			script:  "ruby/webrobots.rb",
			probe:   []string{"-e", `require "json"; require "webrobots"`},
			missing: "cannot load webrobots (install Debian package ruby-webrobots)",
		},
		{
			name: "robots-parser", runtime: "node", runtimePkg: "nodejs",
			script:   "node/robots-parser.js",
			probe:    []string{"-e", `require("robots-parser")`},
			probeDir: "node",
			missing:  npmMissing("robots-parser", "robots-parser@3.0.1"),
		},
		{
			name: "robots-txt-guard", runtime: "node", runtimePkg: "nodejs",
			script:   "node/robots-txt-guard.js",
			probe:    []string{"-e", `require("robots-txt-guard"); require("robots-txt-parse")`},
			probeDir: "node",
			missing:  npmMissing("robots-txt-guard", "robots-txt-guard@1.0.2 robots-txt-parse@2.0.1"),
		},
		{
			name: "robots-txt-parser", runtime: "node", runtimePkg: "nodejs",
			script:   "node/robots-txt-parser.js",
			probe:    []string{"-e", `require("robots-txt-parser")`},
			probeDir: "node",
			missing:  npmMissing("robots-txt-parser", "robots-txt-parser@2.0.3"),
		},
	}
}

// npmMissing is the missing message of a peer whose npm packages (pkgs,
// pinned) are not installed: in a checkout install.sh runs npm ci, outside
// one the embedded programs' folder needs it, or a global install.
func npmMissing(lib, pkgs string) string {
	return "cannot load " + lib + " (npm " + pkgs + ": run `npm ci` in %[1]s/node or peers/install.sh, " +
		"or `npm install -g " + pkgs + "` and set NODE_PATH=$(npm root -g))"
}

// unavailableError is a peer that cannot run here; it wraps ErrUnavailable
// and says what to install.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string { return e.msg }
func (e *unavailableError) Unwrap() error { return ErrUnavailable }

func unavailable(format string, a ...any) error {
	return &unavailableError{msg: fmt.Sprintf(format, a...)}
}

// start checks that the peer can run and starts its program.
func (p peer) start(ctx context.Context, opts Options) (cases.Parser, error) {
	dir, err := PeersDir(opts)
	if err != nil {
		return nil, unavailable("%s: %v", p.name, err)
	}
	script := filepath.Join(dir, filepath.FromSlash(p.script))
	if _, err := os.Stat(script); err != nil {
		return nil, unavailable("%s: peer program missing: %v", p.name, err)
	}
	rt, err := exec.LookPath(p.runtime)
	if err != nil {
		return nil, unavailable("%s: %s not found (install Debian package %s)", p.name, p.runtime, p.runtimePkg)
	}
	out, err := p.runProbe(ctx, rt, filepath.Join(dir, filepath.FromSlash(p.probeDir)), opts)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s: checking %s: %w", p.name, p.runtime, err)
		}
		missing := p.missing
		if strings.Contains(missing, "%[1]s") {
			missing = fmt.Sprintf(missing, dir)
		}
		return nil, unavailable("%s: %s %s", p.name, p.runtime, missing)
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
