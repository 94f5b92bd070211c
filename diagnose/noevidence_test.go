package diagnose_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

// A parser or crawler that gave no verdict (it never ran: every check
// errored) is not diagnosed, and is never said to match the reference;
// one that answered and agreed does match. Merged with a shard that has
// evidence, the empty shard adds nothing.
func TestNoEvidenceIsNotAMatch(t *testing.T) {
	ev := &diagnose.Evidence{Parsers: []string{"broken", "agrees"},
		Bodies: []diagnose.Body{{Robots: []byte("User-agent: *\nDisallow: /p\n"), Status: 200, Source: "f"}}}
	for _, u := range []string{"/p", "/q"} {
		ev.Questions = append(ev.Questions, diagnose.Question{Body: 0, Agent: "FooBot",
			URL: "https://example.com" + u, Verdicts: []result.Verdict{"", result.Allow}})
	}
	ev.Questions[0].Verdicts[1] = result.Disallow
	ds, err := diagnose.Fit(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range ds {
		lines = append(lines, report.DiagnosisLine(d))
	}
	want := []string{
		"broken is not diagnosed (it gave no verdict to compare with the reference's)",
		"agrees matches the reference (no departures)",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	merged := diagnose.Merge(ds[:1], ds[1:2])
	if !merged[0].NoEvidence || merged[1].NoEvidence {
		t.Errorf("merged NoEvidence = %v, %v; want true, false", merged[0].NoEvidence, merged[1].NoEvidence)
	}
	renamed := ds[1]
	renamed.Parser = "broken"
	merged = diagnose.Merge(ds[:1], []result.Diagnosis{renamed})
	if got := report.DiagnosisLine(merged[0]); merged[0].NoEvidence || !strings.Contains(got, "matches the reference") {
		t.Errorf("a shard without evidence merged with one that has it: %q (NoEvidence %v)", got, merged[0].NoEvidence)
	}
}
