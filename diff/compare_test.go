package diff

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

// TestReferenceColumns checks which parsers of a panel the fitter may
// take as the reference itself, by profile: the reference under each
// profile, reference-google under Google's only, never a variant or
// another parser, and the first when two qualify.
func TestReferenceColumns(t *testing.T) {
	ref := func() cases.Parser { return parsers.NewReference() }
	refGoogle := func() cases.Parser { return parsers.NewReferenceWith("reference-google", reference.Google()) }
	variant, err := parsers.NewVariant("reference", "first-match")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		parsers []cases.Parser
		want    map[string]int
	}{
		{"reference", []cases.Parser{parsers.NewTemoto(), ref()}, map[string]int{result.ProfileRFC: 1, result.ProfileGoogle: 1}},
		{"reference-google first", []cases.Parser{refGoogle(), ref()}, map[string]int{result.ProfileRFC: 1, result.ProfileGoogle: 0}},
		{"a variant", []cases.Parser{variant, refGoogle()}, map[string]int{result.ProfileGoogle: 1}},
		{"none", []cases.Parser{parsers.NewTemoto(), variant}, map[string]int{}},
	}
	for _, tt := range tests {
		p, err := newPanel(tt.parsers, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, p.referenceColumns()); diff != "" {
			t.Errorf("%s: reference columns (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestRunReferenceColumnsSameDiagnosis checks that a run whose fitter
// takes the reference's verdicts from its columns diagnoses as a run that
// decides them again (an unoptimised one), on files of both profiles.
func TestRunReferenceColumnsSameDiagnosis(t *testing.T) {
	files := Generate(3, 30)
	for i := range files[:10] {
		files[i].Profile = result.ProfileGoogle
	}
	mk := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{parsers.NewTemoto(), parsers.NewReferenceWith("reference-google", reference.Google()), parsers.NewReference()}, nil
	}
	run := func(unoptimised bool) *result.Document {
		rep, err := Run(context.Background(), files, mk, Options{Workers: 2, MaxProbes: 60, NoMinimize: true, Unoptimised: unoptimised})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	want, got := run(true), run(false)
	if diff := cmp.Diff(want.Diagnosis, got.Diagnosis); diff != "" {
		t.Fatalf("diagnosis with the reference's columns differs (-decided +columns):\n%s", diff)
	}
	if want.Diagnosis[0].Departures == 0 {
		t.Fatal("temoto departs nowhere: nothing was compared")
	}
}

// TestRunUncachedReferenceSameFindings checks that a run that keeps the
// reference's verdicts out of its verdict cache (they are decided again)
// reports as an unoptimised run, minimisation included, beside a parser
// whose verdicts are cached.
func TestRunUncachedReferenceSameFindings(t *testing.T) {
	files := Generate(4, 30)
	mk := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{parsers.NewReference(), parsers.NewReferenceWith("reference-google", reference.Google()), parsers.NewTemoto()}, nil
	}
	run := func(unoptimised bool) *result.Document {
		rep, err := Run(context.Background(), files, mk, Options{Workers: 2, MaxProbes: 60, Unoptimised: unoptimised})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	want, got := run(true), run(false)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("optimised run differs (-plain +optimised):\n%s", diff)
	}
	if len(want.Findings) == 0 || !want.Findings[0].Minimized {
		t.Fatal("no minimised findings: nothing was compared")
	}
}

// TestRunSampledDiagnosisSaysSo checks that a run whose evidence passes
// its bound records, in every diagnosis, how many files the fit left
// out, and that its text line says the fit read a sample.
func TestRunSampledDiagnosisSaysSo(t *testing.T) {
	files := Generate(5, 40)
	mk := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{parsers.NewReference(), parsers.NewTemoto()}, nil
	}
	for _, tt := range []struct {
		bound    int
		leftOut  bool
		wantText bool
	}{{-1, false, false}, {200000, true, true}} {
		doc, err := Run(context.Background(), files, mk, Options{Workers: 2, MaxProbes: 40, NoMinimize: true, EvidenceBytes: tt.bound})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range doc.Diagnosis {
			if (d.Unfitted > 0) != tt.leftOut || d.Unfitted >= len(files) {
				t.Errorf("bound %d: %s left %d of %d files out of the fit; want some: %v", tt.bound, d.Parser, d.Unfitted, len(files), tt.leftOut)
			}
		}
		line := report.DiagnosisLine(doc.Diagnosis[1])
		if got := strings.Contains(line, "fitted on a sample"); got != tt.wantText {
			t.Errorf("bound %d: line %q says a sample: %v, want %v", tt.bound, line, got, tt.wantText)
		}
	}
}
