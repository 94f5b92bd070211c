package cases

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/result"
)

func intp(v int) *int { return &v }

// goodFiles is a small corpus that uses every key of the format.
var goodFiles = fstest.MapFS{
	"requirements.yaml": {Data: []byte("not a case file: skipped at the root\n")},
	"README.md":         {Data: []byte("not YAML, ignored\n")},
	".hidden.yaml":      {Data: []byte("skipped: dot files are left out\n")},
	"_draft/x.yaml":     {Data: []byte("skipped: underscore folders are left out\n")},
	"a/basic.yaml": {Data: []byte(`cases:
  - id: merge/two-groups
    title: Two groups combine
    req: [UA-3]
    tags: [merging, groups]
    robots: |
      User-agent: FooBot
      Disallow: /a
    checks:
      - {agent: FooBot, url: /a, expect: disallow, rule: 2}
      - agent: FooBot
        url: https://other.test/b?x=1
        expect: allow
        accept: [disallow]
  - id: bytes/bom
    req: [SYN-10, SYN-1]
    level: SHOULD
    profile: google
    host: http://h.test:8080/
    robots_base64: 77u/VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLwo=
    checks:
      - {agent: x, url: /y, expect: disallow, rule: 0}
`)},
	"b/http.yaml": {Data: []byte(`cases:
  - id: http/redirect
    req: [ACC-3, ACC-4]
    fetch:
      - {url: "http://a.test/robots.txt", status: 301, headers: {Location: "http://b.test/r.txt"}}
      - url: http://b.test/r.txt
        status: 200
        headers: {Content-Type: text/html, X-Count: 3}
        body_generate: {prefix: "User-agent: *\n", repeat: "#\n", until_bytes: 100000000, suffix: "Disallow: /p\n"}
        delay: 2s
      - {url: /slow, fault: timeout}
      - {url: /cut, fault: truncated, body: "User-agent"}
      - {url: /bytes, status: 200, body_base64: "/w=="}
    checks:
      - {agent: FooBot, url: /p, expect: disallow}
  - id: cache/refetch
    req: [CACHE-2]
    timeline:
      - at: 0
        response: {status: 200, body: "User-agent: *\nDisallow: /a\n"}
        checks: [{agent: FooBot, url: /a, expect: disallow}]
      - at: 1d1h
        response: {status: 503}
        checks: [{agent: FooBot, url: "http://c.test/a", expect: disallow}]
  - id: google/ua
    req: [G-UA]
    profile: google
    robots_generate: {prefix: "User-agent: *\n", repeat: "# pad\n", until_bytes: 20, suffix: "Disallow: /\n"}
    checks: [{agent: Googlebot, url: /, expect: disallow}]
  - id: interp/only
    req: [G-LEN, PAT-1]
    robots: ""
    checks: [{agent: a, url: /, expect: allow}, {agent: a, url: "https://example.com/100%", expect: allow}]
`)},
}

