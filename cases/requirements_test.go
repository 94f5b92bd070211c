package cases

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// TestCorpusFoldersAreAreas keeps one taxonomy: the embedded corpus has
// a folder per area of the requirement table, named after it, and the
// ids of a folder's cases start with the folder's name.
func TestCorpusFoldersAreAreas(t *testing.T) {
	areas, err := Areas()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(areas))
	for i, a := range areas {
		names[i] = a.Name
	}
	cs, err := LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	folders := map[string]bool{}
	for _, c := range cs {
		file, _, _ := strings.Cut(c.Source, ":")
		folder := path.Base(path.Dir(file))
		folders[folder] = true
		if !slices.Contains(names, folder) {
			t.Errorf("%s: folder %q is not an area of corpus/requirements.yaml (%s)", c.Source, folder, strings.Join(names, ", "))
		}
		if !strings.HasPrefix(c.ID, folder+"/") {
			t.Errorf("%s: case %s is in folder %s; name it %s/...", c.Source, c.ID, folder, folder)
		}
	}
	for _, n := range names {
		if !folders[n] {
			t.Errorf("area %s has no folder of cases in the corpus", n)
		}
	}
}

func TestCoverage(t *testing.T) {
	reqs := []Requirement{{ID: "A-1"}, {ID: "A-2"}}
	cs := []Case{
		{ID: "x", Req: []string{"A-1"}, Checks: make([]Check, 2)},
		{ID: "y", Req: []string{"A-1", "B-9"}, Timeline: []Step{{Checks: make([]Check, 3)}}},
	}
	got := Coverage(reqs, cs)
	if got[0].Cases != 2 || got[0].Checks != 5 || got[1].Cases != 0 || got[1].Checks != 0 || len(got) != 2 {
		t.Errorf("Coverage = %+v; want A-1 in 2 cases and 5 checks, A-2 in none", got)
	}
	if reqs[0].Cases != 0 {
		t.Error("Coverage changed its argument")
	}
}
