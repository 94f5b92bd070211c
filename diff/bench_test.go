package diff

import (
	"context"
	"testing"

	"github.com/reptest/reptest/cases"
)

// BenchmarkRun compares three in-process parsers on 30 generated files,
// minimisation included: the engine's own cost, with a cheap stand-in for
// the external peers (naive).
func BenchmarkRun(b *testing.B) {
	files := Generate(5, 30)
	factory := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), refGoogle(), &naive{name: "naive"}}, nil
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), files, factory, Options{Workers: 1, MaxProbes: 100}); err != nil {
			b.Fatal(err)
		}
	}
}