func TestLoadGood(t *testing.T) {
	got, err := Load(goodFiles, "src")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := []Case{
		{
			ID: "merge/two-groups", Title: "Two groups combine", Req: []string{"UA-3"}, Level: result.MUST,
			Profile: result.ProfileRFC, Tags: []string{"merging", "groups"},
			Robots: []byte("User-agent: FooBot\nDisallow: /a\n"),
			Checks: []Check{
				{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Disallow, Rule: intp(2), Source: "src/a/basic.yaml:10"},
				{Agent: "FooBot", URL: "https://other.test/b?x=1", Expect: result.Allow, Accept: []result.Verdict{result.Disallow}, Source: "src/a/basic.yaml:11"},
			},
			Source: "src/a/basic.yaml:2",
		},
		{
			ID: "bytes/bom", Req: []string{"SYN-10", "SYN-1"}, Level: result.SHOULD, Profile: result.ProfileGoogle,
			Robots: []byte("\xef\xbb\xbfUser-agent: *\nDisallow: /\n"),
			Checks: []Check{
				{Agent: "x", URL: "http://h.test:8080/y", Expect: result.Disallow, Rule: intp(0), Source: "src/a/basic.yaml:22"},
			},
			Source: "src/a/basic.yaml:15",
		},
		{
			ID: "http/redirect", Req: []string{"ACC-3", "ACC-4"}, Level: result.MUST, Profile: result.ProfileRFC,
			Fetch: []Response{
				{URL: "http://a.test/robots.txt", Status: 301, Headers: map[string]string{"Location": "http://b.test/r.txt"}},
				{URL: "http://b.test/r.txt", Status: 200, Headers: map[string]string{"Content-Type": "text/html", "X-Count": "3"},
					Gen: &Generator{Prefix: "User-agent: *\n", Repeat: "#\n", UntilBytes: 100000000, Suffix: "Disallow: /p\n"}, Delay: 2 * time.Second},
				{URL: "http://a.test/slow", Fault: "timeout"},
				{URL: "http://a.test/cut", Fault: "truncated", Body: []byte("User-agent")},
				{URL: "http://a.test/bytes", Status: 200, Body: []byte{0xff}},
			},
			Checks: []Check{{Agent: "FooBot", URL: "http://a.test/p", Expect: result.Disallow, Source: "src/b/http.yaml:15"}},
			Source: "src/b/http.yaml:2",
		},
		{
			ID: "cache/refetch", Req: []string{"CACHE-2"}, Level: result.SHOULD, Profile: result.ProfileRFC,
			Timeline: []Step{
				{
					At:       0,
					Response: Response{URL: "http://example.com/robots.txt", Status: 200, Body: []byte("User-agent: *\nDisallow: /a\n")},
					Checks:   []Check{{Agent: "FooBot", URL: "http://example.com/a", Expect: result.Disallow, Source: "src/b/http.yaml:21"}},
				},
				{
					At:       25 * time.Hour,
					Response: Response{URL: "http://example.com/robots.txt", Status: 503},
					Checks:   []Check{{Agent: "FooBot", URL: "http://c.test/a", Expect: result.Disallow, Source: "src/b/http.yaml:24"}},
				},
			},
			Source: "src/b/http.yaml:16",
		},
		{
			ID: "google/ua", Req: []string{"G-UA"}, Level: result.MUST, Profile: result.ProfileGoogle,
			Robots: []byte("User-agent: *\n# pad\nDisallow: /\n"),
			Checks: []Check{{Agent: "Googlebot", URL: "https://example.com/", Expect: result.Disallow, Source: "src/b/http.yaml:29"}},
			Source: "src/b/http.yaml:25",
		},
		{
			ID: "interp/only", Req: []string{"G-LEN", "PAT-1"}, Level: result.Interpretation, Profile: result.ProfileRFC,
			Robots: []byte{},
			Checks: []Check{
				{Agent: "a", URL: "https://example.com/", Expect: result.Allow, Source: "src/b/http.yaml:33"},
				// A path net/url refuses is kept as written.
				{Agent: "a", URL: "https://example.com/100%", Expect: result.Allow, Source: "src/b/http.yaml:33"},
			},
			Source: "src/b/http.yaml:30",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load mismatch (-want +got):\n%s", diff)
	}
}

// caseText is a valid file; the error tests change one thing in it.
const caseText = `cases:
  - id: x
    req: [UA-2]
    robots: "User-agent: *\n"
    checks:
      - {agent: a, url: /, expect: allow}
`

const fetchText = `cases:
  - id: x
    req: [ACC-7]
    fetch:
      - {url: "http://a.test/robots.txt", status: 503}
    checks:
      - {agent: a, url: /, expect: disallow}
`

const timelineText = `cases:
  - id: x
    req: [CACHE-2]
    timeline:
      - at: 0h
        response: {status: 200, body: ""}
        checks: [{agent: a, url: /, expect: allow}]
`

// edit returns text with the first occurrence of old replaced by new.
func edit(t *testing.T, text, old, new string) string {
	t.Helper()
	if !strings.Contains(text, old) {
		t.Fatalf("edit: %q not in the text", old)
	}
	return strings.Replace(text, old, new, 1)
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string // file -> text (the error is in "f.yaml" unless stated)
		file  string            // where the error is; default f.yaml
		line  int
		at    string // the text the column points at, found on line
		col   int    // the column, when at cannot name it
		msg   string // a substring of the message
	}{
		{name: "unknown key", files: map[string]string{"f.yaml": edit(t, caseText, "    robots:", "    colour: red\n    robots:")},
			line: 4, at: "colour", msg: `unknown key "colour" in a case`},
		{name: "unknown top-level key", files: map[string]string{"f.yaml": "version: 1\n" + caseText},
			line: 1, at: "version", msg: `unknown key "version" in the file`},
		{name: "misspelt key", files: map[string]string{"f.yaml": edit(t, caseText, "    robots:", "    titel: x\n    robots:")},
			line: 4, at: "titel", msg: `unknown key "titel" in a case; did you mean "title"?`},
		{name: "unknown check key", files: map[string]string{"f.yaml": edit(t, caseText, "expect: allow", "expect: allow, why: no")},
			line: 6, at: "why", msg: `unknown key "why" in a check`},
		{name: "duplicate key", files: map[string]string{"f.yaml": edit(t, caseText, "    req: [UA-2]", "    req: [UA-2]\n    req: [UA-3]")},
			line: 4, at: "req", msg: `duplicate key "req" in a case (first at line 3)`},
		{name: "bad base64", files: map[string]string{"f.yaml": edit(t, caseText, `robots: "User-agent: *\n"`, `robots_base64: "!!not base64"`)},
			line: 4, at: `"!!not`, msg: "robots_base64: bad base64"},
		{name: "duplicate id across files", files: map[string]string{"f.yaml": caseText, "g/g.yaml": caseText}, file: "g/g.yaml",
			line: 2, at: "x", msg: `duplicate id "x" (first at src/f.yaml:2:9)`},
		{name: "duplicate id in a file", files: map[string]string{"f.yaml": caseText + strings.TrimPrefix(caseText, "cases:\n")},
			line: 7, at: "x", msg: `duplicate id "x" (first at src/f.yaml:2:9)`},
		{name: "bad id", files: map[string]string{"f.yaml": edit(t, caseText, "id: x", "id: Bad Id")},
			line: 2, at: "Bad", msg: `bad id "Bad Id"`},
		{name: "unknown req", files: map[string]string{"f.yaml": edit(t, caseText, "[UA-2]", "[UA-2, NOPE-1]")},
			line: 3, at: "NOPE-1", msg: `unknown requirement ID "NOPE-1"`},
		{name: "empty req", files: map[string]string{"f.yaml": edit(t, caseText, "[UA-2]", "[]")},
			line: 3, at: "[]", msg: "req is empty"},
		{name: "req not a list", files: map[string]string{"f.yaml": edit(t, caseText, "[UA-2]", "UA-2")},
			line: 3, at: "UA-2", msg: "req: want a list, got a string (write [UA-2] for a list of one)"},
		{name: "missing req", files: map[string]string{"f.yaml": edit(t, caseText, "    req: [UA-2]\n", "")},
			line: 2, at: "id", msg: "the case has no req"},
		{name: "no checks", files: map[string]string{"f.yaml": strings.Split(caseText, "    checks:")[0]},
			line: 2, at: "id", msg: "the case has no checks"},
		{name: "empty checks", files: map[string]string{"f.yaml": strings.Split(caseText, "\n      - {")[0] + " []\n"},
			line: 5, at: "[]", msg: "checks is empty"},
		{name: "relative URL", files: map[string]string{"f.yaml": edit(t, caseText, "url: /", "url: foo")},
			line: 6, at: "foo", msg: `url: "foo" is neither an absolute URL`},
		{name: "unparseable URL", files: map[string]string{"f.yaml": edit(t, caseText, "url: /", `url: "http://[::1/x"`)},
			line: 6, at: `"http`, msg: `url: bad URL "http://[::1/x"`},
		{name: "URL scheme", files: map[string]string{"f.yaml": edit(t, caseText, "url: /", `url: "ftp://a.test/x"`)},
			line: 6, at: `"ftp`, msg: "want scheme http or https"},
		{name: "bad level", files: map[string]string{"f.yaml": edit(t, caseText, "    robots:", "    level: maybe\n    robots:")},
			line: 4, at: "maybe", msg: `bad level "maybe"`},
		{name: "bad profile", files: map[string]string{"f.yaml": edit(t, caseText, "    robots:", "    profile: rfc\n    robots:")},
			line: 4, at: "rfc", msg: `bad profile "rfc"`},
		{name: "bad expect", files: map[string]string{"f.yaml": edit(t, caseText, "expect: allow", "expect: maybe")},
			line: 6, at: "maybe", msg: `expect: bad verdict "maybe"`},
		{name: "bad accept", files: map[string]string{"f.yaml": edit(t, caseText, "expect: allow", "expect: allow, accept: [allow, maybe]")},
			line: 6, at: "maybe", msg: "maybe"},
		{name: "rule negative", files: map[string]string{"f.yaml": edit(t, caseText, "expect: allow", "expect: allow, rule: -1")},
			line: 6, at: "-1", msg: "rule -1"},
		{name: "rule not a number", files: map[string]string{"f.yaml": edit(t, caseText, "expect: allow", "expect: allow, rule: two")},
			line: 6, at: "two", msg: "rule: want an integer, got a string"},
		{name: "robots and robots_base64", files: map[string]string{"f.yaml": edit(t, caseText, "    checks:", "    robots_base64: QQ==\n    checks:")},
			line: 5, at: "robots_base64", msg: "robots and robots_base64 cannot be used together"},
		{name: "robots and fetch", files: map[string]string{"f.yaml": edit(t, fetchText, "    checks:", "    robots: \"\"\n    checks:")},
			line: 6, at: "robots", msg: "fetch and robots cannot be used together"},
		{name: "fetch and timeline", files: map[string]string{"f.yaml": edit(t, timelineText, "    timeline:", "    fetch: [{url: /robots.txt, status: 200}]\n    timeline:")},
			line: 5, at: "timeline", msg: "fetch and timeline cannot be used together"},
		{name: "no body", files: map[string]string{"f.yaml": edit(t, caseText, "    robots: \"User-agent: *\\n\"\n", "")},
			line: 2, at: "id", msg: "the case has no robots"},
		{name: "robots null", files: map[string]string{"f.yaml": edit(t, caseText, `"User-agent: *\n"`, "")},
			line: 4, col: 12, msg: `robots: want a string, got nothing (null) (write "" for an empty string)`},
		{name: "missing status", files: map[string]string{"f.yaml": edit(t, fetchText, ", status: 503", "")},
			line: 5, at: "{", msg: "the response has no status (and no fault)"},
		{name: "status range", files: map[string]string{"f.yaml": edit(t, fetchText, "503", "1000")},
			line: 5, at: "1000", msg: "status 1000: want 100 to 999"},
		{name: "status as string", files: map[string]string{"f.yaml": edit(t, fetchText, "503", `"503"`)},
			line: 5, at: `"503"`, msg: "status: want an integer, got a string"},
		{name: "bad fault", files: map[string]string{"f.yaml": edit(t, fetchText, "status: 503", "fault: crash")},
			line: 5, at: "crash", msg: `bad fault "crash"`},
		{name: "bad body_base64", files: map[string]string{"f.yaml": edit(t, fetchText, "status: 503", "status: 200, body_base64: '!!'")},
			line: 5, at: "'!!'", msg: "body_base64:"},
		{name: "body and body_base64", files: map[string]string{"f.yaml": edit(t, fetchText, "status: 503", "status: 200, body: x, body_base64: eA==")},
			line: 5, at: "body_base64", msg: "body and body_base64 cannot be used together"},
		{name: "body and body_generate", files: map[string]string{"f.yaml": edit(t, fetchText, "status: 503", "status: 200, body: x, body_generate: {repeat: y, until_bytes: 9}")},
			line: 5, at: "body_generate", msg: "body and body_generate cannot be used together"},
		{name: "body_generate too big", files: map[string]string{"f.yaml": edit(t, fetchText, "status: 503", "status: 200, body_generate: {repeat: y, until_bytes: 2000000000}")},
			line: 5, at: "2000000000", msg: "until_bytes 2000000000: want 1 to 1073741824"},
		{name: "robots_generate too big", files: map[string]string{"f.yaml": edit(t, caseText, `robots: "User-agent: *\n"`, "robots_generate: {repeat: y, until_bytes: 67108865}")},
			line: 4, at: "67108865", msg: "until_bytes 67108865: want 1 to 67108864"},
		{name: "generator without repeat", files: map[string]string{"f.yaml": edit(t, caseText, `robots: "User-agent: *\n"`, "robots_generate: {until_bytes: 10}")},
			line: 4, at: "{", msg: "robots_generate has no repeat"},
		{name: "duplicate fetch url", files: map[string]string{"f.yaml": edit(t, fetchText, "    checks:", "      - {url: /robots.txt, status: 200}\n    checks:")},
			line: 6, at: "/robots.txt", msg: "url http://a.test/robots.txt is served twice (first at line 5)"},
		{name: "bad header", files: map[string]string{"f.yaml": edit(t, fetchText, "status: 503", `status: 503, headers: {"Bad Name": x}`)},
			line: 5, at: `"Bad`, msg: `bad header name "Bad Name"`},
		{name: "bad duration", files: map[string]string{"f.yaml": edit(t, timelineText, "at: 0h", "at: soon")},
			line: 5, at: "soon", msg: `at: bad duration "soon"`},
		{name: "duration without unit", files: map[string]string{"f.yaml": edit(t, fetchText, "status: 503", "status: 200, delay: 5")},
			line: 5, at: "5}", msg: `delay: bad duration "5"`},
		{name: "negative delay", files: map[string]string{"f.yaml": edit(t, fetchText, "status: 503", "status: 200, delay: -1s")},
			line: 5, at: "-1s", msg: `delay: bad duration "-1s"`},
		{name: "steps out of order", files: map[string]string{"f.yaml": edit(t, timelineText, "at: 0h", "at: 2h") + "      - {at: 1h, response: {status: 200}, checks: [{agent: a, url: /, expect: allow}]}\n"},
			line: 8, at: "1h", msg: "at 1h is earlier than the step before (2h)"},
		{name: "timeline without checks", files: map[string]string{"f.yaml": edit(t, timelineText, "checks: [{agent: a, url: /, expect: allow}]", "checks: []")},
			line: 5, col: 7, msg: "no step of the timeline has checks"},
		{name: "checks beside timeline", files: map[string]string{"f.yaml": timelineText + "    checks: [{agent: a, url: /, expect: allow}]\n"},
			line: 8, at: "checks", msg: "a timeline case has its checks in its steps"},
		{name: "YAML syntax", files: map[string]string{"f.yaml": edit(t, caseText, "expect: allow}", "expect: allow")},
			line: 6, at: "{", msg: "YAML syntax: did not find expected ',' or '}'"},
		{name: "YAML syntax, scanner", files: map[string]string{"f.yaml": edit(t, caseText, "id: x", "id: @x")},
			line: 2, at: "-", msg: "YAML syntax: found character that cannot start any token"},
		{name: "tab indentation", files: map[string]string{"f.yaml": edit(t, caseText, "    robots:", "\trobots:")},
			line: 4, col: 2, msg: "a tab indents this line"},
		{name: "misspelt key, one message", files: map[string]string{"f.yaml": edit(t, caseText, "expect: allow", "expct: allow")},
			line: 6, at: "expct", msg: `did you mean "expect"?`},
		{name: "not a mapping", files: map[string]string{"f.yaml": "- id: x\n"},
			line: 1, at: "-", msg: `want a mapping with the key "cases", got a list`},
		{name: "no cases key", files: map[string]string{"f.yaml": "{}\n"},
			line: 1, at: "{", msg: `the file has no "cases" key`},
		{name: "cases not a list", files: map[string]string{"f.yaml": "cases: x\n"},
			line: 1, at: "x", msg: "cases: want a list, got a string"},
		{name: "empty cases", files: map[string]string{"f.yaml": "cases: []\n"},
			line: 1, at: "[]", msg: "the file has no cases"},
		{name: "case not a mapping", files: map[string]string{"f.yaml": "cases:\n  - just text\n"},
			line: 2, at: "just", msg: "a case: want a mapping, got a string"},
		{name: "title not a string", files: map[string]string{"f.yaml": edit(t, caseText, "    robots:", "    title: 2024-01-01\n    robots:")},
			line: 4, at: "2024", msg: "title: want a string, got the timestamp 2024-01-01 (quote it to make it a string)"},
		{name: "alias", files: map[string]string{"f.yaml": edit(t, caseText, "expect: allow}", "expect: allow}\n      - {agent: &a b, url: /, expect: *a}")},
			line: 7, at: "*a", msg: "aliases are not supported"},
		{name: "two documents", files: map[string]string{"f.yaml": caseText + "---\n" + caseText},
			line: 7, at: "---", msg: "a second YAML document"},
		// .yml and upper-case extensions are case files too: not skipped.
		{name: "yml extension", files: map[string]string{"f.yaml": caseText, "g.YML": caseText}, file: "g.YML",
			line: 2, at: "x", msg: "duplicate id"},
		{name: "empty file", files: map[string]string{"f.yaml": ""},
			msg: "empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, text := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(text)}
			}
			file := tc.file
			if file == "" {
				file = "f.yaml"
			}
			want := "src/" + file + ": "
			if tc.line > 0 {
				text := tc.files[file]
				lines := strings.Split(text, "\n")
				if tc.line > len(lines) {
					t.Fatalf("line %d: the file has %d lines", tc.line, len(lines))
				}
				col := tc.col
				if col == 0 {
					col = strings.Index(lines[tc.line-1], tc.at) + 1
					if col == 0 {
						t.Fatalf("%q is not on line %d: %q", tc.at, tc.line, lines[tc.line-1])
					}
				}
				want = fmt.Sprintf("src/%s:%d:%d: ", file, tc.line, col)
			}
			cs, err := Load(fsys, "src")
			if err == nil {
				t.Fatalf("Load succeeded with %d cases; want an error %s...%s", len(cs), want, tc.msg)
			}
			if cs != nil {
				t.Errorf("Load returned %d cases with its error; want none", len(cs))
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], want) || !strings.Contains(lines[0], tc.msg) {
				t.Errorf("Load error:\n%s\nwant one line: %s...%s", err, want, tc.msg)
			}
			var le *LoadError
			if !errors.As(err, &le) || le.File != "src/"+file {
				t.Errorf("errors.As(*LoadError) = %v, %+v; want a LoadError for src/%s", le != nil, le, file)
			}
		})
	}
}

