package diff

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/result"
)

// batching is naive with cases.Batcher: it counts the batches and the
// questions they held.
type batching struct {
	naive
	batches, questions *atomic.Int64
}

func (b *batching) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	b.batches.Add(1)
	b.questions.Add(int64(len(qs)))
	vs := make([]result.Verdict, len(qs))
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
// questions; and again, minimising every disagreement (not once per
// class) so that the cache matters, with the default cache and with one
// so small that it forgets all the time.
func TestRunOptimisedSameFindings(t *testing.T) {
	files := append(Generate(5, 40), Generate(5, 40)[:5]...) // the same bodies twice
	for i := range files[40:] {
		files[40+i].Name += "/again"
	}
	files = append(files, File{Name: "hand", Robots: []byte("User-agent: *\nDisallow: /a\nREJECT\n")})
	type counts struct{ checks, batches, questions atomic.Int64 }
	runWith := func(workers int, unoptimised bool, cacheEntries int, every bool, c *counts) *result.Document {
		mk := func(context.Context) ([]cases.Parser, error) {
			return []cases.Parser{
				ref(), refGoogle(),
				&naive{name: "naive", calls: &c.checks, owner: new(atomic.Int64)},
				&batching{naive: naive{name: "batching", calls: &c.checks}, batches: &c.batches, questions: &c.questions},
				// The libraries' batches (one parse per body, the
				// grobotstxt parse's events replayed per question).
				parsers.NewGrobotstxt(), parsers.NewTemoto(),
			}, nil
		}
		opts := Options{Workers: workers, MaxProbes: 60, Unoptimised: unoptimised, CacheEntries: cacheEntries, examples: &exampleTable{every: every}}
		rep, err := Run(context.Background(), files, mk, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	var plain, fast, every, forgetful counts
	want := runWith(2, true, 0, false, &plain)
	got := runWith(2, false, 0, false, &fast)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("optimised run differs (-plain +optimised):\n%s", diff)
	}
	// One worker each: with two, which of them asks a question first
	// (and the other then finds it cached, or asks too) varies, and so
	// do the counts compared below.
	if diff := cmp.Diff(want, runWith(1, false, 1<<20, true, &every)); diff != "" {
		t.Fatalf("run minimising every disagreement differs (-plain +every):\n%s", diff)
	}
	if diff := cmp.Diff(want, runWith(1, false, 1, true, &forgetful)); diff != "" {
		t.Fatalf("run with a small cache differs (-plain +small cache):\n%s", diff)
	}
	if forgetful.checks.Load() <= every.checks.Load() {
		t.Errorf("a cache of 64 questions made %d checks, the default one %d", forgetful.checks.Load(), every.checks.Load())
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
	t.Logf("checks: plain %d, optimised %d (%d in %d batches); minimising every disagreement %d, with a small cache %d",
		plain.checks.Load(), fast.checks.Load(), fast.questions.Load(), fast.batches.Load(), every.checks.Load(), forgetful.checks.Load())
}

// TestVerdictCacheBounded checks that the cache keeps each parser's
// verdict apart, forgets its older generation when the newer is full,
// keeps a question it was asked about, and never remembers errors.
func TestVerdictCacheBounded(t *testing.T) {
	b := newBody(result.Input{Robots: []byte("User-agent: *\n")})
	key := func(u string) *questionKey {
		k := keyOf(&b, cases.Question{Agent: "a", URL: u})
		return &k
	}
	type op struct {
		get    bool
		parser int
		url    string
		v      result.Verdict // put: the verdict; get: the one wanted, "" for none
	}
	for _, tc := range []struct {
		name string
		max  int
		ops  []op
	}{
		{"parsers apart", 8, []op{
			{false, 0, "/1", result.Allow}, {false, 1, "/1", result.Reject}, {false, 31, "/1", result.Disallow},
			{true, 0, "/1", result.Allow}, {true, 1, "/1", result.Reject}, {true, 31, "/1", result.Disallow},
			{true, 2, "/1", ""}, {true, 0, "/2", ""},
		}},
		{"no errors, no parser past the 32nd", 8, []op{
			{false, 0, "/1", VerdictError}, {false, 32, "/1", result.Allow},
			{true, 0, "/1", ""}, {true, 32, "/1", ""},
		}},
		{"the older generation forgotten", 4, []op{
			{false, 0, "/1", result.Allow}, {false, 0, "/2", result.Allow},
			{false, 0, "/3", result.Disallow}, {false, 0, "/4", result.Disallow},
			{false, 0, "/5", result.Allow},
			{true, 0, "/1", ""}, {true, 0, "/2", ""}, {true, 0, "/3", result.Disallow}, {true, 0, "/5", result.Allow},
		}},
		{"a question asked again kept", 4, []op{
			{false, 0, "/1", result.Allow}, {false, 0, "/2", result.Allow},
			{false, 0, "/3", result.Disallow}, {true, 0, "/1", result.Allow},
			{false, 0, "/4", result.Allow}, {false, 1, "/4", result.Allow},
			{true, 0, "/1", result.Allow}, {true, 0, "/3", result.Disallow}, {true, 0, "/2", ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newVerdictCache(tc.max)
			for n, o := range tc.ops {
				if !o.get {
					c.put(o.parser, key(o.url), o.v)
					continue
				}
				v, ok := c.get(o.parser, key(o.url))
				if !ok {
					v = ""
				}
				if v != o.v {
					t.Errorf("op %d: parser %d on %s: got %q, want %q", n, o.parser, o.url, v, o.v)
				}
			}
		})
	}
	var none *verdictCache
	none.put(0, key("/1"), result.Allow)
	if _, ok := none.get(0, key("/1")); ok {
		t.Error("a nil cache remembered")
	}
}

// slowEach is naive with cases.Batcher: it answers the questions of a
// batch one at a time, each in delay, as an --exec program without the
// capability batch is asked, and fails those asked after ctx is done.
type slowEach struct {
	naive
	delay time.Duration
}

func (s *slowEach) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	vs, errs := make([]result.Verdict, len(qs)), make([]error, len(qs))
	for i, q := range qs {
		select {
		case <-ctx.Done():
			errs[i] = ctx.Err()
			continue
		case <-time.After(s.delay):
		}
		r := req
		r.Agent, r.URL = q.Agent, q.URL
		vs[i], errs[i] = s.Check(ctx, r)
	}
	return vs, errs
}

// TestAskBatchEachQuestionsTime checks that the engine's deadline for the
// questions of one body is the sum of their check timeouts: a parser that
// answers each of 60 questions in 0.6 of the timeout gets 60 verdicts.
func TestAskBatchEachQuestionsTime(t *testing.T) {
	const timeout = 50 * time.Millisecond
	p, err := newPanel([]cases.Parser{&slowEach{naive: naive{name: "slow"}, delay: timeout * 6 / 10}}, timeout)
	if err != nil {
		t.Fatal(err)
	}
	qs := make([]cases.Question, 60)
	want := make([]result.Verdict, len(qs))
	for i := range qs {
		qs[i], want[i] = cases.Question{Agent: "FooBot", URL: fmt.Sprintf("https://example.com/p%d", i)}, result.Allow
		if i%2 == 1 {
			qs[i].URL, want[i] = fmt.Sprintf("https://example.com/private/%d", i), result.Disallow
		}
	}
	req := cases.Request{Case: "slow", Robots: []byte("User-agent: *\nDisallow: /private\n")}
	got := p.askBatch(context.Background(), p.parsers[0].(cases.Batcher), req, qs)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
}

// TestDuplicatesComparedOnce runs files, then the same files with copies
// of some bodies under other names, and checks that the copies cost no
// checks, add no probes, and are listed (at most MaxDuplicateSources
// each) and counted in the first one's findings and in the summary.
func TestDuplicatesComparedOnce(t *testing.T) {
	files := Generate(7, 12)
	withDups := slices.Clone(files)
	copies := map[string]int{files[2].Name: MaxDuplicateSources + 6, files[5].Name: 1}
	for i, f := range files {
		for k := 0; k < copies[f.Name]; k++ {
			withDups = append(withDups, File{Name: fmt.Sprintf("copy-%d-%d", i, k), Robots: slices.Clone(f.Robots)})
		}
	}
	run := func(fs []File, noMinimize bool) (*result.Document, int64) {
		var calls atomic.Int64
		mk := func(context.Context) ([]cases.Parser, error) {
			return []cases.Parser{ref(), refGoogle(), &naive{name: "naive", calls: &calls}}, nil
		}
		rep, err := Run(context.Background(), fs, mk, Options{Workers: 2, MaxProbes: 60, NoMinimize: noMinimize})
		if err != nil {
			t.Fatal(err)
		}
		return rep, calls.Load()
	}
	// Without minimising, the checks do not depend on timing.
	_, wantCalls := run(files, true)
	_, gotCalls := run(withDups, true)
	if gotCalls != wantCalls {
		t.Errorf("with duplicates %d checks, without %d", gotCalls, wantCalls)
	}
	want, _ := run(files, false)
	got, _ := run(withDups, false)
	s := got.Summary
	if s.Files != len(files) || s.Responses != len(withDups) || s.Duplicates != len(withDups)-len(files) || s.Probes != want.Summary.Probes {
		t.Errorf("summary: %d files, %d responses, %d duplicates, %d probes; want %d, %d, %d, %d",
			s.Files, s.Responses, s.Duplicates, s.Probes, len(files), len(withDups), len(withDups)-len(files), want.Summary.Probes)
	}
	if len(got.Findings) != len(want.Findings) {
		t.Fatalf("%d findings with duplicates, %d without", len(got.Findings), len(want.Findings))
	}
	checked := 0
	for k, f := range got.Findings {
		w := want.Findings[k]
		n := 0
		for _, src := range w.Sources {
			n += copies[src]
		}
		if f.Duplicates != n {
			t.Errorf("finding %d (from %v): %d duplicates, want %d", k, w.Sources, f.Duplicates, n)
		}
		if n > 0 {
			checked++
			if extra := len(f.Sources) - len(w.Sources); extra != min(n, MaxDuplicateSources) && len(w.Sources) == 1 {
				t.Errorf("finding %d lists %d duplicates, want %d", k, extra, min(n, MaxDuplicateSources))
			}
		}
		f.Sources, f.SourceLines, f.Duplicates = w.Sources, w.SourceLines, 0
		if diff := cmp.Diff(w, f); diff != "" {
			t.Errorf("finding %d differs (-without +with duplicates):\n%s", k, diff)
		}
	}
	if checked == 0 {
		t.Error("no finding of a duplicated body")
	}
}
