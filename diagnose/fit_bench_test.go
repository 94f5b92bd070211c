package diagnose_test

import (
	"context"
	"encoding/gob"
	"os"
	"testing"

	. "github.com/reptest/reptest/diagnose"
)

// BenchmarkFitEvidence fits the evidence gob-encoded in the file
// $REPTEST_FIT_EVIDENCE (an Evidence, as a diff run gathers it), so that
// the fitter can be measured on a real run's verdicts apart from the run.
func BenchmarkFitEvidence(b *testing.B) {
	path := os.Getenv("REPTEST_FIT_EVIDENCE")
	if path == "" {
		b.Skip("REPTEST_FIT_EVIDENCE names no gob-encoded diagnose.Evidence")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var ev Evidence
	if err := gob.NewDecoder(f).Decode(&ev); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(ev.Questions)), "questions")
	for b.Loop() {
		if _, err := Fit(context.Background(), &ev); err != nil {
			b.Fatal(err)
		}
	}
}