// TestLoadErrorsCollected checks that the errors of several files are all
// reported, sorted by file and position.
func TestLoadErrorsCollected(t *testing.T) {
	fsys := fstest.MapFS{
		"b.yaml": {Data: []byte(edit(t, edit(t, caseText, "id: x", "id: y"), "expect: allow", "expect: no"))},
		"a.yaml": {Data: []byte(edit(t, edit(t, caseText, "url: /", "url: rel"), "[UA-2]", "[UA-99]"))},
	}
	_, err := Load(fsys, "")
	if err == nil {
		t.Fatal("Load succeeded; want errors")
	}
	want := []string{
		`a.yaml:3:11: unknown requirement ID "UA-99" (see corpus/requirements.yaml)`,
		`a.yaml:6:25: url: "rel" is neither an absolute URL (http://host/path) nor a path starting with "/"`,
		`b.yaml:6:36: expect: bad verdict "no" (want allow or disallow)`,
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	// The same input gives the same message every time.
	_, again := Load(fsys, "")
	if again.Error() != err.Error() {
		t.Errorf("second Load gave different errors:\n%v\nthen\n%v", err, again)
	}
}

func TestLoadSourcesUniqueIDs(t *testing.T) {
	one := fstest.MapFS{"f.yaml": {Data: []byte(caseText)}}
	two := fstest.MapFS{"deep/f.yaml": {Data: []byte(caseText)}}
	_, err := LoadSources(Source{one, "first"}, Source{two, "second"})
	want := `second/deep/f.yaml:2:9: duplicate id "x" (first at first/f.yaml:2:9)`
	if err == nil || err.Error() != want {
		t.Errorf("LoadSources error = %v; want %s", err, want)
	}
	other := fstest.MapFS{"f.yaml": {Data: []byte(edit(t, caseText, "id: x", "id: y"))}}
	cs, err := LoadSources(Source{one, "first"}, Source{other, "second"})
	if err != nil {
		t.Fatalf("LoadSources: %v", err)
	}
	if diff := cmp.Diff([]string{"x", "y"}, ids(cs)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if _, err := LoadSources(Source{fstest.MapFS{"x.txt": {}}, "empty"}); err == nil || !strings.Contains(err.Error(), "no case files") {
		t.Errorf("LoadSources of a tree without case files: error %v; want \"no case files\"", err)
	}
}

func TestLoadDirs(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "area"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "area", "c.yaml"), []byte(caseText), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := LoadDirs(dir)
	if err != nil {
		t.Fatalf("LoadDirs: %v", err)
	}
	if len(cs) != 1 || cs[0].Source != filepath.ToSlash(dir)+"/area/c.yaml:2" {
		t.Errorf("LoadDirs = %+v; want one case from %s/area/c.yaml:2", cs, dir)
	}
	if _, err := LoadDirs(filepath.Join(dir, "missing")); err == nil {
		t.Error("LoadDirs of a missing directory succeeded")
	}
	if _, err := LoadDirs(filepath.Join(dir, "area", "c.yaml")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("LoadDirs of a file: error %v; want \"not a directory\"", err)
	}
}

// TestLoadEmbedded loads the corpus compiled into the binary: it must load
// without a single error.
func TestLoadEmbedded(t *testing.T) {
	cs, err := LoadEmbedded()
	if err != nil {
		t.Fatalf("the embedded corpus does not load:\n%v", err)
	}
	if len(cs) == 0 {
		t.Fatal("the embedded corpus has no cases")
	}
	reqs, err := Requirements()
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]int{}
	checks := 0
	for _, c := range cs {
		for _, r := range c.Req {
			covered[r]++
		}
		checks += len(c.AllChecks())
	}
	var holes []string
	for _, r := range reqs {
		if covered[r.ID] == 0 {
			holes = append(holes, r.ID)
		}
	}
	t.Logf("%d cases, %d checks; requirements without cases: %v", len(cs), checks, holes)
}

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "0", want: 0},
		{in: "0h", want: 0},
		{in: "25h", want: 25 * time.Hour},
		{in: "90m", want: 90 * time.Minute},
		{in: "1h30m", want: 90 * time.Minute},
		{in: "30d", want: 30 * 24 * time.Hour},
		{in: "1d12h", want: 36 * time.Hour},
		{in: "0d", want: 0},
		{in: "100000d", want: 100000 * 24 * time.Hour},
		{in: "100001d", bad: true},
		{in: "5", bad: true},
		{in: "-1h", bad: true},
		{in: "+1h", bad: true},
		{in: "1d-1h", bad: true},
		{in: "d", bad: true},
		{in: "1.5d", bad: true},
		{in: "", bad: true},
		{in: "soon", bad: true},
		{in: "99999999999999h", bad: true},
	} {
		got, err := parseDuration(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("parseDuration(%q) = %v; want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func ids(cs []Case) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func TestSelect(t *testing.T) {
	cs := []Case{
		{ID: "merge/two-groups", Req: []string{"UA-3"}, Profile: result.ProfileRFC},
		{ID: "match/longest/allow-inside", Req: []string{"MATCH-4", "MATCH-10"}, Profile: result.ProfileRFC},
		{ID: "match/dollar", Req: []string{"SPC-2"}, Profile: result.ProfileRFC},
		{ID: "google/ua-cut", Req: []string{"G-UA"}, Profile: result.ProfileGoogle},
		{ID: "http/redirect/five", Req: []string{"ACC-3"}, Profile: result.ProfileRFC},
	}
	for _, tc := range []struct {
		name      string
		profile   string
		run, skip []string
		want      []string
	}{
		{name: "all", want: ids(cs)},
		{name: "profile", profile: result.ProfileGoogle, want: []string{"google/ua-cut"}},
		{name: "req glob", run: []string{"MATCH-*"}, want: []string{"match/longest/allow-inside"}},
		{name: "req exact", run: []string{"SPC-2"}, want: []string{"match/dollar"}},
		{name: "star crosses slash", run: []string{"match/*"}, want: []string{"match/longest/allow-inside", "match/dollar"}},
		// One syntax with expected-failure files (package expect):
		// an inner "*" crosses '/' too, and "[" or "\\" are literal.
		{name: "inner star too", run: []string{"*/five"}, want: []string{"http/redirect/five"}},
		{name: "question mark", run: []string{"match/dolla?"}, want: []string{"match/dollar"}},
		{name: "no classes", run: []string{"match/[d]ollar"}, want: nil},
		{name: "skip", run: []string{"match/*", "merge/*"}, skip: []string{"MATCH-10"}, want: []string{"merge/two-groups", "match/dollar"}},
		{name: "skip only", skip: []string{"*"}, want: nil},
		{name: "profile and run", profile: result.ProfileRFC, run: []string{"UA-*", "MATCH-*", "ACC-*", "G-*"}, want: []string{"merge/two-groups", "match/longest/allow-inside", "http/redirect/five"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Select(cs, tc.profile, tc.run, tc.skip)
			if diff := cmp.Diff(tc.want, ids(got)); diff != "" {
				t.Errorf("Select (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"merge/two", "merge/two", true},
		{"merge/*", "merge/two/three", true},
		{"*", "", true},
		{"m?rge/*", "merge/x", true},
		{"merge/*", "mergex/y", false},
		{"*-agent", "merge/two-groups-same-agent", true},
		{"*a*b*c", "xxaxxbxxc", true},
		{"*a*b*c", "xxaxxcxxb", false},
		{"a", "ab", false},
		{"ab", "a", false},
		{strings.Repeat("*a", 30) + "b", strings.Repeat("a", 60), false},
	}
	for _, tc := range tests {
		if got := Glob(tc.pattern, tc.name); got != tc.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestShard(t *testing.T) {
	var cs []Case
	for i := range 200 {
		cs = append(cs, Case{ID: fmt.Sprintf("case/%d", i)})
	}
	const n = 4
	var all []string
	for k := 1; k <= n; k++ {
		sh, err := ParseShard(fmt.Sprintf("%d/%d", k, n))
		if err != nil || sh.String() != fmt.Sprintf("%d/%d", k, n) {
			t.Fatalf("ParseShard(%d/%d) = %v, %v", k, n, sh, err)
		}
		part := sh.Cases(cs)
		if len(part) < 20 {
			t.Errorf("shard %d/%d has %d of 200 cases; the split is badly skewed", k, n, len(part))
		}
		again := sh.Cases(cs)
		if diff := cmp.Diff(ids(part), ids(again)); diff != "" {
			t.Errorf("shard %d/%d differs between calls:\n%s", k, n, diff)
		}
		// Removing other cases does not move a case to another shard.
		sub := sh.Cases(cs[:50])
		for _, c := range sub {
			if !slices.Contains(ids(part), c.ID) {
				t.Errorf("case %s moved shard when others were removed", c.ID)
			}
		}
		all = append(all, ids(part)...)
	}
	slices.Sort(all)
	want := ids(cs)
	slices.Sort(want)
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("the shards do not partition the cases (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"0/4", "5/4", "1/0", "-1/-1", "3", "a/b", "1/2/3", " 1/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) succeeded; want an error", bad)
		}
	}
	if sh, err := ParseShard(""); err != nil || len(sh.Cases(cs)) != len(cs) {
		t.Errorf("the zero shard (%v) does not hold every case", err)
	}
}

func TestParseRequirementsErrors(t *testing.T) {
	const areas = "areas:\n  - {name: a, title: A, section: '1'}\n  - {name: b, title: B, section: ''}\n"
	for _, tc := range []struct{ name, text, want string }{
		{"unknown key", areas + "requirements:\n  - {id: A-1, level: MUST, section: '1', area: a, summary: s, note: x}\n", "r.yaml:5:63: unknown key \"note\" in a requirement"},
		{"bad level", areas + "requirements:\n  - {id: A-1, level: must, section: '1', area: a, summary: s}\n", "r.yaml:5:22: bad level \"must\""},
		{"duplicate", areas + "requirements:\n  - {id: A-1, level: MUST, section: '1', area: a, summary: s}\n  - {id: A-1, level: MUST, section: '1', area: a, summary: s}\n", "r.yaml:6:5: duplicate requirement A-1 (first at line 5)"},
		{"missing", areas + "requirements:\n  - {id: A-1, level: MUST, section: '1', area: a}\n", "r.yaml:5:5: the requirement has no summary"},
		{"bad id", areas + "requirements:\n  - {id: a1, level: MUST, section: '1', area: a, summary: s}\n", "r.yaml:5:10: bad requirement id \"a1\""},
		{"empty", areas + "requirements: []\n", "r.yaml:4:15: the requirement table is empty"},
		{"unknown area", areas + "requirements:\n  - {id: A-1, level: MUST, section: '1', area: c, summary: s}\n", "r.yaml:5:48: unknown area \"c\""},
		{"prefix in two areas", areas + "requirements:\n  - {id: A-1, level: MUST, section: '1', area: a, summary: s}\n  - {id: A-2, level: MUST, section: '1', area: b, summary: s}\n", "r.yaml:6:48: area \"b\", but the other A-* requirements are in area \"a\""},
		{"no areas", "requirements:\n  - {id: A-1, level: MUST, section: '1', area: a, summary: s}\n", "r.yaml:1:1: the file has no \"areas\" key"},
		{"duplicate area", "areas:\n  - {name: a, title: A, section: ''}\n  - {name: a, title: B, section: ''}\nrequirements: []\n", "r.yaml:3:12: duplicate area \"a\""},
	} {
		_, err := ParseRequirements([]byte(tc.text), "r.yaml")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v; want one line starting %s", tc.name, err, tc.want)
		}
	}
}

// TestGeneratorSizes checks that generated bodies reach until_bytes and
// that the loader materialises robots_generate exactly.
func TestGeneratorSizes(t *testing.T) {
	text := edit(t, caseText, `robots: "User-agent: *\n"`, `robots_generate: {prefix: "User-agent: *\n", repeat: "# 1234567\n", until_bytes: 499000, suffix: "Disallow: /late\n"}`)
	cs, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(text)}}, "")
	if err != nil {
		t.Fatal(err)
	}
	body := cs[0].Robots
	if len(body) < 499000 || len(body) > 499000+10+len("Disallow: /late\n") {
		t.Errorf("generated body has %d bytes; want 499000 plus less than one repeat and the suffix", len(body))
	}
	if !strings.HasPrefix(string(body), "User-agent: *\n# 1234567\n") || !strings.HasSuffix(string(body), "# 1234567\nDisallow: /late\n") {
		t.Errorf("generated body does not have the prefix, repeat and suffix in order")
	}
}

// FuzzLoad feeds arbitrary bytes to the loader as one case file: it must
// not panic, and every error must be one line naming the file.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{caseText, fetchText, timelineText, "cases: []\n", "{", "- x", "cases:\n  - &a {id: x}\n  - *a\n"} {
		f.Add([]byte(s))
	}
	for _, name := range []string{"a/basic.yaml", "b/http.yaml"} {
		f.Add(goodFiles[name].Data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := Load(fstest.MapFS{"f.yaml": {Data: data}}, "")
		if err == nil {
			if len(cs) == 0 {
				t.Fatal("Load returned no cases and no error")
			}
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if !strings.HasPrefix(line, "f.yaml:") {
				t.Errorf("error line %q does not name the file", line)
			}
		}
	})
}

