package diff

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
)

// batching is naive with cases.Batcher: it counts the batches and the
// questions they held.
type batching struct {
	naive
	batches, questions *atomic.Int64
}

func (b *batching) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]cases.Verdict, []error) {
	b.batches.Add(1)
	b.questions.Add(int64(len(qs)))
	vs := make([]cases.Verdict, len(qs))
	errs := make([]error, len(qs))
	for k, q := range qs {
		r := req
		r.Agent, r.URL = q.Agent, q.URL
		vs[k], errs[k] = b.naive.Check(ctx, r)
	}
	return vs, errs
}

// TestRunOptimisedSameFindings runs the same files with and without the
// verdict cache, the batches and the short cuts of minimisation, and
// checks that the reports are equal while the optimised run asks fewer
// questions.
func TestRunOptimisedSameFindings(t *testing.T) {
	files := append(Generate(5, 40), Generate(5, 40)[:5]...) // the same bodies twice
	for i := range files[40:] {
		files[40+i].Name += "/again"
	}
	files = append(files, File{Name: "hand", Robots: []byte("User-agent: *\nDisallow: /a\nREJECT\n")})
	type counts struct{ checks, batches, questions atomic.Int64 }
	runWith := func(unoptimised bool, c *counts) *Report {
		mk := func(context.Context) ([]cases.Parser, error) {
			return []cases.Parser{
				ref(), refGoogle(),
				&naive{name: "naive", calls: &c.checks, owner: new(atomic.Int64)},
				&batching{naive: naive{name: "batching", calls: &c.checks}, batches: &c.batches, questions: &c.questions},
			}, nil
		}
		rep, err := Run(context.Background(), files, mk, Options{Workers: 2, MaxProbes: 60, Unoptimised: unoptimised})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	var plain, fast counts
	want := runWith(true, &plain)
	got := runWith(false, &fast)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("optimised run differs (-plain +optimised):\n%s", diff)
	}
	if len(want.Findings) == 0 {
		t.Fatal("no findings")
	}
	if plain.batches.Load() != 0 {
		t.Errorf("the plain run made %d batches", plain.batches.Load())
	}
	if fast.batches.Load() == 0 || fast.batches.Load() > int64(len(files)) {
		t.Errorf("%d batches for %d files", fast.batches.Load(), len(files))
	}
	if fast.checks.Load() >= plain.checks.Load() {
		t.Errorf("optimised run made %d checks, the plain one %d", fast.checks.Load(), plain.checks.Load())
	}
	t.Logf("checks: plain %d, optimised %d (%d in %d batches)", plain.checks.Load(), fast.checks.Load(), fast.questions.Load(), fast.batches.Load())
}

// TestVerdictCacheBounded checks that a full cache remembers nothing more
// and that errors are never remembered.
func TestVerdictCacheBounded(t *testing.T) {
	c := newVerdictCache(2)
	b := newBody(Input{Robots: []byte("User-agent: *\n")})
	q := func(u string) cases.Question { return cases.Question{Agent: "a", URL: u} }
	c.put("p", &b, q("/1"), cases.Allow)
	c.put("p", &b, q("/2"), VerdictError)
	c.put("p", &b, q("/3"), cases.Disallow)
	c.put("p", &b, q("/4"), cases.Allow)
	for u, want := range map[string]bool{"/1": true, "/2": false, "/3": true, "/4": false} {
		if _, ok := c.get("p", &b, q(u)); ok != want {
			t.Errorf("%s: cached %v, want %v", u, ok, want)
		}
	}
	if v, ok := c.get("other", &b, q("/1")); ok {
		t.Errorf("another parser's verdict: %q", v)
	}
	var none *verdictCache
	none.put("p", &b, q("/1"), cases.Allow)
	if _, ok := none.get("p", &b, q("/1")); ok {
		t.Error("a nil cache remembered")
	}
}
