package parsers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	peerfiles "github.com/reptest/reptest/peers"
	"github.com/reptest/reptest/reference"
)

// ErrUnavailable is wrapped by the errors of New for a known parser that
// cannot run here: its runtime, its library or its peer program is
// missing. The message names the Debian or npm package to install. Callers
// report such a parser as skipped.
var ErrUnavailable = errors.New("parser unavailable")

// ErrUnknown is wrapped by the error of New for a name Names does not list.
var ErrUnknown = errors.New("unknown parser")

// errCapability is wrapped by the error of a check that asks an adapter
// for something it cannot do; the runner never sends such requests.
var errCapability = errors.New("the parser lacks the capability for this request")

// ModulePath is the module whose root holds peers.
const ModulePath = "github.com/reptest/reptest"

// PeersEnv is the environment variable that can name the peers directory.
const PeersEnv = "REPTEST_PEERS"

// Options configures New. The zero value is usable.
type Options struct {
	// PeersDir is the directory of the peer programs (peers in this
	// repository). Empty: $REPTEST_PEERS, else found from the working
	// directory (see PeersDir).
	PeersDir string
	// Timeout bounds each check of an external peer; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// StartTimeout bounds the start of an external peer: the check that
	// its library loads, and its hello. 0 means DefaultStartTimeout, or
	// Timeout when that is longer.
	StartTimeout time.Duration
	// Isolate runs the Go libraries (grobotstxt, temoto) as Isolated:
	// checks that could run long or grow large go to a worker process, so
	// that Timeout bounds them and WorkerMemory their memory. The program
	// must call ServeWorkerIfAsked first thing in main.
	Isolate bool
	// WorkerMemory bounds the memory of each worker; 0 means
	// DefaultWorkerMemory.
	WorkerMemory int64
	// Procs is the most processes run at once per external peer or worker
	// for concurrent callers (ExecOptions.Procs); 0 means 1.
	Procs int
}

// constructor makes one parser.
type constructor func(ctx context.Context, opts Options) (cases.Parser, error)

// builtins returns the built-in parsers by name.
func builtins() map[string]constructor {
	m := map[string]constructor{
		"reference": func(context.Context, Options) (cases.Parser, error) {
			return NewReference(), nil
		},
		"reference-google": func(context.Context, Options) (cases.Parser, error) {
			return NewReferenceWith("reference-google", reference.Google()), nil
		},
		"grobotstxt": func(ctx context.Context, opts Options) (cases.Parser, error) {
			return library(ctx, NewGrobotstxt(), opts)
		},
		"temoto": func(ctx context.Context, opts Options) (cases.Parser, error) {
			return library(ctx, NewTemoto(), opts)
		},
	}
	for _, p := range peers() {
		m[p.name] = p.start
	}
	return m
}

// library returns an in-process library, isolated when opts says so.
func library(ctx context.Context, lib cases.Parser, opts Options) (cases.Parser, error) {
	if !opts.Isolate {
		return lib, nil
	}
	return newIsolated(ctx, lib, opts)
}

// Names returns the names of the built-in parsers, sorted. Each is
// accepted by New; the external peers among them may still be unavailable
// on this machine.
func Names() []string {
	m := builtins()
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// New returns the built-in parser called name. For an external peer it
// checks that the runtime and the library are installed and starts the
// peer program; the caller should Close the parser when it implements
// cases.Closer. The reference and reference-google also take misreadings
// after their name, "reference+first-match+no-wildcards" (see NewVariant).
// An unknown name gives an error wrapping ErrUnknown; a peer
// that cannot run here gives one wrapping ErrUnavailable.
func New(ctx context.Context, name string, opts Options) (cases.Parser, error) {
	if base, ids, ok := strings.Cut(name, "+"); ok && (base == "reference" || base == "reference-google") {
		return NewVariant(base, strings.Split(ids, "+")...)
	}
	c, ok := builtins()[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	return c(ctx, opts)
}

// PeersDir returns the directory of the peer programs: opts.PeersDir when
// set, else $REPTEST_PEERS when set, else peers in the root of module
// github.com/reptest/reptest when the working directory is inside a
// checkout (where peers/install.sh installs the npm library), else
// the programs embedded in the binary, written to
// os.UserCacheDir()/reptest/peers/VERSION (see the Extract of package peers).
func PeersDir(opts Options) (string, error) {
	if dir := opts.PeersDir; dir != "" {
		return checkDir(dir, "Options.PeersDir")
	}
	if dir := os.Getenv(PeersEnv); dir != "" {
		return checkDir(dir, "$"+PeersEnv)
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if isModuleRoot(dir) {
				return checkDir(filepath.Join(dir, "peers"), "the module root")
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no folder for the peer programs (set $%s to a copy of peers): %w", PeersEnv, err)
	}
	return peerfiles.Extract(filepath.Join(cache, "reptest", "peers"))
}

// checkDir returns dir made absolute if it is a directory.
func checkDir(dir, from string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("peers directory %s (from %s): %w", dir, from, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("peers directory (from %s): %w", from, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("peers directory %s (from %s) is not a directory", abs, from)
	}
	return abs, nil
}

// isModuleRoot reports whether dir holds the go.mod of ModulePath.
func isModuleRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			mod := strings.TrimSpace(rest)
			if i := strings.Index(mod, "//"); i >= 0 {
				mod = strings.TrimSpace(mod[:i])
			}
			return strings.Trim(mod, `"`) == ModulePath
		}
	}
	return false
}
