package result

import (
	"strconv"
	"strings"
)

// AreaRank returns the position of the area name in the table, or the
// number of areas for a name the table does not list.
func (t Table) AreaRank(name string) int {
	for i, a := range t.Areas {
		if a.Name == name {
			return i
		}
	}
	return len(t.Areas)
}

// compareReq orders requirement rows by area, then by ID prefix, then
// by number ("UA-2" before "UA-10"), then as text.
func (t Table) compareReq(a, b Requirement) int {
	if ra, rb := t.AreaRank(a.Area), t.AreaRank(b.Area); ra != rb {
		return ra - rb
	}
	pa, pb := IDPrefix(a.ID), IDPrefix(b.ID)
	if pa != pb {
		return strings.Compare(pa, pb)
	}
	ia, ea := strconv.Atoi(strings.TrimPrefix(a.ID, pa+"-"))
	ib, eb := strconv.Atoi(strings.TrimPrefix(b.ID, pb+"-"))
	if ea == nil && eb == nil && ia != ib {
		return ia - ib
	}
	return strings.Compare(a.ID, b.ID)
}

// IDPrefix returns the part of a requirement ID before its first '-'
// ("MATCH" of "MATCH-4"): the table puts the IDs of one prefix in one
// area.
func IDPrefix(id string) string {
	p, _, _ := strings.Cut(id, "-")
	return p
}
