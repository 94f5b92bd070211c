package diff

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// stopper is naive, which stops the run (as a signal would) when it is
// asked about a body that at holds, and then fails that question (fail)
// or answers it.
type stopper struct {
	naive
	at   func(body string) bool
	fail bool
	run  context.CancelCauseFunc
}

// errStopped is the cause a stopper gives.
var errStopped = errors.New("stopped by the test")

func (s *stopper) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	if s.at(string(req.Robots)) {
		s.run(errStopped)
		if s.fail {
			return "", errStopped
		}
	}
	return s.naive.Check(ctx, req)
}

// A run stopped part of the way reports the files compared by then, as
// an uninterrupted run of those files alone would, with the reason it
// stopped and no diagnosis; the file being compared is left out.
func TestRunInterrupted(t *testing.T) {
	files := Generate(11, 24)
	// Run compares the largest files first: one worker has compared
	// those before the stopping file, and nothing after it.
	order := slices.Clone(files)
	slices.SortStableFunc(order, func(a, b File) int { return cmp.Compare(len(b.Robots), len(a.Robots)) })
	const at = 9
	for _, noMin := range []bool{true, false} {
		ctx, cancel := context.WithCancelCause(context.Background())
		mk := func(context.Context) ([]cases.Parser, error) {
			return []cases.Parser{ref(), &stopper{naive: naive{name: "naive"}, at: func(b string) bool { return b == string(order[at].Robots) }, fail: true, run: cancel}}, nil
		}
		got, err := Run(ctx, files, mk, Options{Workers: 1, MaxProbes: 60, NoMinimize: noMin})
		if err != nil {
			t.Fatalf("no-minimize %v: %v", noMin, err)
		}
		if !got.Interrupted || got.InterruptReason != errStopped.Error() || got.Diagnosis != nil {
			t.Errorf("no-minimize %v: interrupted %v (%q), diagnosis %v; want interrupted by the test, no diagnosis",
				noMin, got.Interrupted, got.InterruptReason, got.Diagnosis)
		}
		var compared []File
		for _, f := range files {
			if slices.ContainsFunc(order[:at], func(g File) bool { return g.Name == f.Name }) {
				compared = append(compared, f)
			}
		}
		naiveOf := func(context.Context) ([]cases.Parser, error) {
			return []cases.Parser{ref(), &naive{name: "naive"}}, nil
		}
		want, err := Run(context.Background(), compared, naiveOf, Options{Workers: 1, MaxProbes: 60, NoMinimize: true})
		if err != nil {
			t.Fatal(err)
		}
		if got.Summary.Files != at || len(got.Findings) == 0 {
			t.Fatalf("no-minimize %v: %d files, %d findings; want %d files and findings", noMin, got.Summary.Files, len(got.Findings), at)
		}
		for _, f := range got.Findings {
			if f.Minimized || f.Signature != Signature(f.Verdicts) || f.Verdicts["naive"] == VerdictError {
				t.Errorf("no-minimize %v: finding %s of %v (minimised %v); want one as found", noMin, f.Signature, f.Sources, f.Minimized)
			}
		}
		if noMin {
			want.Interrupted, want.InterruptReason = true, errStopped.Error()
			want.Diagnosis = nil
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("the interrupted run differs from a run of the files it compared (-whole +interrupted):\n%s", diff)
			}
		}
	}
}

// A run stopped while it minimises (asked about a body none of its files
// has) reports every file, each class's
// finding as found where its minimisation was cut.
func TestRunInterruptedMinimising(t *testing.T) {
	files := Generate(11, 24)
	bodies := map[string]bool{}
	for _, f := range files {
		bodies[string(f.Robots)] = true
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	mk := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), &stopper{naive: naive{name: "naive"}, at: func(b string) bool { return !bodies[b] }, run: cancel}}, nil
	}
	got, err := Run(ctx, files, mk, Options{Workers: 2, MaxProbes: 60})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Interrupted || got.Summary.Files != len(files) || len(got.Findings) == 0 {
		t.Fatalf("interrupted %v, %d files, %d findings; want interrupted, %d files and findings", got.Interrupted, got.Summary.Files, len(got.Findings), len(files))
	}
	for _, f := range got.Findings {
		if !bodies[string(f.Input.Robots)] || f.Minimized || f.Signature != Signature(f.Verdicts) || f.Verdicts["naive"] == VerdictError {
			t.Errorf("finding %s of %v (minimised %v, %d bytes, in a file %v); want one as found in a file",
				f.Signature, f.Sources, f.Minimized, len(f.Input.Robots), bodies[string(f.Input.Robots)])
		}
	}
}

// A run stopped while it fits the diagnosis reports every file, without
// a diagnosis.
func TestRunInterruptedFitting(t *testing.T) {
	files := Generate(11, 24)
	ctx, cancel := context.WithCancelCause(context.Background())
	mk := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), &naive{name: "naive"}}, nil
	}
	stage := func(s string) {
		if s == "fitting the diagnosis" {
			cancel(errStopped)
		}
	}
	got, err := Run(ctx, files, mk, Options{Workers: 2, MaxProbes: 60, Stage: stage})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Interrupted || got.InterruptReason != errStopped.Error() || got.Diagnosis != nil || got.Summary.Files != len(files) || len(got.Findings) == 0 {
		t.Errorf("interrupted %v (%q), diagnosis %v, %d files, %d findings; want interrupted by the test, no diagnosis, %d files and findings",
			got.Interrupted, got.InterruptReason, got.Diagnosis, got.Summary.Files, len(got.Findings), len(files))
	}
}
