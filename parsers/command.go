package parsers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/internal/cmdline"
	"github.com/reptest/reptest/result"
)

// Placeholders of a command template.
const (
	PlaceholderRobots = "%robots%"     // path of a temporary file holding the body
	PlaceholderURL    = "%url%"        // the URL to check
	PlaceholderAgent  = "%user-agent%" // the product token
)

// CommandOptions configures NewCommand. The zero value is usable: the
// verdict then comes from the exit code, 0 allowed and 1 disallowed.
type CommandOptions struct {
	// Name is the parser's name; empty means "command".
	Name string
	// Timeout bounds each check; 0 means DefaultTimeout.
	Timeout time.Duration
	// AllowedPattern and DisallowedPattern, when set, are regular
	// expressions (Go syntax) matched against the program's standard
	// output in multi-line mode, so that "^" and "$" match at the start
	// and end of each line ("ALLOWED$" matches "ALLOWED\n"). With only one
	// set, a match gives that verdict and no match the other; with both
	// set, exactly one must match.
	AllowedPattern    string
	DisallowedPattern string
	// Dir is the program's working directory; empty means the current one.
	Dir string
	// Env is added to the program's environment.
	Env []string
	// TempDir holds the temporary robots.txt files; empty means
	// os.TempDir().
	TempDir string
}

// Command is a parser run as one process per check, from a command
// template compatible with Google's robotstxt-spec-test, for example
//
//	./robots_main %robots% %user-agent% %url%
//
// The template is split into words the way a shell would split it (spaces
// separate words; single quotes, double quotes and backslashes quote), with
// no other shell processing: no variables, globs, pipes or redirections.
// Then %robots% (the path of a temporary file holding the body), %url% and
// %user-agent% are replaced inside each word, so a substituted value is
// always exactly one argument whatever it contains. Standard input is
// empty.
//
// The verdict is read from the exit code, 0 allowed and 1 disallowed, or,
// when CommandOptions gives patterns, from standard output (the first
// MaxLine bytes). Any other exit code, a signal or the timeout is an error
// that quotes the end of standard error. Only parse requests are taken.
//
// After every check, however it ended, the process group of the program
// is killed and the temporary file removed, so nothing outlives a check.
// Command is safe for concurrent use: concurrent checks run in parallel.
type Command struct {
	name       string
	words      []string
	opts       CommandOptions
	allowed    *regexp.Regexp
	disallowed *regexp.Regexp

	mu   sync.Mutex
	tail string
}

// NewCommand parses template and the options' patterns. It returns an
// error for an empty template, an unterminated quote or a bad pattern.
func NewCommand(template string, opts CommandOptions) (*Command, error) {
	words, err := cmdline.Split(template)
	if err != nil {
		return nil, fmt.Errorf("command template %q: %w", template, err)
	}
	if len(words) == 0 {
		return nil, errors.New("command template is empty")
	}
	c := &Command{name: opts.Name, words: words, opts: opts}
	if c.name == "" {
		c.name = "command"
	}
	if err := ValidName(c.name); err != nil {
		return nil, err
	}
	if opts.AllowedPattern != "" {
		if c.allowed, err = regexp.Compile("(?m)" + opts.AllowedPattern); err != nil {
			return nil, fmt.Errorf("allowed pattern: %w", err)
		}
	}
	if opts.DisallowedPattern != "" {
		if c.disallowed, err = regexp.Compile("(?m)" + opts.DisallowedPattern); err != nil {
			return nil, fmt.Errorf("disallowed pattern: %w", err)
		}
	}
	return c, nil
}

// Info implements cases.Parser.
func (c *Command) Info() result.Info {
	return result.Info{Name: c.name, Capabilities: []result.Capability{result.CapParse}}
}

// StderrTail implements cases.Stderr: the end of the standard error of the
// last check to end, unless that check's error already quoted it.
func (c *Command) StderrTail() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tail
}

func (c *Command) setTail(s string) {
	c.mu.Lock()
	c.tail = s
	c.mu.Unlock()
}

