package report

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/reptest/reptest/result"
)

// reqTable is the requirement table a document is rendered with, the one
// source of levels, areas and sections, indexed for rendering.
type reqTable struct {
	areas []result.Area
	index *result.AreaIndex             // areas by name and by ID prefix
	byID  map[string]result.Requirement // requirement ID → row
}

// tableOf returns the table d is rendered with: its own requirement rows
// ("requirements") and areas ("areas"), each from fallback when d carries
// none (HTMLOptions.Table).
func tableOf(d *result.Document, fallback result.Table) *reqTable {
	t := result.Table{Areas: d.Areas, Requirements: d.Requirements}
	if len(t.Areas) == 0 {
		t.Areas = fallback.Areas
	}
	if len(t.Requirements) == 0 {
		t.Requirements = fallback.Requirements
	}
	rt := &reqTable{areas: t.Areas, index: t.Index(), byID: map[string]result.Requirement{}}
	for _, r := range t.Requirements {
		rt.byID[r.ID] = r
	}
	return rt
}

// areaOf returns the area of a requirement ID, by its prefix; "" for a
// prefix the table lacks (result.AreaIndex.AreaOf).
func (t *reqTable) areaOf(id string) string { return t.index.AreaOf(id) }

// areaRank returns the place of an area in the table; an area the table
// does not list comes after all of them.
func (t *reqTable) areaRank(name string) int { return t.index.Rank(name) }

// area returns the area of the given name; a zero Area with Name name
// and Title "other" when the table has none.
func (t *reqTable) area(name string) result.Area {
	if i := t.areaRank(name); i < len(t.areas) {
		return t.areas[i]
	}
	if name == "" {
		return result.Area{Title: "other"}
	}
	return result.Area{Name: name, Title: name}
}

var sectionRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`)

// SectionURL returns the link to an RFC 9309 section, or "" when section
// is not a section number.
func SectionURL(section string) string {
	if !sectionRE.MatchString(section) {
		return ""
	}
	return "https://www.rfc-editor.org/rfc/rfc9309#section-" + section
}

// googleDoc documents the google profile's requirements.
const googleDoc = "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt"

// requirementURL links a requirement to its RFC section as the table
// gives it, or to Google's documentation for the google area's rows.
func (t *reqTable) requirementURL(id string) string {
	r := t.byID[id]
	if r.Level == result.LevelGoogle {
		return googleDoc
	}
	return SectionURL(r.Section)
}

// compareReq orders requirement IDs by area, then by prefix, then by
// number ("UA-2" before "UA-10"), then as text.
func (t *reqTable) compareReq(a, b string) int {
	if ra, rb := t.areaRank(t.areaOf(a)), t.areaRank(t.areaOf(b)); ra != rb {
		return ra - rb
	}
	pa, pb := result.IDPrefix(a), result.IDPrefix(b)
	if pa != pb {
		return strings.Compare(pa, pb)
	}
	na, ea := strconv.Atoi(strings.TrimPrefix(a, pa+"-"))
	nb, eb := strconv.Atoi(strings.TrimPrefix(b, pb+"-"))
	if ea == nil && eb == nil && na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

// areasOf returns the distinct areas of a result's requirements, in the
// table's order.
func (t *reqTable) areasOf(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if a := t.areaOf(r); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return t.areaRank(a) - t.areaRank(b) })
	return out
}
