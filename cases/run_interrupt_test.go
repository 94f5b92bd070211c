package cases

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reptest/reptest/result"
)

// cleanupParser blocks until its request ends, then takes a while to clean
// up, as a --command does when it kills its processes and removes its file.
type cleanupParser struct {
	started chan struct{}
	cleaned atomic.Bool
}

func (p *cleanupParser) Info() result.Info {
	return result.Info{Name: "slow", Capabilities: []result.Capability{result.CapParse}}
}
func (p *cleanupParser) Check(ctx context.Context, _ Request) (result.Verdict, error) {
	select {
	case p.started <- struct{}{}:
	default:
	}
	<-ctx.Done()
	time.Sleep(100 * time.Millisecond)
	p.cleaned.Store(true)
	return "", ctx.Err()
}

// TestRunInterruptedCheck interrupts a run while a check is in flight: that
// check and the rest of its case are recorded as interrupted, not as
// timeouts, and Run returns only after the parser ended its check.
func TestRunInterruptedCheck(t *testing.T) {
	c := []Case{{
		ID: "t/one", Level: result.MUST, Req: []string{"MATCH-1"}, Profile: result.ProfileRFC,
		Robots: []byte("User-agent: *\nDisallow: /a\n"),
		Checks: []Check{
			{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Disallow},
			{Agent: "FooBot", URL: "https://example.com/b", Expect: result.Allow},
		},
	}}
	p := &cleanupParser{started: make(chan struct{}, 1)}
	stop := errors.New("terminated signal received")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		<-p.started
		cancel(stop)
	}()
	rep, err := Run(ctx, c, []Parser{p}, RunOptions{Timeout: time.Minute})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want the context's error", err)
	}
	if !p.cleaned.Load() {
		t.Error("Run returned before the interrupted check ended")
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d results, want 2", len(rep.Results))
	}
	for i, r := range rep.Results {
		if r.Outcome != result.Error || !strings.Contains(r.Detail, "interrupted (terminated signal received)") || strings.Contains(r.Detail, "within") {
			t.Errorf("result %d: %s %q, want an error saying the run was interrupted", i, r.Outcome, r.Detail)
		}
	}
}
