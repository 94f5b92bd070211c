package parsers

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

func newIsolatedFor(t *testing.T, name string, opts Options) *Isolated {
	t.Helper()
	opts.Isolate = true
	p, err := New(context.Background(), name, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.(*Isolated).Close() })
	return p.(*Isolated)
}

// TestIsolatedTimeout checks that a library stuck on one input costs that
// check its timeout, not minutes, and that the next checks still run: in
// process for a small body, in a new worker for a large one.
func TestIsolatedTimeout(t *testing.T) {
	p := newIsolatedFor(t, "temoto", Options{Timeout: time.Second})
	// temoto's time grows with the cube of the "*" of a rule that fails
	// to match a long path: about 0.2 s for 800, minutes for 3,000; the
	// test uses 6,000 so that no machine answers within the timeout.
	slow := cases.Request{Robots: []byte("User-agent: *\nDisallow: /" + strings.Repeat("*a", 6000) + "b\n"), Agent: "FooBot", URL: "https://example.com/" + strings.Repeat("a", 24000)}
	start := time.Now()
	_, err := p.Check(context.Background(), slow)
	if err == nil || !strings.Contains(err.Error(), "no answer within 1s") {
		t.Errorf("pathological check: error %v, want a timeout", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("pathological check took %s with a 1s timeout", d)
	}
	large := []byte("User-agent: *\nDisallow: /private\n" + strings.Repeat("# padding\n", fastBody/10+1))
	for _, req := range []cases.Request{
		{Robots: []byte(shopRobots), Agent: "BarBot", URL: "https://example.com/cart/1"},
		{Robots: large, Agent: "FooBot", URL: "https://example.com/private/x"},
	} {
		if fast(req, nil) == (len(req.Robots) > fastBody) {
			t.Fatalf("fast(%d bytes) is wrong", len(req.Robots))
		}
		if v, err := p.Check(context.Background(), req); err != nil || v != result.Disallow {
			t.Errorf("check after the timeout (%d bytes): %q, %v; want disallow", len(req.Robots), v, err)
		}
	}
}

// TestIsolatedMemory checks that a worker that grows past its memory is
// stopped, failing that check only.
func TestIsolatedMemory(t *testing.T) {
	p := newIsolatedFor(t, "temoto", Options{Timeout: 20 * time.Second, WorkerMemory: 48 << 20})
	huge := cases.Request{Robots: []byte("User-agent: *\n" + strings.Repeat("Disallow: /a*b*c\n", 200000)), Agent: "FooBot", URL: "https://example.com/x"}
	_, err := p.Check(context.Background(), huge)
	if err == nil || !strings.Contains(err.Error(), "memory limit exceeded") {
		t.Errorf("check past the memory limit: error %v", err)
	}
	large := cases.Request{Robots: []byte("User-agent: *\nDisallow: /private\n" + strings.Repeat("# padding\n", fastBody/10+1)), Agent: "FooBot", URL: "https://example.com/open"}
	if v, err := p.Check(context.Background(), large); err != nil || v != result.Allow {
		t.Errorf("check after the memory failure: %q, %v; want allow", v, err)
	}
}

// TestIsolatedSameVerdicts checks that a library answers the same in
// process, in its worker, one by one and in batches. The last body's
// wildcards and the long URL pass the bounds of both libraries' fast
// paths.
func TestIsolatedSameVerdicts(t *testing.T) {
	bodies := []string{shopRobots, "Disallow: /x\nUser-agent: *\nDisallow: /y\n", "User-agent: *\nDisallow: /*?session=\n" + strings.Repeat("Allow: /ok*\n", 1000)}
	qs := []cases.Question{
		{Agent: "FooBot", URL: "https://example.com/search?q=1"}, {Agent: "BarBot", URL: "https://example.com/cart"},
		{Agent: "BarBot", URL: "https://example.com/shoes?session=1"}, {Agent: "BarBot", URL: "https://example.com/ok/y"},
		{Agent: "BarBot", URL: "https://example.com/" + strings.Repeat("z", fastURL)},
	}
	for _, name := range []string{"temoto", "grobotstxt"} {
		lib := libraries()[name]
		iso := newIsolatedFor(t, name, Options{Timeout: 5 * time.Second})
		for _, body := range bodies {
			req := cases.Request{Robots: []byte(body)}
			want, _ := eachCheck(context.Background(), lib, req, qs)
			got, errs := iso.CheckBatch(context.Background(), req, qs)
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: isolated batch differs from in-process checks (-want +got):\n%s", name, diff)
			}
			got, _ = checkBatch(context.Background(), lib, req, qs)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: in-process batch differs from checks (-want +got):\n%s", name, diff)
			}
		}
		if iso.worker == nil {
			t.Errorf("%s: the long URL did not go to the worker", name)
		}
	}
}

