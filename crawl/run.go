package crawl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/reptest/reptest/internal/cmdline"
	"github.com/reptest/reptest/result"
	"github.com/reptest/reptest/setup"
)

// The placeholders of a crawler command template.
const (
	PlaceholderURL   = "{url}"   // the start URL
	PlaceholderAgent = "{agent}" // the product token
	PlaceholderUA    = "{ua}"    // a full User-Agent header naming the token
	PlaceholderDir   = "{dir}"   // a fresh scratch folder, also the working directory
	PlaceholderProxy = "{proxy}" // host:port of reptest's HTTP proxy
	PlaceholderCA    = "{ca}"    // the PEM file of the crawl's test CA
)

// UserAgent is the User-Agent header {ua} stands for.
func UserAgent(agent string) string {
	return "Mozilla/5.0 (compatible; " + agent + "/1.0; +https://example.com/bot)"
}

// Crawler is a crawler command to judge.
type Crawler struct {
	Name string
	// Template is the command, split into words as --command templates
	// are (POSIX shell quoting, no other shell features).
	Template string
	// Timeout stops a run (the whole process group) that lasts longer.
	Timeout time.Duration
	// Budget is the most requests a run may make; the run is stopped at
	// the next one.
	Budget int
	// Jobs is how many scenarios RunAll runs at once; below 1, one.
	Jobs int
	// Lab is where the scenarios are served; nil: RunAll and Crawl make
	// one of their own, in the layout NewLab picks.
	Lab *Lab
	// Faketime is the path of libfaketime's preload library (FindFaketime)
	// that timeline scenarios run the crawler under; empty: they are
	// skipped, saying so.
	Faketime string
	// NoTimeline skips the timeline scenarios.
	NoTimeline bool
	// Requirements is the requirement table (cases.RequirementTable) the
	// access checks take their levels from.
	Requirements result.Table
}

// Run is what one crawler run of a scenario produced.
type Run struct {
	Scenario *Scenario
	Log      []Request
	Start    string // the start URL the crawler was given
	// Versions are the robots.txt files in force, per origin, as the
	// reference fetched them from the site.
	Versions []Version
	// Layout is the layout the site was served in.
	Layout Layout
	// Failure, when set, says why the run does not count: the command
	// could not start, the timeout or the budget stopped it.
	Failure string
	// Exit is the exit status ("exit status 0", "signal: killed").
	Exit string
	// Output is the end of the crawler's standard output and error.
	Output string
	// Judgements are the grader's judgements of Log, one per request in
	// order, made once when the run ended; the results, the timeline and
	// the diagnosis's evidence all read them.
	Judgements []Judgement
}

// judgements returns the run's judgements, grading its log if the run was
// put together without them.
func (run *Run) judgements() []Judgement {
	if run.Judgements == nil && len(run.Log) > 0 {
		return Grade(run.Log, run.Versions, run.Scenario.gradeOptions())
	}
	return run.Judgements
}

// NotStarted begins the Failure of a run whose crawler could not be
// started.
const NotStarted = "the crawler could not be started"

// startHint is what follows the error of a crawler that could not be
// started: for a known crawler not found, what installs it.
func startHint(command string, err error) string {
	p, ok := setup.ProgramFor(command)
	if !ok || !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, os.ErrNotExist) {
		return ""
	}
	return "; " + setup.Hint(p.InstallLine(), p.Name, p.Kind)
}

// outputKeep is how much of a crawler's output a Run keeps.
const outputKeep = 4 << 10

// UsesProxy reports whether the template asks for the proxy.
func (c *Crawler) UsesProxy() bool { return strings.Contains(c.Template, PlaceholderProxy) }

// Crawl runs the crawler on one scenario. It never returns with the
// crawler's processes still running.
func (c *Crawler) Crawl(ctx context.Context, sc *Scenario) Run {
	lab := c.Lab
	if lab == nil {
		var err error
		if lab, err = NewLab(LabOptions{}); err != nil {
			return Run{Scenario: sc, Failure: err.Error()}
		}
		defer lab.Close()
	}
	return c.crawl(ctx, sc, lab)
}