// TestLoadDirsBadCorpus loads the bad corpus in testdata/bad and compares
// every error with testdata/bad/errors.txt.
func TestLoadDirsBadCorpus(t *testing.T) {
	_, err := LoadDirs("testdata/bad")
	if err == nil {
		t.Fatal("the bad corpus loaded without errors")
	}
	want, rerr := os.ReadFile("testdata/bad/errors.txt")
	if rerr != nil {
		t.Fatal(rerr)
	}
	if diff := cmp.Diff(strings.Split(strings.TrimSpace(string(want)), "\n"), strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("errors of testdata/bad (-errors.txt +got):\n%s", diff)
	}
}

// A check whose agent is not a product token loads, marked invalid with
// its position; the rest of the file loads as usual.
func TestLoadInvalidAgent(t *testing.T) {
	text := edit(t, caseText, "      - {agent: a, url: /, expect: allow}\n", "      - {agent: a, url: /, expect: allow}\n      - {agent: MJ12bot, url: /, expect: allow}\n")
	cs, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(text)}}, "src")
	if err != nil {
		t.Fatal(err)
	}
	got := []string{cs[0].Checks[0].Invalid, cs[0].Checks[1].Invalid}
	want := []string{"", `src/f.yaml:7:17: agent "MJ12bot" is not a product token (one or more of a-z, A-Z, "_" and "-", UA-1); the check is skipped`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Invalid (-want +got):\n%s", diff)
	}
}

