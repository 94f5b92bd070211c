package report

import (
	"github.com/reptest/reptest/diff"
)

// The differential findings a report shows are diff's: diff.Finding is
// the one finding type, diff.GroupFindings the one grouping (signature and
// primary requirement) and diff.Signature the one signature format, so
// that a run is grouped alike on the terminal, in the JSON summary and on
// the page.

// findingGroups groups the document's findings as diff does.
func findingGroups(fs []diff.Finding) []diff.Group { return diff.GroupFindings(fs) }
