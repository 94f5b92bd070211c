package diff

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

func TestSignature(t *testing.T) {
	tests := []struct {
		verdicts map[string]result.Verdict
		want     string
	}{
		{map[string]result.Verdict{"reference": "allow", "temoto": "allow"}, ""},
		{map[string]result.Verdict{"reference": "allow"}, ""},
		{map[string]result.Verdict{"temoto": "allow", "reference": "disallow"}, "reference=disallow≠temoto=allow"},
		{map[string]result.Verdict{"reference": "disallow", "grobotstxt": "disallow", "temoto": "allow"},
			"grobotstxt,reference=disallow≠temoto=allow"},
		{map[string]result.Verdict{"temoto": "reject", "grobotstxt": "allow", "reference": "disallow"},
			"grobotstxt=allow≠reference=disallow≠temoto=reject"},
		{map[string]result.Verdict{"b": "error", "a": "allow", "c": "error", "d": "allow"}, "a,d=allow≠b,c=error"},
	}
	for _, tt := range tests {
		if got := Signature(tt.verdicts); got != tt.want {
			t.Errorf("Signature(%v) = %q, want %q", tt.verdicts, got, tt.want)
		}
	}
}

// TestSignatureCanonical checks that a signature does not depend on how
// the verdicts were put together.
func TestSignatureCanonical(t *testing.T) {
	names := []string{"temoto", "reference", "grobotstxt", "exec"}
	verdicts := []result.Verdict{result.Allow, result.Disallow, result.Allow, result.Reject}
	want := ""
	for rot := 0; rot < len(names); rot++ {
		m := make(map[string]result.Verdict)
		for i := range names {
			j := (i + rot) % len(names)
			m[names[j]] = verdicts[j]
		}
		got := Signature(m)
		if rot == 0 {
			want = got
		}
		if got != want {
			t.Errorf("rotation %d: %q, want %q", rot, got, want)
		}
	}
	if want != "exec=reject≠grobotstxt,temoto=allow≠reference=disallow" {
		t.Errorf("signature = %q", want)
	}
}

// noise returns robots.txt lines that do not concern the star group's
// percent-encoding: other agents' groups, comments, sitemaps.
func noise(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "User-agent: Bot%c\n", 'A'+rune(i%26))
		case 1:
			fmt.Fprintf(&b, "Disallow: /dir%d/\n", i)
		case 2:
			fmt.Fprintf(&b, "# comment %d\n", i)
		case 3:
			fmt.Fprintf(&b, "Allow: /dir%d/public\n", i)
		case 4:
			fmt.Fprintf(&b, "Sitemap: https://example.com/s%d.xml\n", i)
		}
	}
	return b.String()
}

func TestMinimizeKnownDisagreement(t *testing.T) {
	body := noise(60) + "\nUser-agent: *\nCrawl-delay: 5\nDisallow: /tmp/\nDisallow: /annual-reports/  # old\nAllow: /annual-reports/2024/\n" + noise(40)
	in := result.Input{Robots: []byte(body), Agent: "ExampleBot", URL: "https://example.com/%61nnual-reports/2019/q3.pdf?session=17#top"}
	ps := []cases.Parser{ref(), refGoogle()}
	orig, err := Compare(context.Background(), in, ps)
	if err != nil {
		t.Fatal(err)
	}
	if orig.Signature == "" {
		t.Fatalf("no disagreement to minimise: %v", orig.Verdicts)
	}
	out := Minimize(context.Background(), in, ps, SameVerdicts(orig))
	got, _ := Compare(context.Background(), out, ps)
	if got.Signature != orig.Signature {
		t.Errorf("signature %q, want %q", got.Signature, orig.Signature)
	}
	lines := splitLines(string(out.Robots))
	if len(lines) > 5 {
		t.Errorf("minimised to %d lines, want at most 5:\n%s", len(lines), out.Robots)
	}
	if len(out.URL) >= len(in.URL) || !strings.HasPrefix(out.URL, "https://example.com/%61") {
		t.Errorf("URL %q not shortened from %q", out.URL, in.URL)
	}
	if strings.Contains(string(out.Robots), "#") || strings.Contains(string(out.Robots), "Crawl-delay") {
		t.Errorf("comment or crawl-delay kept:\n%s", out.Robots)
	}
	if want := "User-agent: *\nDisallow: /a\n"; string(out.Robots) != want {
		t.Errorf("minimised body %q, want %q", out.Robots, want)
	}
}

