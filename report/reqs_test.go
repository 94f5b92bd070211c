package report

import (
	"html"
	"slices"
	"strings"
	"testing"
)

// A document that carries its own requirement table is rendered with it,
// not with reptest's: its levels, summaries, sections and area titles.
func TestOwnTable(t *testing.T) {
	d := fixtureDoc()
	b := builtin()
	d.Areas = slices.Clone(b.Areas)
	d.Requirements = slices.Clone(b.Requirements)
	for i := range d.Areas {
		if d.Areas[i].Name == "user-agent" {
			d.Areas[i].Title = "Groups of the document's own table"
		}
	}
	for i := range d.Requirements {
		if d.Requirements[i].ID == "UA-3" {
			d.Requirements[i].Section, d.Requirements[i].Summary, d.Requirements[i].Level = "9.9", "the document's own UA-3", "MAY"
			d.Requirements[i].Cases = 1
		}
	}
	page := html.UnescapeString(renderHTML(t, d, HTMLOptions{}))
	for _, want := range []string{"Groups of the document's own table", "the document's own UA-3", SectionURL("9.9")} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q, which the document's table says", want)
		}
	}
	for _, r := range b.Requirements {
		if r.ID == "UA-3" && strings.Contains(page, r.Summary) {
			t.Errorf("the page shows reptest's own summary of UA-3 %q", r.Summary)
		}
	}
	// Without a table of its own, the document is rendered with reptest's.
	plain := fixtureDoc()
	plain.Areas, plain.Requirements = nil, nil
	if tb := tableOf(plain, b); tb.requirementURL("UA-3") == SectionURL("9.9") || tb.area("user-agent").Title == "Groups of the document's own table" {
		t.Error("a document without a table is rendered with another's")
	}
}
