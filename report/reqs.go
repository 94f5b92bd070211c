package report

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Area is a requirement area: the IDs that share a prefix ("MATCH").
type Area struct {
	Prefix  string
	Title   string
	Section string // RFC 9309 section; empty for the google profile
}

// areas lists the requirement areas of REQUIREMENTS.md in the RFC's order.
var areas = []Area{
	{"SYN", "Syntax and groups", "2.2"},
	{"UA", "User-agent", "2.2.1"},
	{"MATCH", "Matching", "2.2.2"},
	{"SPC", "Special characters", "2.2.3"},
	{"PCT", "Percent-encoding", "2.2.2"},
	{"PAT", "Patterns", "2.2.2"},
	{"OTH", "Other records", "2.2.4"},
	{"ACC", "Access method", "2.3"},
	{"CACHE", "Caching", "2.4"},
	{"LIM", "Limits", "2.5"},
	{"EX", "RFC examples", "5"},
	{"G", "Google profile", ""},
	{"AIP", "AI preferences", ""},
}

// Areas returns the requirement areas in the RFC's order.
func Areas() []Area { return slices.Clone(areas) }

// sectionOverride gives the section of requirements that sit outside
// their area's section.
var sectionOverride = map[string]string{
	"SYN-6":  "2.1",
	"SYN-7":  "2.1",
	"SYN-8":  "2.1",
	"SYN-9":  "2.3.1.5",
	"ACC-2":  "2.3.1.1",
	"ACC-3":  "2.3.1.2",
	"ACC-4":  "2.3.1.2",
	"ACC-5":  "2.3.1.2",
	"ACC-6":  "2.3.1.3",
	"ACC-7":  "2.3.1.4",
	"ACC-8":  "2.3.1.4",
	"EX-5.1": "5.1",
	"EX-5.2": "5.2",
}

// AreaOf returns the area prefix of a requirement ID: the part before the
// first "-" ("MATCH-4" → "MATCH").
func AreaOf(id string) string {
	if i := strings.IndexByte(id, '-'); i > 0 {
		return id[:i]
	}
	return id
}

// SectionOf returns the RFC 9309 section of a requirement, or "" when it
// has none (the google profile, unknown IDs).
func SectionOf(id string) string {
	if s, ok := sectionOverride[id]; ok {
		return s
	}
	a := AreaOf(id)
	for _, ar := range areas {
		if ar.Prefix == a {
			return ar.Section
		}
	}
	return ""
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

// requirementURL links a requirement to its RFC section (the given one
// when it is a section number, else SectionOf's), or to Google's
// documentation for G-* requirements.
func requirementURL(id, section string) string {
	if u := SectionURL(section); u != "" {
		return u
	}
	if u := SectionURL(SectionOf(id)); u != "" {
		return u
	}
	if AreaOf(id) == "G" {
		return googleDoc
	}
	return ""
}

// areaRank orders area prefixes as Areas lists them, unknown ones last.
func areaRank(prefix string) int {
	for i, a := range areas {
		if a.Prefix == prefix {
			return i
		}
	}
	return len(areas)
}

// compareReq orders requirement IDs by area, then by number ("UA-2" before
// "UA-10"), then as text.
func compareReq(a, b string) int {
	pa, pb := AreaOf(a), AreaOf(b)
	if ra, rb := areaRank(pa), areaRank(pb); ra != rb {
		return ra - rb
	}
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

// areasOf returns the distinct areas of a result's requirements, in order.
func areasOf(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		a := AreaOf(r)
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return areaRank(a) - areaRank(b) })
	return out
}

// areaTitle returns an area's title, or its prefix when unknown.
func areaTitle(prefix string) string {
	for _, a := range areas {
		if a.Prefix == prefix {
			return a.Title
		}
	}
	return prefix
}