// Under the google profile any agent string and an empty URL load as
// given (Google's matcher takes them); the rfc9309 profile marks the agent
// invalid and refuses the empty URL. A fetch case needs a URL to fetch.
func TestLoadGoogleAgentAndURL(t *testing.T) {
	checks := "      - {agent: Foo Bar, url: /, expect: allow}\n      - {agent: a, url: \"\", expect: allow}\n"
	google := edit(t, caseText, "    req: [UA-2]\n", "    req: [UA-2]\n    profile: google\n")
	google = edit(t, google, "      - {agent: a, url: /, expect: allow}\n", checks)
	cs, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(google)}}, "src")
	if err != nil {
		t.Fatal(err)
	}
	got := [][2]string{{cs[0].Checks[0].Agent, cs[0].Checks[0].Invalid}, {cs[0].Checks[1].URL, cs[0].Checks[1].Invalid}}
	want := [][2]string{{"Foo Bar", ""}, {"", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("google checks (-want +got):\n%s", diff)
	}

	rfc := edit(t, caseText, "      - {agent: a, url: /, expect: allow}\n", checks)
	if _, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(rfc)}}, "src"); err == nil || !strings.Contains(err.Error(), `src/f.yaml:7:25: url: "" is neither an absolute URL`) {
		t.Errorf("rfc9309 profile, empty URL: err = %v", err)
	}
	fetch := edit(t, fetchText, "    req: [ACC-7]\n", "    req: [ACC-7]\n    profile: google\n")
	fetch = edit(t, fetch, "      - {agent: a, url: /, expect: disallow}", "      - {agent: a, url: \"\", expect: disallow}")
	if _, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(fetch)}}, "src"); err == nil || !strings.Contains(err.Error(), `url: "" is neither`) {
		t.Errorf("google fetch case, empty URL: err = %v", err)
	}
}

