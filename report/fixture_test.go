package report

import (
	"context"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/result"
)

func intp(n int) *int { return &n }

// fixtureCases is a small corpus: a plain case, an HTTP case with a
// redirect, a clocked case and a case the parsers all pass.
func fixtureCases() []cases.Case {
	return []cases.Case{
		{
			ID: "merge/two-groups-same-agent", Title: "Two groups naming the same agent are combined",
			Req: []string{"UA-3"}, Level: result.MUST, Profile: result.ProfileRFC, Source: "corpus/groups/merge.yaml:3",
			Robots: []byte("User-agent: ExampleBot\nDisallow: /foo\n\nUser-agent: other\nDisallow: /x\n\nUser-agent: examplebot\nDisallow: /baz\n"),
			Checks: []cases.Check{
				{Agent: "ExampleBot", URL: "https://example.com/baz", Expect: result.Disallow, Rule: intp(8), Source: "corpus/groups/merge.yaml:12"},
				{Agent: "ExampleBot", URL: "https://example.com/foo", Expect: result.Disallow},
				{Agent: "other", URL: "https://example.com/baz", Expect: result.Allow},
			},
		},
		{
			ID: "match/tie-allow-wins", Title: "An allow rule wins a tie", Req: []string{"MATCH-5"}, Level: result.SHOULD,
			Profile: result.ProfileRFC, Source: "corpus/match/tie.yaml:1",
			Robots: []byte("User-agent: *\r\nDisallow: /page\r\nAllow: /page\r\n"),
			Checks: []cases.Check{{Agent: "FooBot", URL: "https://example.com/page", Expect: result.Allow}},
		},
		{
			ID: "http/redirect-cross-host", Title: "Rules reached through a redirect apply to the first host",
			Req: []string{"ACC-3", "ACC-4"}, Level: result.MUST, Profile: result.ProfileRFC, Source: "corpus/http/redirect.yaml:1",
			Fetch: []cases.Response{
				{URL: "http://a.test/robots.txt", Status: 301, Headers: map[string]string{"Location": "http://b.test/rules.txt"}},
				{URL: "http://b.test/rules.txt", Status: 200, Body: []byte("User-agent: *\nDisallow: /private\n")},
			},
			Checks: []cases.Check{
				{Agent: "FooBot", URL: "http://a.test/private/x", Expect: result.Disallow},
				{Agent: "FooBot", URL: "http://a.test/public", Expect: result.Allow},
			},
		},
		{
			ID: "cache/refetch-after-a-day", Title: "A copy older than 24 hours is fetched again", Req: []string{"CACHE-2"},
			Level: result.SHOULD, Profile: result.ProfileRFC, Source: "corpus/cache/ttl.yaml:1",
			Timeline: []cases.Step{
				{At: 0, Response: cases.Response{URL: "http://a.test/robots.txt", Status: 200, Body: []byte("User-agent: *\nDisallow: /a\n")},
					Checks: []cases.Check{{Agent: "FooBot", URL: "http://a.test/a", Expect: result.Disallow}}},
				{At: 25 * time.Hour, Response: cases.Response{URL: "http://a.test/robots.txt", Status: 200, Body: []byte("User-agent: *\nDisallow: /b\n")},
					Checks: []cases.Check{{Agent: "FooBot", URL: "http://a.test/a", Expect: result.Allow}, {Agent: "FooBot", URL: "http://a.test/b", Expect: result.Disallow}}},
			},
		},
		{
			ID: "syn/comment", Title: "A comment after a value is not part of it", Req: []string{"SYN-4"}, Level: result.MUST,
			Profile: result.ProfileRFC, Robots: []byte("User-agent: *\nDisallow: /a # note\n"),
			Checks: []cases.Check{{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Disallow}},
		},
	}
}

// got gives each fake parser's verdicts per case: one verdict per check
// in order; a missing entry means the expectation.
var fixtureVerdicts = map[string]map[string][]result.Verdict{
	"temoto": {
		"merge/two-groups-same-agent": {result.Allow, result.Disallow, result.Allow},
		"match/tie-allow-wins":        {result.Disallow},
	},
	"grobotstxt": {
		"merge/two-groups-same-agent": {result.Disallow, result.Disallow, result.Reject},
	},
}

