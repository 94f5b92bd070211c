package result

import "testing"

func TestOutcomeFails(t *testing.T) {
	for _, tc := range []struct {
		o              Outcome
		lenient, strct bool
	}{
		{Pass, false, false}, {Note, false, false}, {Skipped, false, false},
		{Deviation, false, true}, {Violation, true, true}, {Error, true, true},
	} {
		if got := tc.o.Fails(false); got != tc.lenient {
			t.Errorf("%s.Fails(false) = %v", tc.o, got)
		}
		if got := tc.o.Fails(true); got != tc.strct {
			t.Errorf("%s.Fails(true) = %v", tc.o, got)
		}
		// Judge agrees with Fails for a summary of that one outcome.
		for _, strict := range []bool{false, true} {
			var s Summary
			s.Add(tc.o)
			s.Judge(strict)
			if s.Conforms == tc.o.Fails(strict) {
				t.Errorf("one %s, strict %v: Conforms = %v", tc.o, strict, s.Conforms)
			}
		}
	}
}
