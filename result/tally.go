package result

// Tally sums the results of one parser under one heading (an area, a
// requirement): how many ran, how many of those passed (pass or note),
// how many were skipped, and the worst outcome among them.
type Tally struct {
	Pass, Total, Skipped int
	Worst                Outcome
}

// Severity ranks outcomes from the best (skipped, 0) to the worst (error),
// for a cell that stands for several results.
func (o Outcome) Severity() int {
	switch o {
	case Error:
		return 5
	case Violation:
		return 4
	case Deviation:
		return 3
	case Note:
		return 2
	case Pass:
		return 1
	}
	return 0
}

// TallyKey is a heading and a parser.
type TallyKey struct{ Heading, Parser string }

// Tally counts every result under each heading headings gives it (its
// areas, say, or its requirements), per parser.
func (d *Document) Tally(headings func(Result) []string) map[TallyKey]*Tally {
	out := map[TallyKey]*Tally{}
	for _, r := range d.Results {
		for _, h := range headings(r) {
			k := TallyKey{h, r.Parser}
			t := out[k]
			if t == nil {
				t = &Tally{}
				out[k] = t
			}
			if r.Outcome == Skipped {
				t.Skipped++
			} else {
				t.Total++
				if r.Outcome == Pass || r.Outcome == Note {
					t.Pass++
				}
			}
			if t.Worst == "" || r.Outcome.Severity() > t.Worst.Severity() {
				t.Worst = r.Outcome
			}
		}
	}
	return out
}