// TestMinimizeTemoto shrinks a disagreement with a real peer: temoto
// matches a wildcard rule anywhere in the path, not from its start.
func TestMinimizeTemoto(t *testing.T) {
	body := noise(120) + "User-agent: *\r\nDisallow: /private/\r\nDisallow: /shop/*checkout\r\nAllow: /shop/\r\n" + noise(30)
	in := result.Input{Robots: []byte(body), Agent: "FooBot", URL: "https://example.com/en/shop/cart/checkout?step=2"}
	ps := []cases.Parser{parsers.NewReference(), parsers.NewTemoto()}
	orig, _ := Compare(context.Background(), in, ps)
	if want := "reference=allow≠temoto=disallow"; orig.Signature != want {
		t.Fatalf("signature %q, want %q", orig.Signature, want)
	}
	out := Minimize(context.Background(), in, ps, SameCause(orig))
	got, _ := Compare(context.Background(), out, ps)
	if got.Signature != orig.Signature {
		t.Errorf("signature %q, want %q", got.Signature, orig.Signature)
	}
	if n := len(splitLines(string(out.Robots))); n > 5 {
		t.Errorf("%d lines, want at most 5:\n%s", n, out.Robots)
	}
	if !strings.Contains(string(out.Robots), "*") {
		t.Errorf("the wildcard rule is gone:\n%s", out.Robots)
	}
	if tags := Tags(out, got.Verdicts); !strings.Contains(strings.Join(tags, " "), "SPC-1") {
		t.Errorf("tags %v lack SPC-1 for\n%s", tags, out.Robots)
	}
}

// TestMinimizeKeepFails leaves an input alone when keep does not hold.
func TestMinimizeKeepFails(t *testing.T) {
	in := result.Input{Robots: []byte("User-agent: *\nDisallow: /\n"), Agent: "FooBot", URL: "/x"}
	out := Minimize(context.Background(), in, []cases.Parser{ref(), refGoogle()}, func(result.Finding) bool { return false })
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("input changed (-want +got):\n%s", diff)
	}
}

func TestDdmin(t *testing.T) {
	items := strings.Split("abcdefghijklmnopqrstuvwxyz", "")
	tests := 0
	got := ddmin(items, true, func(c []string) bool {
		tests++
		s := strings.Join(c, "")
		return strings.Contains(s, "d") && strings.Contains(s, "q") && strings.Contains(s, "x")
	})
	if diff := cmp.Diff([]string{"d", "q", "x"}, got); diff != "" {
		t.Errorf("ddmin (-want +got):\n%s", diff)
	}
	if tests > 120 {
		t.Errorf("ddmin took %d tests", tests)
	}
	if got := ddmin([]string{"a"}, false, func([]string) bool { return true }); len(got) != 1 {
		t.Errorf("ddmin without empty gave %v", got)
	}
}

func TestSplitLines(t *testing.T) {
	body := "a\r\nb\rc\n\nd"
	got := splitLines(body)
	if diff := cmp.Diff([]string{"a\r\n", "b\r", "c\n", "\n", "d"}, got); diff != "" {
		t.Errorf("splitLines (-want +got):\n%s", diff)
	}
	if strings.Join(got, "") != body {
		t.Error("lines do not join back to the body")
	}
}

