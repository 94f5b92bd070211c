package cases_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/result"
)

// TestRunParallelSameResults runs the embedded corpus on the reference
// case by case and in parallel: the reports must be equal.
func TestRunParallelSameResults(t *testing.T) {
	cs, err := cases.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	run := func(workers int) cases.Report {
		rep, err := cases.Run(context.Background(), cs, []cases.Parser{parsers.NewReference()},
			cases.RunOptions{Workers: workers, Explain: parsers.NewReference()})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	one, many := run(1), run(0)
	if diff := cmp.Diff(one, many); diff != "" {
		t.Fatalf("sequential and parallel runs differ (-1 +parallel):\n%s", diff)
	}
	if len(one.Results) == 0 {
		t.Fatal("no results")
	}
}

// exclusive is a parser that is not Concurrent and fails the test when it
// is called from two goroutines at once.
type exclusive struct {
	t     *testing.T
	inUse atomic.Int32
}

func (e *exclusive) Info() result.Info {
	return result.Info{Name: "exclusive", Capabilities: []result.Capability{result.CapParse}}
}

func (e *exclusive) Check(context.Context, cases.Request) (result.Verdict, error) {
	if e.inUse.Add(1) != 1 {
		e.t.Error("called concurrently")
	}
	defer e.inUse.Add(-1)
	return result.Allow, nil
}

// TestRunNotConcurrent checks that a parser that is not Concurrent is
// never asked from two goroutines at once, whatever Workers says.
func TestRunNotConcurrent(t *testing.T) {
	cs, err := cases.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	p := &exclusive{t: t}
	if _, err := cases.Run(context.Background(), cs[:200], []cases.Parser{parsers.NewReference(), p}, cases.RunOptions{Workers: 8}); err != nil {
		t.Fatal(err)
	}
}
