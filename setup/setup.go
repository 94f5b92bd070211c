// Package setup says whether the programs reptest can drive are ready on
// this machine (the external peers' runtimes and libraries, the crawlers
// the README documents, and the optional tools) and what installs the
// missing ones on Debian or Ubuntu. The parsers' "did not run" messages,
// the crawl command's and `reptest doctor` all take their readiness and
// install commands from here, so they agree.
package setup

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Kind is what a Status is about.
type Kind string

// The kinds of Status.
const (
	KindParser  Kind = "parser"
	KindCrawler Kind = "crawler"
	KindTool    Kind = "tool"
)

// Status is whether one parser, crawler or tool is ready here.
type Status struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Ready is true when it can run here.
	Ready bool `json:"ready"`
	// Version is its version, when ready and known.
	Version string `json:"version,omitempty"`
	// Runtime is the interpreter that runs it and its version, when it
	// needs one ("CPython 3.11.2", "ruby 3.1.2").
	Runtime string `json:"runtime,omitempty"`
	// Reason says what is missing, when not ready.
	Reason string `json:"reason,omitempty"`
	// Apt lists the Debian packages it needs, NpmDir the folder where
	// `npm ci` installs its npm libraries (empty: none).
	Apt    []string `json:"apt,omitempty"`
	NpmDir string   `json:"npm_dir,omitempty"`
	// Install is the command that installs it on Debian or Ubuntu, or
	// builds it; empty when it is built in.
	Install string `json:"install,omitempty"`
}

// AptCommand is the command line that installs the Debian packages pkgs
// (sorted, each once), as root.
func AptCommand(pkgs []string) string {
	if len(pkgs) == 0 {
		return ""
	}
	p := slices.Clone(pkgs)
	slices.Sort(p)
	return "apt-get install -y --no-install-recommends " + strings.Join(slices.Compact(p), " ")
}

// NpmCommand is the command line that installs the npm libraries pinned
// by the package-lock.json in dir.
func NpmCommand(dir string) string {
	return "cd " + shellWord(dir) + " && npm ci --no-audit --no-fund"
}

// InstallCommand is the whole install command of something that needs
// the Debian packages apt and, when npmDir is set, npm ci there.
func InstallCommand(apt []string, npmDir string) string {
	var parts []string
	if c := AptCommand(apt); c != "" {
		parts = append(parts, c)
	}
	if npmDir != "" {
		parts = append(parts, NpmCommand(npmDir))
	}
	return strings.Join(parts, " && ")
}

// Hint is the sentence a "did not run" message ends with: the command
// that installs what is missing and the one that lists everything.
func Hint(install, name string, kind Kind) string {
	doctor := "reptest doctor"
	switch kind {
	case KindParser:
		doctor += " --parser " + name
	case KindCrawler:
		doctor += " --crawler " + name
	}
	if install == "" {
		return "`" + doctor + "` says what is missing"
	}
	return "install with `" + install + "`; `" + doctor + "` says what is missing"
}

func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=@:+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// versionTimeout bounds each version probe: some programs (Scrapy,
// Chromium) take seconds to start, more on a busy machine.
const versionTimeout = time.Minute

// versionRE finds a version number in a program's output.
var versionRE = regexp.MustCompile(`v?[0-9]+(\.[0-9]+)+[0-9A-Za-z.+~-]*`)

// Probe runs name with args (bounded by ctx and versionTimeout) and
// returns the first version number in its output, or the last line of
// the output when it holds none. It fails when the program cannot run or
// exits non-zero (a library that does not load).
func Probe(ctx context.Context, dir, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("%s %s: no answer within %s", name, strings.Join(args, " "), versionTimeout)
	case err != nil:
		return "", fmt.Errorf("%s: %v: %s", filepath.Base(name), err, lastLine(out))
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "WARNING") {
			continue // linkchecker warns about root before its version
		}
		if v := versionRE.FindString(line); v != "" {
			return v, nil
		}
	}
	return lastLine(out), nil
}

// lastLine returns the line of out that says most: the first that reads
// as an error, else the last.
func lastLine(out []byte) string {
	s := strings.TrimSpace(string(out))
	if m := errorLine.FindString(s); m != "" {
		s = m
	} else if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

var errorLine = regexp.MustCompile(`(?m)^.*(Error|error|cannot|Cannot|not found).*$`)

// provides names the command of a Debian package that other sources
// (NodeSource's nodejs bundles npm, a version manager's interpreter) can
// provide too: it counts as installed when that command is on PATH.
var provides = map[string]string{"nodejs": "node", "npm": "npm", "python3": "python3", "perl": "perl", "ruby": "ruby"}

// MissingPackages returns the packages of pkgs that are not installed,
// sorted, each once: those whose command (see provides) is not on PATH
// and that dpkg does not list as installed.
func MissingPackages(ctx context.Context, pkgs []string) []string {
	var out []string
	for _, pkg := range SuggestedApt(ctx, pkgs) {
		if c, ok := provides[pkg]; ok {
			if _, err := exec.LookPath(c); err == nil {
				continue
			}
		}
		st, err := exec.CommandContext(ctx, "dpkg-query", "-W", "-f=${Status}", pkg).Output()
		if err == nil && strings.HasSuffix(strings.TrimSpace(string(st)), " installed") {
			continue
		}
		out = append(out, pkg)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// SuggestedApt returns the Debian packages of pkgs worth suggesting
// here: pkgs without Debian's nodejs and npm when a Node.js that is not
// Debian's is on PATH (NodeSource's, a version manager's). Those bring
// their own npm, and Debian's npm conflicts with NodeSource's nodejs, so
// that apt-get would fail.
func SuggestedApt(ctx context.Context, pkgs []string) []string {
	if !slices.Contains(pkgs, "npm") {
		return pkgs
	}
	if _, err := exec.LookPath("node"); err != nil {
		return pkgs
	}
	v, err := exec.CommandContext(ctx, "dpkg-query", "-W", "-f=${Status} ${Version}", "nodejs").Output()
	if err == nil && strings.Contains(string(v), " installed ") && !strings.Contains(string(v), "nodesource") {
		return pkgs // Debian's nodejs: Debian's npm goes with it
	}
	return slices.DeleteFunc(slices.Clone(pkgs), func(p string) bool { return p == "npm" || p == "nodejs" })
}