func (c *Crawler) crawl(ctx context.Context, sc *Scenario, lab *Lab) Run {
	run := Run{Scenario: sc, Layout: lab.Layout()}
	words, err := cmdline.Split(c.Template)
	if err == nil && len(words) == 0 {
		err = errors.New("the template is empty")
	}
	if err != nil {
		run.Failure = fmt.Sprintf("crawler command %q: %v", c.Template, err)
		return run
	}
	if why := c.clockSkip(words[0]); sc.Steps != nil && why != "" {
		run.Failure = why
		return run
	}
	site, err := NewSite(sc, lab, c.UsesProxy(), c.Budget)
	if err != nil {
		run.Failure = err.Error()
		return run
	}
	defer site.Close()
	run.Start, run.Versions = site.Start(), site.Versions()
	dir, err := os.MkdirTemp("", "reptest-crawl-*")
	if err != nil {
		run.Failure = err.Error()
		return run
	}
	defer os.RemoveAll(dir)
	r := strings.NewReplacer(PlaceholderURL, site.Start(), PlaceholderAgent, sc.Agent,
		PlaceholderUA, UserAgent(sc.Agent), PlaceholderDir, dir, PlaceholderProxy, site.ProxyAddr(),
		PlaceholderCA, lab.CAFile())
	for i := range words {
		words[i] = r.Replace(words[i])
	}
	cmd := exec.Command(words[0], words[1:]...)
	cmd.Dir = dir
	cmd.Env = site.ClockEnv(append(append(os.Environ(), "HOME="+dir), lab.CAEnv()...), c.Faketime)
	if c.UsesProxy() {
		p := "http://" + site.ProxyAddr()
		cmd.Env = append(cmd.Env, "http_proxy="+p, "HTTP_PROXY="+p, "no_proxy=", "NO_PROXY=")
	}
	out := &tail{max: outputKeep}
	cmd.Stdout, cmd.Stderr = out, out
	cmdline.NewGroup(cmd)
	if err := cmd.Start(); err != nil {
		run.Failure = NotStarted + ": " + err.Error() + startHint(words[0], err)
		return run
	}
	run.Exit, run.Failure = c.wait(ctx, cmd, site)
	// Requests in flight when the crawler was stopped are still recorded.
	time.Sleep(50 * time.Millisecond)
	run.Log = site.Log()
	run.Output = out.String()
	if err := site.ClockError(); err != nil && run.Failure == "" {
		run.Failure = "the site's clock could not be moved: " + err.Error()
	}
	if errs := site.TLSErrors(); len(errs) > 0 && run.Failure == "" {
		// A crawler that refused the site's certificate saw a site
		// without those origins: its run says nothing about robots.txt.
		run.Failure = "the crawler refused the certificate of an https origin of the site (was it handed the test CA? pass {ca}, or see the README for the variables set):\n  " +
			strings.Join(errs[:min(len(errs), 5)], "\n  ")
	}
	if len(run.Log) > 0 {
		run.Judgements = Grade(run.Log, run.Versions, sc.gradeOptions())
	}
	return run
}

// wait waits for the crawler to exit, to run out of time or of budget, or
// for ctx; then it kills the process group, whatever is left of it.
func (c *Crawler) wait(ctx context.Context, cmd *exec.Cmd, site *Site) (exit, failure string) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(c.Timeout)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		failure = fmt.Sprintf("the crawler was still running after %s and was stopped (its whole process group)", c.Timeout)
	case <-site.Over():
		failure = fmt.Sprintf("the crawler made more than %d requests and was stopped (its whole process group)", c.Budget)
	case <-ctx.Done():
		failure = "interrupted: " + ctx.Err().Error()
	}
	cmdline.KillGroup(cmd.Process)
	if failure != "" {
		err = <-done
	}
	exit = "exit status 0"
	if err != nil {
		exit = err.Error()
	}
	return exit, failure
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
	cut bool
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
		t.cut = true
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.ToValidUTF8(string(t.b), "\uFFFD")
	if t.cut {
		s = "…" + s
	}
	return s
}