func TestDeriveProbes(t *testing.T) {
	body := "User-agent: FooBot/2.1\nDisallow: /a*b$\nUser-agent: *\nAllow: /%7Ec\n"
	const f, r = "FooBot", "ReptestBot"
	u := func(p string) string { return ProbeHost + p }
	pr := func(agent, url string, line int, kind string) Probe {
		return Probe{Agent: agent, URL: url, Line: line, Kind: kind, Req: probeKinds[kind]}
	}
	want := []Probe{
		pr(f, u("/"), 0, "root"),
		pr(f, u("/a"), 2, "prefix"),
		pr(r, u("/"), 0, "root"),
		pr(r, u("/%7Ec"), 4, "prefix"),

		pr(f, u("/ax"), 2, "past"),
		pr(f, u("/ab"), 2, "star"),
		pr(f, u("/aab/cb"), 2, "star"),
		pr(f, u("/abx"), 2, "dollar"),
		pr(f, u("/ab?q=1"), 2, "dollar"),
		pr(f, u("/x/ab"), 2, "nested"),
		pr(r, u("/%7Ecx"), 4, "past"),

		pr(f, u("/a*b"), 2, "star-literal"),
		pr(f, u("/A"), 2, "case"),
		pr(f, u("/%61"), 2, "pct-enc"),
		pr(f, u("/a?q=1"), 2, "query"),
		pr(f, u("/robots.txt"), 0, "robots"),
		pr("fOObOT", u("/a"), 2, "agent-case"),
		pr(r, u("/x/%7Ec"), 4, "nested"),
		pr(r, u("/%7eC"), 4, "case"),
		pr(r, u("/%7E%63"), 4, "pct-enc"),
		pr(r, u("/~c"), 4, "pct-dec"),
		pr(r, u("/%7ec"), 4, "pct-case"),
		pr(r, u("/%7Ec?q=1"), 4, "query"),
		pr(r, u("/robots.txt"), 0, "robots"),

		pr(f, u("/%7Ec"), 4, "cross"),
		pr(r, u("/a"), 2, "cross"),
	}
	got := DeriveProbes([]byte(body), 0)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DeriveProbes (-want +got):\n%s", diff)
	}

	// A cap keeps the first tier whole and samples the next evenly.
	capped := DeriveProbes([]byte(body), 6)
	if diff := cmp.Diff(append(want[:4:4], want[4], want[7]), capped); diff != "" {
		t.Errorf("DeriveProbes capped (-want +got):\n%s", diff)
	}
}

func TestDeriveProbesAgents(t *testing.T) {
	body := "User-agent: Googlebot\nUser-agent: googlebot-news\nUser-agent: Slurp/3.0\nUser-agent: bad agent\nUser-agent: ReptestBot\nDisallow: /x\n"
	var agents []string
	seen := make(map[string]bool)
	for _, p := range DeriveProbes([]byte(body), 1000) {
		if !seen[p.Agent] {
			seen[p.Agent] = true
			agents = append(agents, p.Agent)
		}
		if !reference.IsProductToken(p.Agent) {
			t.Errorf("probe agent %q is not a product token", p.Agent)
		}
	}
	// ReptestBot is named, so the unnamed agent is the next candidate.
	want := []string{"Googlebot", "googlebot-news", "Slurp", "bad", "ReptestBot", "UnlistedCrawler", "gOOGLEBOT"}
	if diff := cmp.Diff(want, agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
}

func TestDeriveProbesTie(t *testing.T) {
	body := "User-agent: *\nDisallow: /*.pdf\nAllow: /docs/\n"
	found := false
	for _, p := range DeriveProbes([]byte(body), 0) {
		if p.Kind == "tie" {
			found = true
			if p.URL != ProbeHost+"/docs/.pdf" {
				t.Errorf("tie probe %q", p.URL)
			}
		}
	}
	if !found {
		t.Error("no tie probe for two rules of length 6")
	}
}

func TestGenerateDeterministic(t *testing.T) {
	a, b := Generate(42, 60), Generate(42, 60)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different files (-first +second):\n%s", diff)
	}
	if got := GenerateFile(42, 17); string(got) != string(a[17].Robots) {
		t.Error("file 17 depends on how many files were generated")
	}
	if a[3].Name != "gen/42/3" {
		t.Errorf("name %q", a[3].Name)
	}
	c := Generate(43, 60)
	same := 0
	for i := range a {
		if string(a[i].Robots) == string(c[i].Robots) {
			same++
		}
	}
	if same > 2 {
		t.Errorf("seeds 42 and 43 share %d of 60 files", same)
	}
}

