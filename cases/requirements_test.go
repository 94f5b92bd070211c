package cases

import (
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/reptest/reptest/result"
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
	reqs := []result.Requirement{{ID: "A-1"}, {ID: "A-2"}}
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

// keywordStrength maps each BCP 14 keyword to the level it carries. The
// keywords are single words once split ("MUST NOT" carries MUST, "NOT
// RECOMMENDED" SHOULD), so words are compared one by one.
var keywordStrength = []struct {
	word  string
	level result.Level
}{
	{"MUST", result.MUST}, {"REQUIRED", result.MUST}, {"SHALL", result.MUST},
	{"SHOULD", result.SHOULD}, {"RECOMMENDED", result.SHOULD},
	{"MAY", result.MAY}, {"OPTIONAL", result.MAY},
}

// strongestKeyword returns the strongest level a quote's capitalised
// BCP 14 keywords carry, and false when it has none.
func strongestKeyword(quote string) (result.Level, bool) {
	best, found := result.Interpretation, false
	for _, w := range strings.FieldsFunc(quote, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		for _, k := range keywordStrength {
			if w == k.word && (!found || k.level.Rank() < best.Rank()) {
				best, found = k.level, true
			}
		}
	}
	return best, found
}

// TestLevelsQuoteTheirKeyword checks that every MUST, SHOULD and MAY row
// of the requirement table quotes the RFC sentence its level rests on,
// with a keyword at least as strong as the level; and that rows without
// such a level quote nothing.
func TestLevelsQuoteTheirKeyword(t *testing.T) {
	reqs, err := Requirements()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		lv := result.Level(r.Level)
		switch lv {
		case result.MUST, result.SHOULD, result.MAY:
			got, ok := strongestKeyword(r.Quote)
			switch {
			case r.Quote == "":
				t.Errorf("%s is levelled %s but quotes no RFC sentence", r.ID, lv)
			case !ok:
				t.Errorf("%s is levelled %s, but its quote has no BCP 14 keyword: %q", r.ID, lv, r.Quote)
			case got.Rank() > lv.Rank():
				t.Errorf("%s is levelled %s, but its quote carries only %s: %q", r.ID, lv, got, r.Quote)
			}
		default:
			if r.Quote != "" {
				t.Errorf("%s is levelled %s and quotes %q: a quote backs MUST, SHOULD or MAY only", r.ID, lv, r.Quote)
			}
		}
	}
	for _, tt := range []struct {
		quote string
		want  result.Level
		ok    bool
	}{
		{"The /robots.txt URI is implicitly allowed.", result.Interpretation, false},
		{"The last group may have no rules", result.Interpretation, false},
		{"Crawlers SHOULD NOT use the cached version", result.SHOULD, true},
		{"a Sitemaps record MUST NOT terminate a group", result.MUST, true},
		{"Crawlers MAY cache; crawlers SHOULD impose a limit", result.SHOULD, true},
	} {
		if got, ok := strongestKeyword(tt.quote); got != tt.want || ok != tt.ok {
			t.Errorf("strongestKeyword(%q) = %s, %v; want %s, %v", tt.quote, got, ok, tt.want, tt.ok)
		}
	}
}