// TestIsolatedGrobotstxtCapability checks that a request grobotstxt cannot
// take gets its error in process, without starting a worker.
func TestIsolatedGrobotstxtCapability(t *testing.T) {
	iso := newIsolatedFor(t, "grobotstxt", Options{Timeout: 5 * time.Second})
	_, err := iso.Check(context.Background(), cases.Request{Status: 503, Agent: "FooBot", URL: "https://example.com/"})
	if !errors.Is(err, errCapability) {
		t.Errorf("status request: error %v, want errCapability", err)
	}
	if iso.worker != nil {
		t.Error("a worker was started for a request the library cannot take")
	}
}

// countingReads is a library that counts its reads of bodies.
type countingReads struct {
	cases.Parser
	reads int
}

func (c *countingReads) prepare(req cases.Request) answerer {
	c.reads++
	return c.Parser.(preparer).prepare(req)
}

// TestLastBodyReadsOnce checks that a worker reads a body once for the
// batches of questions about it that come one after another, reads it
// again for another body or another kind of request, and answers as the
// library does.
func TestLastBodyReadsOnce(t *testing.T) {
	a := []byte("User-agent: *\nDisallow: /a\nAllow: /a/b\n")
	b := []byte("User-agent: *\nDisallow: /\n")
	qs := []cases.Question{{Agent: "bot", URL: "https://x.test/a"}, {Agent: "bot", URL: "https://x.test/a/b"}, {Agent: "bot", URL: "https://x.test/c"}}
	steps := []struct {
		req   cases.Request
		reads int
	}{
		{cases.Request{Robots: a}, 1},
		{cases.Request{Robots: append([]byte(nil), a...)}, 1},
		{cases.Request{Robots: b}, 2},
		{cases.Request{Robots: a}, 3},
		{cases.Request{Robots: a, Status: 500}, 4},
		{cases.Request{Robots: a, Status: 500}, 4},
		{cases.Request{Robots: a, Status: 404}, 5},
		{cases.Request{Robots: a, Profile: result.ProfileGoogle}, 6},
	}
	for _, lib := range []cases.Parser{NewTemoto(), NewGrobotstxt()} {
		c := &countingReads{Parser: lib}
		l := &lastBody{lib: c}
		for n, s := range steps {
			got, gotErrs := l.CheckBatch(context.Background(), s.req, qs)
			want, wantErrs := lib.(cases.Batcher).CheckBatch(context.Background(), s.req, qs)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, step %d: verdicts (-library +lastBody):\n%s", lib.Info().Name, n, diff)
			}
			if diff := cmp.Diff(errStrings(wantErrs), errStrings(gotErrs)); diff != "" {
				t.Errorf("%s, step %d: errors (-library +lastBody):\n%s", lib.Info().Name, n, diff)
			}
			if c.reads != s.reads {
				t.Errorf("%s, step %d: %d reads of bodies, want %d", lib.Info().Name, n, c.reads, s.reads)
			}
		}
	}
}

func errStrings(errs []error) []string {
	s := make([]string, len(errs))
	for i, err := range errs {
		if err != nil {
			s[i] = err.Error()
		}
	}
	return s
}
