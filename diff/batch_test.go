package diff_test

import (
	"context"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/parsers"
)

// TestBatchersAnswerAsCheck checks that the in-process parsers that
// implement cases.Batcher answer a batch as they answer each question
// alone, on generated files and their derived probes.
func TestBatchersAnswerAsCheck(t *testing.T) {
	ctx := context.Background()
	for _, p := range []cases.Parser{parsers.NewReference(), parsers.NewTemoto()} {
		bt, ok := p.(cases.Batcher)
		if !ok {
			t.Fatalf("%s is not a Batcher", p.Info().Name)
		}
		for _, f := range diff.Generate(3, 60) {
			probes := diff.DeriveProbes(f.Robots, 80)
			qs := make([]cases.Question, len(probes))
			for k, pr := range probes {
				qs[k] = cases.Question{Agent: pr.Agent, URL: pr.URL}
			}
			req := cases.Request{Case: "batch", Robots: f.Robots}
			vs, errs := bt.CheckBatch(ctx, req, qs)
			if len(vs) != len(qs) || len(errs) != len(qs) {
				t.Fatalf("%s: %d verdicts and %d errors for %d questions", p.Info().Name, len(vs), len(errs), len(qs))
			}
			for k, q := range qs {
				r := req
				r.Agent, r.URL = q.Agent, q.URL
				v, err := p.Check(ctx, r)
				if v != vs[k] || (err == nil) != (errs[k] == nil) {
					t.Errorf("%s on %s, %+v: batch %q, %v; check %q, %v", p.Info().Name, f.Name, q, vs[k], errs[k], v, err)
				}
			}
		}
	}
}