// Check implements cases.Parser.
func (c *Command) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	if k := req.Kind(); k != result.CapParse {
		return "", fmt.Errorf("%s: %w: %s", c.name, errCapability, k)
	}
	path, err := writeTemp(c.opts.TempDir, req.Robots)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.name, err)
	}
	defer os.Remove(path)

	r := strings.NewReplacer(PlaceholderRobots, path, PlaceholderURL, req.URL, PlaceholderAgent, req.Agent)
	argv := make([]string, len(c.words))
	for i, w := range c.words {
		argv[i] = r.Replace(w)
	}

	timeout := timeoutOr(c.opts.Timeout)
	run := c.run(ctx, argv, timeout)
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s%s", c.name, fmt.Sprintf(format, a...), stderrNote(run.stderr))
	}
	switch {
	case run.startErr != nil:
		return "", fmt.Errorf("%s: starting %q: %w", c.name, argv[0], run.startErr)
	case ctx.Err() != nil:
		return "", fail("stopped: %v", ctx.Err())
	case run.timedOut:
		return "", fail("no answer within %s", timeout)
	case run.state == nil:
		return "", fail("the killed program was not reaped within %s", reapWait)
	}
	state := run.state
	c.setTail("")
	code := state.ExitCode()
	if code != 0 && code != 1 {
		return "", fail("%s (0 means allowed, 1 disallowed)", state)
	}
	c.setTail(run.stderr)
	if c.allowed == nil && c.disallowed == nil {
		if code == 0 {
			return result.Allow, nil
		}
		return result.Disallow, nil
	}
	out := run.stdout
	a := c.allowed != nil && c.allowed.Match(out)
	d := c.disallowed != nil && c.disallowed.Match(out)
	switch {
	case c.allowed != nil && c.disallowed != nil && a == d:
		c.setTail("")
		what := "neither pattern matches"
		if a {
			what = "both patterns match"
		}
		return "", fail("%s standard output %s", what, quoteShort(out, 200))
	case a:
		return result.Allow, nil
	case d:
		return result.Disallow, nil
	case c.allowed != nil:
		return result.Disallow, nil
	default:
		return result.Allow, nil
	}
}

// runResult is how one run of a command ended.
type runResult struct {
	state    *os.ProcessState // nil when it did not start or was not reaped
	startErr error
	timedOut bool
	stdout   []byte // the first MaxLine bytes
	stderr   string // the last StderrKeep bytes
}

// run runs argv in a process group of its own, bounded by timeout and ctx.
// When the program exits, or the time is up, the whole group is killed, so
// nothing it left behind outlives the check or holds its pipes open.
func (c *Command) run(ctx context.Context, argv []string, timeout time.Duration) runResult {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var res runResult
	outR, outW, err := os.Pipe()
	if err != nil {
		res.startErr = err
		return res
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		res.startErr = err
		return res
	}
	defer outR.Close()
	defer errR.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.opts.Dir
	if len(c.opts.Env) > 0 {
		cmd.Env = append(os.Environ(), c.opts.Env...)
	}
	cmdline.NewGroup(cmd)
	cmd.Stdout, cmd.Stderr = outW, errW // files: Wait returns when the program exits
	res.startErr = cmd.Start()
	outW.Close()
	errW.Close()
	if res.startErr != nil {
		return res
	}
	stdout, stderr := &headBuffer{max: MaxLine}, newTail(StderrKeep)
	copied := make(chan struct{}, 2)
	go func() { io.Copy(stdout, outR); copied <- struct{}{} }()
	go func() { io.Copy(stderr, errR); copied <- struct{}{} }()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-ctx.Done():
		res.timedOut = true
	}
	cmdline.KillGroup(cmd.Process)
	select {
	case <-exited:
		res.state = cmd.ProcessState
	case <-time.After(reapWait):
	}
	// The group is gone, so the pipes are at their end, unless a process
	// left the group: then take what has arrived.
	drain := time.Now().Add(stderrDrain)
	outR.SetReadDeadline(drain)
	errR.SetReadDeadline(drain)
	<-copied
	<-copied
	res.stdout, res.stderr = stdout.b, stderr.String()
	return res
}

// writeTemp writes body to a new temporary file and returns its path.
func writeTemp(dir string, body []byte) (string, error) {
	f, err := os.CreateTemp(dir, "reptest-robots-*.txt")
	if err != nil {
		return "", fmt.Errorf("temporary robots.txt: %w", err)
	}
	_, werr := f.Write(body)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("temporary robots.txt: %w", err)
	}
	return f.Name(), nil
}
