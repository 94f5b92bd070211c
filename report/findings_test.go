package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/result"
)

func TestSegments(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  []seg
		more  int
	}{
		{"plain", 0, []seg{{Text: "plain"}}, 0},
		{"a\u202Eb", 0, []seg{{Text: "a"}, {Text: `\u202e`, Escaped: true}, {Text: "b"}}, 0},
		{"\t\xff\x00", 0, []seg{{Text: `\t`, Escaped: true}, {Text: `\xff`, Escaped: true}, {Text: `\x00`, Escaped: true}}, 0},
		{"\U000E0041", 0, []seg{{Text: `\U000e0041`, Escaped: true}}, 0},
		{"héllo", 2, []seg{{Text: "h"}}, 5}, // never cuts a character in two
		{"ツ", 0, []seg{{Text: "ツ"}}, 0},
	}
	for _, tc := range tests {
		got, more := segments(tc.in, tc.limit)
		if diff := cmp.Diff(tc.want, got); diff != "" || more != tc.more {
			t.Errorf("segments(%q, %d): more %d (want %d), segs (-want +got):\n%s", tc.in, tc.limit, more, tc.more, diff)
		}
	}
	if got := visible("a\nb\x1b", 0); got != `a\nb\x1b` {
		t.Errorf("visible = %q", got)
	}
	if got := visible(strings.Repeat("x", 10), 4); got != "xxxx… (6 more bytes)" {
		t.Errorf("visible cut = %q", got)
	}
}

func TestRequirementSections(t *testing.T) {
	for id, want := range map[string]string{
		"UA-3": "https://www.rfc-editor.org/rfc/rfc9309#section-2.2.1", "ACC-7": "https://www.rfc-editor.org/rfc/rfc9309#section-2.3.1.4",
		"EX-5.2": "https://www.rfc-editor.org/rfc/rfc9309#section-5.2", "G-429": googleDoc, "XYZ-1": "",
	} {
		if got := builtinTable().requirementURL(id); got != want {
			t.Errorf("builtinTable().requirementURL(%s) = %q, want %q", id, got, want)
		}
	}
	// SYN-7 and SYN-8 linked to §2.1 through report's own section table
	// and to §2.2 in corpus/requirements.yaml; the table is now the one
	// source, and says §2.1, where RFC 9309 defines a group (and that the
	// last group may have no rules).
	for _, id := range []string{"SYN-6", "SYN-7", "SYN-8"} {
		if got, want := builtinTable().requirementURL(id), SectionURL("2.1"); got != want {
			t.Errorf("builtinTable().requirementURL(%s) = %q, want %q", id, got, want)
		}
	}
	ids := []string{"UA-10", "G-UA", "SYN-2", "UA-2", "EX-5.1", "MATCH-1", "ZZZ"}
	want := []string{"SYN-2", "UA-2", "UA-10", "MATCH-1", "EX-5.1", "G-UA", "ZZZ"}
	sorted := append([]string(nil), ids...)
	slices.SortFunc(sorted, builtinTable().compareReq)
	if diff := cmp.Diff(want, sorted); diff != "" {
		t.Errorf("requirement order (-want +got):\n%s", diff)
	}
}

func TestAreaRows(t *testing.T) {
	fk := filterKeys{table: builtinTable()}
	for _, a := range fk.table.areas {
		fk.areas.key(a.Name)
	}
	syntax, matching := builtinTable().area("syntax"), builtinTable().area("matching")
	tests := []struct {
		name string
		in   []result.AreaStat
		want []areaRow
	}{
		{"none", nil, nil},
		{"table order, shares of the area's own probes",
			[]result.AreaStat{
				{Area: "matching", Probes: 200, Agreed: 150, Apart: map[string]int{"temoto": 40, "grobotstxt": 10, "protego": 10, "reference": 0, "webrobots": 5}},
				{Area: "syntax", Probes: 8, Agreed: 8},
			},
			[]areaRow{
				{Area: "syntax", Title: syntax.Title, Section: syntax.Section, URL: SectionURL(syntax.Section), Link: "#area=" + fk.areas.key("syntax"),
					Probes: 8, Agreed: 8, Share: "100.0%", Bar: 100},
				{Area: "matching", Title: matching.Title, Section: matching.Section, URL: SectionURL(matching.Section), Link: "#area=" + fk.areas.key("matching"),
					Probes: 200, Agreed: 150, Share: "75.0%", Bar: 75,
					Apart: []apartView{{Name: "temoto", Share: "20.0%", N: 40}, {Name: "grobotstxt", Share: "5.0%", N: 10}, {Name: "protego", Share: "5.0%", N: 10}}},
			}},
		{"an area the table does not know comes last, under its own name",
			[]result.AreaStat{{Area: "zzz", Probes: 0}, {Area: "syntax", Probes: 1, Agreed: 0, Apart: map[string]int{"reference": 1}}},
			[]areaRow{
				{Area: "syntax", Title: syntax.Title, Section: syntax.Section, URL: SectionURL(syntax.Section), Link: "#area=" + fk.areas.key("syntax"),
					Probes: 1, Share: "0.0%", Apart: []apartView{{Name: "reference", Share: "100.0%", N: 1}}},
				{Area: "zzz", Title: "zzz", Link: "#area=" + fk.areas.key("zzz")},
			}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, areaRows(tc.in, &fk)); diff != "" {
			t.Errorf("%s: areaRows (-want +got):\n%s", tc.name, diff)
		}
	}
}

// The area section shows the recorded per-area counts, and says plainly
// when the run recorded none instead of approximating them.
func TestDashAreaSection(t *testing.T) {
	withAreas := &result.DiffSummary{Parsers: []string{"reference", "temoto", "grobotstxt"}, Files: 2, Probes: 40, Disagreements: 3,
		Areas: []result.AreaStat{{Area: "matching", Probes: 30, Agreed: 27, Apart: map[string]int{"temoto": 3}}, {Area: "syntax", Probes: 10, Agreed: 10}}}
	noAreas := *withAreas
	noAreas.Areas = nil
	tests := []struct {
		name      string
		sum       *result.DiffSummary
		want, not []string
	}{
		{"areas recorded", withAreas,
			[]string{`<table class="grid areas">`, ">" + builtinTable().area("matching").Title + "</a>", `<td class="num">30</td>`, "90.0%", `<span class="apart">temoto <span class="dim">10.0%</span></span>`, "100.0%", `<span class="dim">none</span>`},
			[]string{"no per-area counts"}},
		{"a summary without areas", &noAreas,
			[]string{"This run recorded no per-area counts"}, []string{`<table class="grid areas">`}},
		{"findings alone", nil,
			[]string{"there are no per-area counts"}, []string{`<table class="grid areas">`}},
	}
	for _, tc := range tests {
		out := renderHTML(t, withDiff(fixtureDoc(), nil, tc.sum), HTMLOptions{})
		i, j := strings.Index(out, `<section id="agreement">`), strings.Index(out, `<section id="classes">`)
		if i < 0 || j < i {
			t.Fatalf("%s: no agreement section", tc.name)
		}
		sec := out[i:j]
		for _, w := range tc.want {
			if !strings.Contains(sec, w) {
				t.Errorf("%s: the area section lacks %q:\n%s", tc.name, w, sec)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(sec, w) {
				t.Errorf("%s: the area section has %q:\n%s", tc.name, w, sec)
			}
		}
	}
}