// TestGenerateCoverage checks that the grammar produces every feature it
// promises, over a few hundred files.
func TestGenerateCoverage(t *testing.T) {
	features := map[string]func(string) bool{
		"BOM":          func(s string) bool { return strings.HasPrefix(s, "\xEF\xBB\xBF") },
		"CR only":      func(s string) bool { return strings.Contains(s, "\r") && !strings.Contains(s, "\n") },
		"CRLF":         func(s string) bool { return strings.Contains(s, "\r\n") },
		"wildcard":     func(s string) bool { return strings.Contains(s, "*") },
		"dollar":       func(s string) bool { return strings.Contains(s, "$") },
		"escape":       func(s string) bool { return strings.Contains(s, "%2f") || strings.Contains(s, "%E3") },
		"non-ASCII":    func(s string) bool { return strings.Contains(s, "ツ") || strings.Contains(s, "é") },
		"long line":    func(s string) bool { return len(s) > 2000 },
		"typo":         func(s string) bool { return strings.Contains(s, "dissallow") || strings.Contains(s, "useragent") },
		"no colon":     func(s string) bool { return strings.Contains(s, "Disallow /") || strings.Contains(s, "User-agent Foo") },
		"comment":      func(s string) bool { return strings.Contains(s, "# ") },
		"sitemap":      func(s string) bool { return strings.Contains(s, "Sitemap:") },
		"crawl-delay":  func(s string) bool { return strings.Contains(s, "Crawl-delay: soon") },
		"merge":        func(s string) bool { return strings.Count(s, "FooBot") >= 2 },
		"orphan rule":  func(s string) bool { return strings.HasPrefix(strings.TrimPrefix(s, "\xEF\xBB\xBF"), "Disallow") },
		"agent w/ ver": func(s string) bool { return strings.Contains(s, "FooBot/2.1") },
	}
	seen := make(map[string]bool)
	for _, f := range Generate(1, 400) {
		for name, has := range features {
			if has(string(f.Robots)) {
				seen[name] = true
			}
		}
	}
	for name := range features {
		if !seen[name] {
			t.Errorf("no generated file has %s", name)
		}
	}
}