// fixtureResults runs the fake parsers over the fixture cases. The
// HTTP case is skipped by grobotstxt, and temoto fails with an error on
// one of its checks; the clocked case is skipped by temoto, and
// grobotstxt keeps its first copy.
func fixtureResults(cs []cases.Case) []result.Result {
	parsers := []string{"reference", "temoto", "grobotstxt"}
	recs := recordedByReference(cs)
	var out []result.Result
	for _, c := range cs {
		var checks []cases.Check
		var steps []string
		if len(c.Timeline) > 0 {
			for _, s := range c.Timeline {
				for _, ch := range s.Checks {
					checks = append(checks, ch)
					steps = append(steps, s.At.String())
				}
			}
		} else {
			checks = c.Checks
			steps = make([]string, len(checks))
		}
		for _, p := range parsers {
			for i, ch := range checks {
				r := result.Result{Case: c.ID, Check: i, Parser: p, Agent: ch.Agent, URL: ch.URL, Expect: ch.Expect,
					Accept: ch.Accept, Level: c.Level, Req: c.Req, Profile: c.Profile, Title: c.Title, Rule: ch.Rule, Step: steps[i]}
				rec := recs[[2]any{c.ID, i}]
				r.Trace, r.Line, r.Response = rec.Trace, rec.Line, rec.Response
				if p == "temoto" && len(c.Fetch) > 0 && i == 0 {
					r.Outcome = result.Error
					r.Detail = "parser exited: status 2\nstderr: panic: index out of range [3] with length 3"
					out = append(out, r)
					continue
				}
				if p == "grobotstxt" && len(c.Timeline) > 0 {
					r.Verdict = result.Disallow
					r.Outcome = result.OutcomeOf(c.Level, r.Expect, r.Accept, r.Verdict)
					out = append(out, r)
					continue
				}
				if p != "reference" && (len(c.Fetch) > 0 || len(c.Timeline) > 0) {
					r.Outcome = result.Skipped
					r.Detail = "the parser cannot fetch"
					out = append(out, r)
					continue
				}
				r.Verdict = ch.Expect
				if vs, ok := fixtureVerdicts[p][c.ID]; ok && i < len(vs) {
					r.Verdict = vs[i]
				}
				r.Outcome = result.OutcomeOf(c.Level, r.Expect, r.Accept, r.Verdict)
				out = append(out, r)
			}
		}
	}
	return out
}

// recordedByReference runs the fixture cases on the reference, as the
// runner does with the reference as explainer, and returns each check's
// result by (case, check): what the runner records for every parser.
func recordedByReference(cs []cases.Case) map[[2]any]result.Result {
	rep, err := cases.Run(context.Background(), cs, []cases.Parser{parsers.NewReference()}, cases.RunOptions{Explain: parsers.NewReference()})
	if err != nil {
		panic(err)
	}
	out := map[[2]any]result.Result{}
	for _, r := range rep.Results {
		out[[2]any{r.Case, r.Check}] = r
	}
	return out
}

// fixtureDoc is the document of the fixture run, with one finding.
func fixtureDoc() *result.Document {
	cs := fixtureCases()
	sums := []result.Summary{{Name: "reference", Version: "0.1.0"}, {Name: "temoto", Version: "v1.1.2"}, {Name: "grobotstxt", Version: "v1.0.3"}}
	d := cases.NewDocument(result.Meta{Version: "0.1.0", Profile: result.ProfileRFC}, sums, fixtureResults(cs), cs)
	vs := map[string]result.Verdict{"reference": result.Disallow, "grobotstxt": result.Disallow, "temoto": result.Allow}
	d.Findings = []result.Finding{
		{Input: result.Input{Robots: []byte("User-agent: *\nDisallow: /*.pdf$\n"), Agent: "FooBot", URL: "https://example.com/a.pdf.pdf"},
			Verdicts: vs, Signature: result.Signature(vs), Minimized: true, Req: []string{"SPC-1"}, Sources: []string{"a.txt"}, Probes: 2},
		{Input: result.Input{Robots: []byte("User-agent: *\nDisallow: /*.pdf$\nAllow: /x\n"), Agent: "FooBot", URL: "https://example.com/b.pdf.pdf"},
			Verdicts: vs, Signature: result.Signature(vs), Req: []string{"SPC-1"}, Sources: []string{"b.txt"}, Probes: 1},
	}
	return withDiff(d, nil, nil)
}

// withDiff gives d the summary and run of a differential run, as its
// producer records them: s, or the findings' own summary when s is nil
// (a findings file, reptest report --findings).
func withDiff(d *result.Document, run *result.RunInfo, s *result.DiffSummary) *result.Document {
	if s == nil {
		s = result.SummarizeFindings(d.Findings, run)
	}
	d.Summary, d.Run = s, run
	profile := ""
	if run != nil {
		profile = run.Profile
	}
	if profile == "" && len(d.Findings) > 0 {
		profile = d.Findings[0].Profile
	}
	d.Reference = result.ReferenceOf(s.Parsers, profile)
	return d
}

// builtin is reptest's own table, which cmd/reptest passes as
// HTMLOptions.Table.
func builtin() result.Table {
	t, err := cases.RequirementTable()
	if err != nil {
		panic(err)
	}
	return t
}

// builtinTable is the table of a document that carries none, rendered
// with reptest's own.
func builtinTable() *reqTable { return tableOf(&result.Document{}, builtin()) }
