package diff_test

import (
	"context"
	"os"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/diff/parsers"
)

// TestRealworldProfile runs the realworld comparison when
// REPTEST_REALWORLD names the directory; it is for profiling.
func TestRealworldProfile(t *testing.T) {
	dir := os.Getenv("REPTEST_REALWORLD")
	if dir == "" {
		t.Skip("REPTEST_REALWORLD is not set")
	}
	files, err := diff.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	factory := func(ctx context.Context) ([]cases.Parser, error) {
		return []cases.Parser{parsers.NewReference(), parsers.NewGrobotstxt(), parsers.NewTemoto()}, nil
	}
	rep, err := diff.Run(context.Background(), files, factory, diff.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	diff.WriteText(os.Stdout, &rep.Summary, 0)
}
