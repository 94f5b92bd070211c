package report

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

func TestNewDocumentCounts(t *testing.T) {
	d := fixtureDoc()
	got := map[string]result.Summary{}
	for _, s := range d.Parsers {
		got[s.Name] = s
	}
	want := map[string]result.Summary{
		"reference":  {Name: "reference", Version: "0.1.0", Checks: 10, Pass: 10, Conforms: true},
		"temoto":     {Name: "temoto", Version: "v1.1.2", Checks: 10, Pass: 3, Deviations: 1, Violations: 1, Errors: 1, Skipped: 4},
		"grobotstxt": {Name: "grobotstxt", Version: "v1.0.3", Checks: 10, Pass: 6, Deviations: 1, Violations: 1, Skipped: 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summaries (-want +got):\n%s", diff)
	}
	// Only cases with something other than pass or skipped are described.
	var ids []string
	for id := range d.Cases {
		ids = append(ids, id)
	}
	wantIDs := []string{"cache/refetch-after-a-day", "http/redirect-cross-host", "match/tie-allow-wins", "merge/two-groups-same-agent"}
	if diff := cmp.Diff(wantIDs, sortedKeys(d.Cases)); diff != "" {
		t.Errorf("described cases (-want +got):\n%s", diff)
	}
	// Results are sorted by case, check, parser order.
	for i := 1; i < len(d.Results); i++ {
		a, b := d.Results[i-1], d.Results[i]
		if a.Case > b.Case || a.Case == b.Case && a.Check > b.Check {
			t.Fatalf("results out of order at %d: %s#%d before %s#%d", i, a.Case, a.Check, b.Case, b.Check)
		}
	}
}

func TestStrictJudgesDeviations(t *testing.T) {
	cs := fixtureCases()
	rs := fixtureResults(cs)
	d := cases.NewDocument(result.Meta{Version: "x", Profile: "rfc9309", Strict: true}, nil, rs, nil)
	for _, s := range d.Parsers {
		if s.Name == "reference" && !s.Conforms {
			t.Errorf("reference does not conform in a strict run")
		}
		if s.Name != "reference" && s.Conforms {
			t.Errorf("%s conforms in a strict run despite %d deviations", s.Name, s.Deviations)
		}
	}
	// Parsers known only from results are added in name order.
	var names []string
	for _, s := range d.Parsers {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"grobotstxt", "reference", "temoto"}, names); diff != "" {
		t.Errorf("parsers (-want +got):\n%s", diff)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	d := fixtureDoc()
	var buf bytes.Buffer
	if err := d.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"tool": "reptest"`, `"profile": "rfc9309"`, `"parsers": [`, `"results": [`, `"outcome": "violation"`, `"cases": {`, `"findings": [`} {
		if !strings.Contains(buf.String(), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	back, err := result.ReadJSON(&buf)
	if err != nil {
		t.Fatalf("ReadJSON: %v", err)
	}
	if diff := cmp.Diff(d, back); diff != "" {
		t.Errorf("round trip (-wrote +read):\n%s", diff)
	}
}

// A report rendered from saved results equals the one rendered during the
// run, also when parsers and traces produced invalid UTF-8.
func TestRenderFromSavedJSON(t *testing.T) {
	cs := fixtureCases()
	cs[0].Robots = append(cs[0].Robots, "Disallow: /\xff\xfe\n"...)
	rs := fixtureResults(cs)
	for i := range rs {
		rs[i].Detail = "stderr: \xff\xc3("
		rs[i].URL += "\xff"
	}
	d := cases.NewDocument(result.Meta{Version: "0.1.0", Profile: result.ProfileRFC}, nil, rs, cs)
	var js bytes.Buffer
	if err := d.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := result.ReadJSON(&js)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(*result.Document) string{
		func(d *result.Document) string { return renderHTML(t, d, HTMLOptions{}) },
		func(d *result.Document) string { var b bytes.Buffer; _ = JUnit(&b, d); return b.String() },
		func(d *result.Document) string {
			var b bytes.Buffer
			_ = Text(&b, d, TextOptions{Verbose: true})
			return b.String()
		},
	} {
		if diff := cmp.Diff(f(d), f(back)); diff != "" {
			t.Errorf("rendering differs after a JSON round trip (-run +saved):\n%s", diff)
		}
	}
}

func TestReadJSONRejects(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not json", `{"tool":`, "reading JSON"},
		{"other tool", `{"tool":"h2spec","results":[]}`, "not a reptest results document"},
		{"unknown outcome", `{"tool":"reptest","results":[{"case":"a","check":0,"parser":"p","outcome":"maybe"}]}`, `unknown outcome "maybe"`},
		{"duplicate", `{"tool":"reptest","results":[{"case":"a","check":0,"parser":"p","outcome":"pass"},{"case":"a","check":0,"parser":"p","outcome":"pass"}]}`, "appears twice"},
		{"no parser", `{"tool":"reptest","results":[{"case":"a","check":0,"outcome":"pass"}]}`, "no parser"},
		{"trailing", `{"tool":"reptest"} {}`, "data after the document"},
		{"null case", `{"tool":"reptest","cases":{"a":null}}`, `case "a" has no data`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := result.ReadJSON(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadJSON error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestCaseDataDecidingLines(t *testing.T) {
	cs := fixtureCases()
	data := cases.CaseData(cs, fixtureResults(cs))
	type line struct{ Step, Response, Line int }
	tests := []struct {
		id   string
		want []line
	}{
		// Plain case: lines 8 and 2 decide; the third check matches no rule.
		{"merge/two-groups-same-agent", []line{{0, 0, 8}, {0, 0, 2}, {0, 0, 0}}},
		// Allow wins the tie at line 3 (CRLF line ends).
		{"match/tie-allow-wins", []line{{0, 0, 3}}},
		// Through the redirect, line 2 of the second response decides;
		// /public matches nothing.
		{"http/redirect-cross-host", []line{{0, 2, 2}, {0, 0, 0}}},
		// Step 1 decides by its own body; at 25h the file is fetched again
		// and step 2's body decides /b.
		{"cache/refetch-after-a-day", []line{{1, 1, 2}, {2, 0, 0}, {2, 2, 2}}},
	}
	for _, tc := range tests {
		ci := data[tc.id]
		if ci == nil {
			t.Fatalf("no data for %s", tc.id)
		}
		var got []line
		for _, c := range ci.Checks {
			got = append(got, line{c.Step, c.Response, c.Line})
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s deciding lines (-want +got):\n%s", tc.id, diff)
		}
		for i, c := range ci.Checks {
			if c.Trace == "" {
				t.Errorf("%s check %d has no trace", tc.id, i)
			}
		}
	}
}

func TestCaseDataLongBody(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("# padding padding padding padding\n", 3000) + "Disallow: /late\n"
	c := cases.Case{ID: "lim/late-rule", Level: result.MUST, Req: []string{"LIM-1"}, Robots: []byte(body),
		Checks: []cases.Check{{Agent: "FooBot", URL: "https://example.com/late", Expect: result.Disallow}}}
	ci := caseData(c)
	if !ci.Robots.Partial() || ci.Robots.Size != len(body) || len(ci.Robots.Bytes()) > result.StoredHead {
		t.Fatalf("long body stored as %d of %d bytes (partial %v)", len(ci.Robots.Bytes()), ci.Robots.Size, ci.Robots.Partial())
	}
	if got := ci.Robots.Bytes(); got[len(got)-1] != '\n' {
		t.Errorf("stored head does not end at a line end")
	}
	chk := ci.Checks[0]
	if chk.Line != 3002 || chk.LineText != "Disallow: /late" {
		t.Errorf("deciding line = %d %q, want 3002 %q", chk.Line, chk.LineText, "Disallow: /late")
	}
}

func TestCaseDataGeneratedBody(t *testing.T) {
	g := &cases.Generator{Prefix: "User-agent: *\n", Repeat: "# pad pad pad pad pad pad\n", UntilBytes: 600 << 10, Suffix: "Disallow: /late\n"}
	c := cases.Case{ID: "lim/generated", Level: result.MUST, Req: []string{"LIM-2"},
		Fetch:  []cases.Response{{URL: "http://a.test/robots.txt", Status: 200, Gen: g}},
		Checks: []cases.Check{{Agent: "FooBot", URL: "http://a.test/late", Expect: result.Allow}}}
	ci := caseData(c)
	s := ci.Fetch[0]
	if s.Body == nil || s.Body.Generated == "" || s.Body.Size < 600<<10 || !strings.HasPrefix(s.Body.Text, "User-agent: *\n# pad") {
		t.Fatalf("generated body stored as %+v", s.Body)
	}
	// The rule sits past 500 KiB: the reference ignores it.
	if ci.Checks[0].Line != 0 || !strings.Contains(ci.Checks[0].Trace, "allow") {
		t.Errorf("check = %+v, want no deciding line", ci.Checks[0])
	}
}

func TestCaseDataFaults(t *testing.T) {
	c := cases.Case{ID: "http/reset", Level: result.MUST, Req: []string{"ACC-7"},
		Fetch:  []cases.Response{{URL: "http://a.test/robots.txt", Fault: "reset"}},
		Checks: []cases.Check{{Agent: "FooBot", URL: "http://a.test/x", Expect: result.Disallow}}}
	ci := caseData(c)
	if ci.Checks[0].Line != 0 || !strings.Contains(ci.Checks[0].Trace, "unreachable") {
		t.Errorf("reset: %+v", ci.Checks[0])
	}
}

// A deciding line deep in a huge generated body is looked for within a
// bounded prefix: the body is never made whole.
func TestCaseDataHugeGeneratedBody(t *testing.T) {
	g := &cases.Generator{Prefix: "User-agent: *\nDisallow: /a\n", Repeat: "#", UntilBytes: 1 << 30, Suffix: "\nDisallow: /late\n"}
	c := cases.Case{ID: "lim/huge", Level: result.MUST, Req: []string{"LIM-2"},
		Fetch:  []cases.Response{{URL: "http://a.test/robots.txt", Status: 200, Gen: g}},
		Checks: []cases.Check{{Agent: "FooBot", URL: "http://a.test/a", Expect: result.Disallow}, {Agent: "FooBot", URL: "http://a.test/late", Expect: result.Disallow}}}
	res := []result.Result{
		{Case: c.ID, Check: 0, Parser: "p", Line: 2, Response: 1, Trace: "disallow by line 2"},
		{Case: c.ID, Check: 1, Parser: "p", Line: 4, Response: 1, Trace: "disallow by line 4"},
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ci := cases.CaseData([]cases.Case{c}, res)[c.ID]
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("describing a 1 GiB generated body allocated %d MiB", n>>20)
	}
	if got := ci.Checks[0]; got.Line != 2 || got.Response != 1 || got.Trace != "disallow by line 2" {
		t.Errorf("check 0 = %+v, want the recorded line 2 of response 1", got)
	}
	// Line 4 lies past the searched prefix: it is shown by number and trace.
	if got := ci.Checks[1]; got.Line != 4 || got.LineText != "" {
		t.Errorf("check 1 = %+v, want line 4 without its text", got)
	}
	if s := ci.Fetch[0].Body; s == nil || s.Size != g.Size() || len(s.Text) > result.StoredHead {
		t.Errorf("stored body %+v", s)
	}
}

// caseData describes one case from the results of a run on the reference.
func caseData(c cases.Case) *result.CaseInfo {
	cs := []cases.Case{c}
	var res []result.Result
	for _, r := range recordedByReference(cs) {
		res = append(res, r)
	}
	return cases.CaseData(cs, res)[c.ID]
}

// A run that judged nothing (an audit of an empty log, an empty
// selection) writes empty lists, not null.
func TestNewDocumentEmptyLists(t *testing.T) {
	d := cases.NewDocument(result.Meta{}, nil, nil, nil)
	var buf bytes.Buffer
	if err := d.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"parsers": []`, `"results": []`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("WriteJSON of an empty run lacks %s:\n%s", want, buf.String())
		}
	}
	back, err := result.ReadJSON(&buf)
	if err != nil {
		t.Fatalf("ReadJSON of an empty run: %v", err)
	}
	if len(back.Results) != 0 || len(back.Parsers) != 0 {
		t.Errorf("ReadJSON gave %d parsers, %d results; want none", len(back.Parsers), len(back.Results))
	}
}