// run compares files with a panel of test parsers on some workers.
func run(t *testing.T, files []File, workers int, mk func() []cases.Parser) *result.Document {
	t.Helper()
	rep, err := Run(context.Background(), files, func(context.Context) ([]cases.Parser, error) { return mk(), nil },
		Options{Workers: workers, MaxProbes: 60})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestRunDeterministic(t *testing.T) {
	files := append(Generate(7, 20), File{Name: "hand", Robots: []byte("User-agent: *\nDisallow: /a\nREJECT\n")})
	mk := func() []cases.Parser {
		return []cases.Parser{ref(), refGoogle(), &naive{name: "naive", owner: new(atomic.Int64)}}
	}
	one := run(t, files, 1, mk)
	three := run(t, files, 3, mk)
	if diff := cmp.Diff(one, three); diff != "" {
		t.Fatalf("1 and 3 workers differ (-1 +3):\n%s", diff)
	}
	if len(one.Findings) == 0 {
		t.Fatal("no findings")
	}
	s := one.Summary
	if s.Files != len(files) || s.Probes == 0 || s.Disagreements == 0 || len(s.Pairs) != 3 || len(s.Groups) == 0 {
		t.Errorf("summary %+v", s)
	}
	for _, f := range one.Findings {
		if f.Signature == "" || f.Signature != Signature(f.Verdicts) || !f.Minimized || len(f.Req) == 0 || f.Probes < 1 || len(f.Sources) == 0 {
			t.Errorf("bad finding %+v", f)
		}
		again, _ := Compare(context.Background(), f.Input, mk())
		if again.Signature != f.Signature {
			t.Errorf("finding does not reproduce: %q, then %q", f.Signature, again.Signature)
		}
	}
	rejected := false
	for _, g := range s.Groups {
		if strings.Contains(g.Signature, "naive=reject") && g.Primary == "SYN-9" {
			rejected = true
		}
	}
	if !rejected {
		t.Error("no group for the rejected file")
	}
}

func TestRunCountsPairs(t *testing.T) {
	files := []File{
		{Name: "a", Robots: []byte("User-agent: *\nDisallow: /a\n"), Probes: []Probe{
			{Agent: "FooBot", URL: "/a"},   // all disallow
			{Agent: "FooBot", URL: "/%61"}, // the reference decodes, the others do not
			{Agent: "FooBot", URL: "/b"},   // all allow
		}},
		{Name: "b", Robots: []byte("User-agent: *\nDisallow: /a\n"), Probes: []Probe{{Agent: "FooBot", URL: "/robots.txt"}}},
	}
	rep := run(t, files, 2, func() []cases.Parser { return []cases.Parser{ref(), refGoogle(), &naive{name: "naive"}} })
	want := []result.PairStat{
		{A: "reference", B: "reference-google", Probes: 4, ProbeDisagreements: 1, ProbeShare: 0.25, Files: 2, FileDisagreements: 1, FileShare: 0.5},
		{A: "reference", B: "naive", Probes: 4, ProbeDisagreements: 1, ProbeShare: 0.25, Files: 2, FileDisagreements: 1, FileShare: 0.5},
		{A: "reference-google", B: "naive", Probes: 4, Files: 2},
	}
	if diff := cmp.Diff(want, rep.Summary.Pairs); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
	if rep.Summary.Disagreements != 1 || rep.Summary.FilesWithDisagreements != 1 {
		t.Errorf("summary %+v", rep.Summary)
	}
}

func TestRunParserFailures(t *testing.T) {
	files := []File{{Name: "a", Robots: []byte("User-agent: *\nDisallow: /\n")}}
	var calls atomic.Int64
	rep := run(t, files, 1, func() []cases.Parser {
		return []cases.Parser{ref(), &broken{name: "errs", calls: &calls}, &broken{name: "panics", panic: true}}
	})
	if len(rep.Findings) == 0 {
		t.Fatal("no findings")
	}
	// A parser that failed a probe is not asked about it again.
	if got, want := calls.Load(), int64(rep.Summary.Probes); got != want {
		t.Errorf("the failing parser was asked %d times; want %d, once per probe", got, want)
	}
	for _, f := range rep.Findings {
		if f.Verdicts["errs"] != VerdictError || f.Verdicts["panics"] != VerdictError {
			t.Errorf("verdicts %v", f.Verdicts)
		}
		// Minimising towards an error would ask the failing parsers
		// again on every candidate.
		if f.Minimized || string(f.Robots) != "User-agent: *\nDisallow: /\n" {
			t.Errorf("finding with errors minimised: %+v", f)
		}
	}

	ctx := context.Background()
	for name, mk := range map[string]Factory{
		"factory error": func(context.Context) ([]cases.Parser, error) { return nil, fmt.Errorf("no such parser") },
		"one parser":    func(context.Context) ([]cases.Parser, error) { return []cases.Parser{ref()}, nil },
		"same names":    func(context.Context) ([]cases.Parser, error) { return []cases.Parser{ref(), ref()}, nil },
	} {
		if _, err := Run(ctx, files, mk, Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Generate(1, 5), func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), refGoogle()}, nil
	}, Options{})
	if err == nil {
		t.Error("no error from a cancelled run")
	}
}

func TestFromCases(t *testing.T) {
	cs := []cases.Case{
		{ID: "a", Req: []string{"SYN-1", "UA-4"}, Robots: []byte("User-agent: *\n"), Checks: []cases.Check{{Agent: "X", URL: "https://h/a"}}},
		{ID: "http", Fetch: []cases.Response{{URL: "http://a.test/robots.txt"}}, Checks: []cases.Check{{Agent: "X", URL: "/"}}},
		{ID: "g", Profile: result.ProfileGoogle, Robots: []byte(""), Checks: []cases.Check{{Agent: "Y", URL: "/b"}}},
	}
	want := []File{
		{Name: "case:a", Robots: []byte("User-agent: *\n"), Probes: []Probe{{Agent: "X", URL: "https://h/a", Kind: "check", Req: "SYN-1"}}},
		{Name: "case:g", Robots: []byte(""), Profile: result.ProfileGoogle, Probes: []Probe{{Agent: "Y", URL: "/b", Kind: "check"}}},
	}
	if diff := cmp.Diff(want, FromCases(cs)); diff != "" {
		t.Errorf("FromCases (-want +got):\n%s", diff)
	}
}
