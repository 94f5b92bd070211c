package diff

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

func TestFindingsRoundTrip(t *testing.T) {
	fs := []result.Finding{
		{
			Input:     result.Input{Robots: []byte("\xEF\xBB\xBFUser-agent: *\r\nDisallow: /a\x00\n"), Agent: "FooBot", URL: "https://example.com/%61"},
			Verdicts:  map[string]result.Verdict{"reference": "disallow", "temoto": "allow", "x": VerdictError},
			Signature: "reference=disallow≠temoto=allow≠x=error",
			Minimized: true,
			Req:       []string{"PCT-2"},
			Sources:   []string{"a.txt", "b.txt"},
			Probes:    3,
			Trace:     `disallow "/a": line 2`,
		},
		{Input: result.Input{Robots: []byte{}, Agent: "B", URL: "/", Profile: result.ProfileGoogle}, Verdicts: map[string]result.Verdict{"a": "allow", "b": "reject"}, Signature: "a=allow≠b=reject", Req: []string{}},
	}
	var b bytes.Buffer
	if err := WriteFindings(&b, fs); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 2 {
		t.Fatalf("%d lines, want 2:\n%s", n, b.String())
	}
	if !strings.Contains(b.String(), `"robots_b64":"77u/VXNlci1hZ2VudDogKg0KRGlzYWxsb3c6IC9hAAo="`) {
		t.Errorf("robots_b64 missing or wrong:\n%s", b.String())
	}
	got, err := ReadFindings(&b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fs, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}

	for _, bad := range []string{
		`{"robots_b64":"!!","agent":"a","url":"/"}`,
		`{"robots_b64":"","agent":"a","url":"/","surprise":1}`,
		`{"robots_b64":"","agent":"","url":"/"}`,
		`not json`,
	} {
		if _, err := ReadFindings(strings.NewReader("\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("ReadFindings(%s): error %v, want one naming line 2", bad, err)
		}
	}
}

func TestReadFuzzFile(t *testing.T) {
	good := "go test fuzz v1\n[]byte(\"User-agent: *\\nDisallow: /\\xff\\n\")\nstring(\"FooBot\")\nstring(\"/a?b\")\n"
	in, err := ReadFuzzFile([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	want := result.Input{Robots: []byte("User-agent: *\nDisallow: /\xff\n"), Agent: "FooBot", URL: "/a?b"}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("ReadFuzzFile (-want +got):\n%s", diff)
	}
	for name, bad := range map[string]string{
		"header":     "go test fuzz v2\n[]byte(\"\")\nstring(\"a\")\nstring(\"/\")\n",
		"two values": "go test fuzz v1\n[]byte(\"\")\nstring(\"a\")\n",
		"wrong type": "go test fuzz v1\nstring(\"\")\nstring(\"a\")\nstring(\"/\")\n",
		"int":        "go test fuzz v1\n[]byte(\"\")\nstring(\"a\")\nint(3)\n",
		"garbage":    "go test fuzz v1\n[]byte(\"\")\nstring(\"a\")\nstring(\"/\"\n",
		"call":       "go test fuzz v1\n[]byte(\"\")\nstring(\"a\")\nstring(f())\n",
	} {
		if _, err := ReadFuzzFile([]byte(bad)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestTags(t *testing.T) {
	tests := []struct {
		name     string
		in       result.Input
		verdicts map[string]result.Verdict
		want     []string
	}{
		{"decoding", result.Input{Robots: []byte("User-agent: *\nDisallow: /a\n"), Agent: "FooBot", URL: "/%61"}, nil, []string{"PCT-2", "UA-4"}},
		{"robots.txt", result.Input{Robots: []byte("User-agent: FooBot\nDisallow: /\n"), Agent: "FooBot", URL: "/robots.txt"}, nil, []string{"MATCH-7"}},
		{"no group", result.Input{Robots: []byte("User-agent: other\nDisallow: /\n"), Agent: "FooBot", URL: "/x"}, nil, []string{"UA-5"}},
		{"tie", result.Input{Robots: []byte("User-agent: *\nDisallow: /*.pdf\nAllow: /docs/\n"), Agent: "FooBot", URL: "/docs/.pdf"}, nil, []string{"MATCH-5", "SPC-1", "UA-4"}},
		{"ties across groups do not count", result.Input{Robots: []byte("User-agent: a\nAllow: /x\nUser-agent: *\nDisallow: /x\n"), Agent: "FooBot", URL: "/x"}, nil, []string{"SYN-6", "UA-4"}},
		{"reject", result.Input{Robots: []byte("Crawl-delay: soon\n"), Agent: "FooBot", URL: "/"}, map[string]result.Verdict{"a": "allow", "b": "reject"}, []string{"OTH-3", "SYN-9", "UA-5"}},
		{"anchor and lower hex", result.Input{Robots: []byte("User-agent: *\nDisallow: /a%2fb$\n"), Agent: "FooBot", URL: "/a%2Fb"}, nil, []string{"PCT-2", "PCT-3", "SPC-2", "UA-4"}},
		{"user-agent value", result.Input{Robots: []byte("User-agent: FooBot/2.1\nDisallow: /\n"), Agent: "FooBot", URL: "/"}, nil, []string{"G-UA", "UA-5", "UA-7"}},
		{"typo", result.Input{Robots: []byte("User-agent: *\nDissallow: /\n"), Agent: "FooBot", URL: "/"}, nil, []string{"G-TYPO", "OTH-2", "OTH-3", "SYN-7", "UA-4"}},
		{"bom and cr", result.Input{Robots: []byte("\xEF\xBB\xBFUser-agent: *\rDisallow: /\r"), Agent: "FooBot", URL: "/"}, nil, []string{"SYN-10", "SYN-3", "UA-4"}},
		{"plain rule", result.Input{Robots: []byte("User-agent: FooBot\nDisallow: /x\n"), Agent: "FooBot", URL: "/x/y"}, nil, []string{"MATCH-9"}},
		{"bad agent", result.Input{Robots: []byte("User-agent: *\n"), Agent: "Foo Bot", URL: "/"}, nil, []string{"UA-1"}},
		{"path not anchored", result.Input{Robots: []byte("User-agent: FooBot\nDisallow: /b\n"), Agent: "FooBot", URL: "/a/b"}, nil, []string{"MATCH-3"}},
		{"query", result.Input{Robots: []byte("User-agent: FooBot\nDisallow: /*?id=\n"), Agent: "FooBot", URL: "/p?id=3"}, nil, []string{"MATCH-11", "SPC-1"}},
	}
	for _, tt := range tests {
		got := Tags(tt.in, tt.verdicts)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Tags (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestPrimary(t *testing.T) {
	for _, tt := range []struct {
		req  []string
		want string
	}{
		{[]string{"PCT-2", "UA-4"}, "PCT-2"},
		{[]string{"MATCH-5", "SPC-1", "UA-4"}, "MATCH-5"},
		{[]string{"G-UA", "PAT-2", "SYN-6", "UA-4", "UA-7"}, "UA-7"},
		{[]string{"OTH-3", "SYN-9", "UA-5"}, "SYN-9"},
		{[]string{"X-2", "X-1"}, "X-1"},
		{nil, ""},
	} {
		if got := result.Primary(tt.req); got != tt.want {
			t.Errorf("Primary(%v) = %q, want %q", tt.req, got, tt.want)
		}
	}
}

// loadDraft writes drafts to a directory and loads them with the cases
// loader.
func loadDraft(t *testing.T, drafts []Draft) []cases.Case {
	t.Helper()
	b, err := MarshalDrafts(drafts)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "drafts.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := cases.LoadDirs(dir)
	if err != nil {
		t.Fatalf("the drafts do not load: %v\n%s", err, b)
	}
	return cs
}

func TestPromoteRoundTrip(t *testing.T) {
	findings := []result.Finding{
		{
			Input:     result.Input{Robots: []byte("User-agent: *\nDisallow: /a\n"), Agent: "FooBot", URL: "https://example.com/%61"},
			Verdicts:  map[string]result.Verdict{"reference": "disallow", "grobotstxt": "allow", "temoto": "allow"},
			Signature: "grobotstxt,temoto=allow≠reference=disallow",
		},
		{
			// Not plain text: a BOM, CR line ends and a NUL.
			Input:    result.Input{Robots: []byte("\xEF\xBB\xBFUser-agent: *\rDisallow: /b\x00\r"), Agent: "FooBot", URL: "/b"},
			Verdicts: map[string]result.Verdict{"reference": "allow", "x": "reject"},
		},
		{
			// Plain text that starts with spaces and ends without a line end.
			Input: result.Input{Robots: []byte("  User-agent: FooBot/2.1\n\tDisallow: /ü  \nAllow: /"), Agent: "FooBot", URL: "/%C3%BC", Profile: result.ProfileGoogle},
		},
	}
	var drafts []Draft
	for i, f := range findings {
		d, err := NewDraft(f, "a differential finding", "from-diff")
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && (d.Expect != result.Disallow || d.Rule != 2 || !strings.Contains(d.Title, "DRAFT") || !strings.Contains(d.Title, f.Signature)) {
			t.Errorf("draft %+v", d)
		}
		drafts = append(drafts, d)
	}
	cs := loadDraft(t, drafts)
	if len(cs) != len(findings) {
		t.Fatalf("%d cases loaded, want %d", len(cs), len(findings))
	}
	for i, c := range cs {
		f := findings[i]
		if string(c.Robots) != string(f.Robots) {
			t.Errorf("case %d: body %q, want %q", i, c.Robots, f.Robots)
		}
		if diff := cmp.Diff([]string{"needs-review", "from-diff"}, c.Tags); diff != "" {
			t.Errorf("case %d: tags (-want +got):\n%s", i, diff)
		}
		if len(c.Checks) != 1 || c.Checks[0].Agent != f.Agent || c.Checks[0].Expect != drafts[i].Expect {
			t.Errorf("case %d: checks %+v", i, c.Checks)
		}
		wantProfile := result.ProfileRFC
		if f.Profile != "" {
			wantProfile = f.Profile
		}
		if c.Profile != wantProfile || len(c.Req) == 0 || !strings.HasPrefix(c.ID, "draft/diff-") {
			t.Errorf("case %d: %+v", i, c)
		}
	}
	b, _ := MarshalDrafts(drafts)
	if !strings.Contains(string(b), "robots_base64:") || !strings.Contains(string(b), "robots: |") {
		t.Errorf("want one base64 body and one literal body:\n%s", b)
	}
	if !strings.Contains(string(b), "# verdicts: grobotstxt=allow reference=disallow temoto=allow") {
		t.Errorf("no verdicts comment:\n%s", b)
	}
}

// TestPromoteFromRun promotes the findings of a run and checks that each
// draft's expectation is what the reference says.
func TestPromoteFromRun(t *testing.T) {
	rep := run(t, Generate(3, 8), 2, func() []cases.Parser { return []cases.Parser{ref(), refGoogle()} })
	if len(rep.Findings) == 0 {
		t.Fatal("no findings")
	}
	var drafts []Draft
	var promoted []result.Finding
	for _, f := range rep.Findings {
		d, err := NewDraft(f, "a differential finding", "from-diff")
		if err != nil {
			if _, perr := url.Parse(f.URL); perr == nil {
				t.Errorf("%+v: %v", f, err)
			}
			continue
		}
		drafts = append(drafts, d)
		promoted = append(promoted, f)
	}
	cs := loadDraft(t, drafts)
	for i, c := range cs {
		want := promoted[i].Verdicts["reference"]
		if c.Checks[0].Expect != want {
			t.Errorf("%s: expect %s, the reference said %s", c.ID, c.Checks[0].Expect, want)
		}
	}
}

func TestNewDraftErrors(t *testing.T) {
	if _, err := NewDraft(result.Finding{Input: result.Input{Agent: "Foo Bot", URL: "/"}}, "x"); err == nil {
		t.Error("no error for an agent that is not a product token")
	}
	if _, err := NewDraft(result.Finding{Input: result.Input{Agent: "FooBot", URL: "/%zz"}}, "x"); err == nil {
		t.Error("no error for a URL net/url refuses")
	}
	if _, err := NewDraft(result.Finding{Input: result.Input{Agent: "FooBot", URL: "ftp://h/x"}}, "x"); err == nil {
		t.Error("no error for an ftp URL")
	}
}

func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.txt", "User-agent: *\n")
	write("a", "Disallow: /\n")
	write("sub/c.txt", "")
	write("STATS.md", "# stats")
	write("MANIFEST.tsv", "file\tsha")
	write(".hidden", "x")
	write(".git/config", "x")
	files, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.Name)
		names = append(names, rel)
	}
	if diff := cmp.Diff([]string{"a", "b.txt", "sub/c.txt"}, names); diff != "" {
		t.Errorf("ReadDir (-want +got):\n%s", diff)
	}
	if _, err := ReadDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("no error for a missing directory")
	}
	if _, err := ReadDir(filepath.Join(dir, "sub", "empty")); err == nil {
		t.Error("no error for a missing directory")
	}
}

func ExampleSignature() {
	fmt.Println(Signature(map[string]result.Verdict{
		"reference":  result.Disallow,
		"grobotstxt": result.Disallow,
		"temoto":     result.Allow,
	}))
	// Output: grobotstxt,reference=disallow≠temoto=allow
}

func ExampleMinimize() {
	body := "# Our robots.txt\nUser-agent: *\nCrawl-delay: 10\nDisallow: /private/\nDisallow: /annual-reports/\n\nSitemap: https://example.com/sitemap.xml\n"
	in := result.Input{Robots: []byte(body), Agent: "ExampleBot", URL: "https://example.com/%61nnual-reports/2024.pdf"}
	ps := []cases.Parser{ref(), refGoogle()} // RFC and Google option sets
	found, _ := Compare(context.Background(), in, ps)
	small := Minimize(context.Background(), in, ps, SameVerdicts(found))
	fmt.Println(found.Signature)
	fmt.Print(string(small.Robots))
	fmt.Println(small.Agent, small.URL)
	// Output:
	// reference-google=allow≠reference=disallow
	// User-agent: *
	// Disallow: /a
	// FooBot https://example.com/%61
}
