package report

import (
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// The producers of the document the tests render: package cases builds
// it, package result reads and merges it.
type Meta = result.Meta

var (
	FromResults = cases.NewDocument
	CaseData    = cases.CaseData
	ReadJSON    = result.ReadJSON
)

const storedHead = result.StoredHead

func Merge(docs ...*result.Document) (*result.Document, error) {
	t, err := cases.RequirementTable()
	if err != nil {
		return nil, err
	}
	return result.Merge(t, docs...)
}

// withDiff gives d the summary and run of a differential run, as its
// producer records them: s, or the findings' own summary when s is nil
// (a findings file, reptest report --findings).
func withDiff(d *result.Document, run *result.RunInfo, s *result.DiffSummary) *result.Document {
	if s == nil {
		s = result.SummarizeFindings(d.Findings, run)
	}
	d.Summary, d.Run = s, run
	profile := ""
	if run != nil {
		profile = run.Profile
	}
	if profile == "" && len(d.Findings) > 0 {
		profile = d.Findings[0].Profile
	}
	d.Reference = result.ReferenceOf(s.Parsers, profile)
	return d
}
