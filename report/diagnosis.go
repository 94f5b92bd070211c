package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/reptest/reptest/result"
)

// DiagnosisLine says a diagnosis (package diagnose's fit) in one line:
// "python-urllib ≈ reference + first-match (explains 14,210 of 14,601
// departures; 391 unexplained)", or that the parser matches the
// reference.
func DiagnosisLine(d result.Diagnosis) string {
	if d.NoEvidence {
		return d.Parser + " is not diagnosed (it gave no verdict to compare with the reference's)"
	}
	if d.Departures == 0 {
		return d.Parser + " matches the reference (no departures)"
	}
	var b strings.Builder
	b.WriteString(d.Parser + " ≈ reference")
	for _, x := range d.Behaviours {
		b.WriteString(" + " + x.ID)
		if len(x.Alternatives) > 0 {
			b.WriteString(" (or " + strings.Join(x.Alternatives, " or ") + ")")
		}
	}
	fmt.Fprintf(&b, " (explains %s of %s departures; %s unexplained",
		thousands(d.Explained()), thousands(d.Departures), thousands(d.Unexplained))
	if d.Unfitted > 0 {
		fmt.Fprintf(&b, "; fitted on a sample: %s files left out", thousands(d.Unfitted))
	}
	b.WriteString(")")
	return b.String()
}

// writeDiagnosis writes one DiagnosisLine per diagnosis under a heading,
// for the terminal text of run, crawl and diff.
func writeDiagnosis(w io.Writer, ds []result.Diagnosis) error {
	if len(ds) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Diagnosis (misreadings of the reference that explain each one's departures):\n")
	for _, d := range ds {
		b.WriteString("  " + DiagnosisLine(d) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
