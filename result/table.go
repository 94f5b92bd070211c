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

// AreaIndex finds the area of a requirement ID and the place of an area
// in one requirement table, each by one map look-up. Build it once with
// Table.Index; the zero value knows no area.
type AreaIndex struct {
	areas      int
	rank       map[string]int    // area name → its place in the table
	prefixArea map[string]string // ID prefix ("MATCH") → area name
}

// Index returns the index of t's areas.
func (t Table) Index() *AreaIndex {
	ix := &AreaIndex{areas: len(t.Areas), rank: make(map[string]int), prefixArea: make(map[string]string)}
	for i, a := range t.Areas {
		if _, ok := ix.rank[a.Name]; !ok {
			ix.rank[a.Name] = i
		}
	}
	for _, r := range t.Requirements {
		ix.prefixArea[IDPrefix(r.ID)] = r.Area
	}
	return ix
}

// AreaOf returns the area of a requirement ID, by its prefix (IDPrefix):
// the table puts the IDs of one prefix in one area, so an ID from another
// version of the table still finds its area. It returns "" for a prefix
// the table lacks.
func (ix *AreaIndex) AreaOf(id string) string { return ix.prefixArea[IDPrefix(id)] }

// Rank returns the place of an area in the table, counting from 0; an
// area the table does not list comes after all of them (Table.AreaRank).
func (ix *AreaIndex) Rank(name string) int {
	if i, ok := ix.rank[name]; ok {
		return i
	}
	return ix.areas
}
