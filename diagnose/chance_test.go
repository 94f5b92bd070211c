package diagnose

import (
	"math"
	"testing"
)

// TestTail checks the chance rule's arithmetic against sums worked out
// by hand: the exact tail, and Chernoff's bound, which must never be
// below it (the rule would then claim more than it may).
func TestTail(t *testing.T) {
	for _, tt := range []struct {
		name string
		pmfs []pmf
		want int
		p    float64 // P(sum ≥ want)
	}{
		// Three questions drawn from ten of which four depart, all three
		// departing: C(4,3)/C(10,3).
		{"hypergeometric", []pmf{hypergeom(10, 4, 3)}, 3, 4.0 / 120},
		// Two strata, one question each drawn from two of which one
		// departs: a quarter for both.
		{"two strata", []pmf{hypergeom(2, 1, 1), hypergeom(2, 1, 1)}, 2, 0.25},
		// A stratum where every question departs says nothing.
		{"all depart", []pmf{hypergeom(5, 5, 3)}, 3, 1},
		// Five fair coins, four heads or more: 6/32.
		{"coins", []pmf{{0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}}, 4, 6.0 / 32},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := math.Exp(tail(tt.pmfs, tt.want, math.Inf(-1))); math.Abs(got-tt.p) > 1e-9 {
				t.Errorf("tail = %g, want %g", got, tt.p)
			}
			if got := math.Exp(chernoff(tt.pmfs, tt.want)); got < tt.p-1e-9 {
				t.Errorf("Chernoff's bound %g is below the tail %g", got, tt.p)
			}
		})
	}
}