// Without host:, a timeline's first check, when absolute, names the host
// whose robots.txt is served, as a fetch case's first URL does.
func TestLoadTimelineHost(t *testing.T) {
	text := edit(t, timelineText, "checks: [{agent: a, url: /, expect: allow}]", `checks: [{agent: a, url: "https://example.org:8443/a", expect: allow}, {agent: a, url: /b, expect: allow}]`)
	cs, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(text)}}, "src")
	if err != nil {
		t.Fatal(err)
	}
	st := cs[0].Timeline[0]
	got := []string{st.Response.URL, st.Checks[0].URL, st.Checks[1].URL}
	want := []string{"https://example.org:8443/robots.txt", "https://example.org:8443/a", "https://example.org:8443/b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("URLs (-want +got):\n%s", diff)
	}
}

// A Loader checks requirement IDs and levels against the table it is
// given, not the embedded one.
func TestLoaderTable(t *testing.T) {
	src := Source{FS: fstest.MapFS{"a.yaml": {Data: []byte(caseText)}}, Name: "t"}
	own := result.Table{Requirements: []result.Requirement{{ID: "OWN-1", Level: "MUST", Area: "own"}}}
	_, err := Loader{Table: own}.Load(src)
	if err == nil || !strings.Contains(err.Error(), `unknown requirement ID "UA-2"`) {
		t.Errorf("UA-2 against a table without it: %v", err)
	}
	if _, err := (Loader{}).Load(src); err != nil {
		t.Errorf("the zero Loader checks against the embedded table: %v", err)
	}
	own.Requirements = append(own.Requirements, result.Requirement{ID: "UA-2", Level: "SHOULD", Area: "own"})
	cs, err := Loader{Table: own}.Load(src)
	if err != nil || cs[0].Level != result.SHOULD {
		t.Errorf("UA-2 as the given table's SHOULD: level %v, %v", cs, err)
	}
}
