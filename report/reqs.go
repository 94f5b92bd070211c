package report

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/reptest/reptest/cases"
)

// reqTable is the embedded requirement table (corpus/requirements.yaml),
// the one source of areas and sections, indexed for rendering.
type reqTable struct {
	areas []cases.Area
	byID  map[string]cases.Requirement // requirement ID → row
}

// table reads the embedded table once. A malformed table is caught by
// the cases package's tests and by every load; here it only leaves the
// lookups empty (unknown areas, no sections).
var table = sync.OnceValue(func() reqTable {
	t := reqTable{byID: map[string]cases.Requirement{}}
	t.areas, _ = cases.Areas()
	reqs, _ := cases.Requirements()
	for _, r := range reqs {
		t.byID[r.ID] = r
	}
	return t
})

// area returns the area of the given name; a zero Area with Name name
// and Title "other" when the table has none.
func area(name string) cases.Area {
	t := table()
	if i := cases.AreaRank(name); i < len(t.areas) {
		return t.areas[i]
	}
	if name == "" {
		return cases.Area{Title: "other"}
	}
	return cases.Area{Name: name, Title: name}
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
func requirementURL(id string) string {
	r := table().byID[id]
	if r.Level == cases.LevelGoogle {
		return googleDoc
	}
	return SectionURL(r.Section)
}

// compareReq orders requirement IDs by area, then by prefix, then by
// number ("UA-2" before "UA-10"), then as text.
func compareReq(a, b string) int {
	if ra, rb := cases.AreaRank(cases.AreaOf(a)), cases.AreaRank(cases.AreaOf(b)); ra != rb {
		return ra - rb
	}
	pa, pb := cases.IDPrefix(a), cases.IDPrefix(b)
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
func areasOf(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if a := cases.AreaOf(r); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cases.AreaRank(a) - cases.AreaRank(b) })
	return out
}
