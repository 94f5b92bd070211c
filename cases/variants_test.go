package cases_test

import (
	"context"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// TestVariantsFailCorpus runs every misreading a parser can make, as the
// parser reference+ID, over the embedded corpus: each must give another
// verdict than the expected one on at least one check, or the corpus could
// not tell it from the reference (issue 19). Most such checks fail; for a
// few misreadings (slash-added, unicode-spaces-trimmed) the corpus accepts
// their verdict as an interpretation the RFC leaves open (a note), which
// still tells them apart.
func TestVariantsFailCorpus(t *testing.T) {
	cs, err := cases.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	var ps []cases.Parser
	for _, m := range reference.Misreadings() {
		if !m.ForParsers() {
			continue
		}
		p, err := parsers.NewVariant("reference", m.ID)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	rep, err := cases.Run(context.Background(), cs, ps, cases.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]int{}
	example := map[string]string{}
	for _, r := range rep.Results {
		switch {
		case r.Outcome == result.Error:
			t.Errorf("%s: error on %s: %s", r.Parser, r.Case, r.Detail)
		case r.Verdict != "" && r.Verdict != r.Expect:
			failed[r.Parser]++
			example[r.Parser] = r.Case
		}
	}
	for _, p := range ps {
		name := p.Info().Name
		if failed[name] == 0 {
			t.Errorf("%s gives the expected verdict on every check of the corpus: no case tells it from the reference", name)
			continue
		}
		t.Logf("%s departs on %d checks (as in %s)", name, failed[name], example[name])
	}
}
