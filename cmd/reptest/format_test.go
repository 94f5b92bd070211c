package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// formatSections reads docs/FORMAT.md into its sections, by heading
// ("4. Findings", "4.2 The diff summary"), each with its text.
func formatSections(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../docs/FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var head string
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			head = h
		} else if h, ok := strings.CutPrefix(line, "### "); ok {
			head = h
		} else if head != "" {
			out[head] += line + "\n"
		}
	}
	return out
}

var (
	backticked = regexp.MustCompile("`\"?([a-z][A-Za-z0-9_]*)\"?`")
	braced     = regexp.MustCompile("`\\{([^`]*)\\}`")
	word       = regexp.MustCompile(`[a-z][a-z0-9_]*`)
	jsonKey    = regexp.MustCompile(`"([a-z][A-Za-z0-9_]*)":`)
	tableFirst = regexp.MustCompile("(?m)^\\| (`[^|]*)\\|")
)

// docKeys returns the keys the sections name: every backticked word and
// every key of their JSON examples; and the keys in the first column of
// their tables, which a document must be able to write.
func docKeys(t *testing.T, secs map[string]string, names, tables []string) (named, tabled map[string]bool) {
	t.Helper()
	named, tabled = map[string]bool{}, map[string]bool{}
	for _, n := range names {
		var text string
		for h, s := range secs {
			if strings.HasPrefix(h, n) {
				text += s
			}
		}
		if text == "" {
			t.Fatalf("docs/FORMAT.md has no section %q", n)
		}
		for _, re := range []*regexp.Regexp{backticked, jsonKey} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				named[m[1]] = true
			}
		}
		// An object's keys in one span: `{file, line, message}`.
		for _, m := range braced.FindAllStringSubmatch(text, -1) {
			for _, w := range word.FindAllString(m[1], -1) {
				named[w] = true
			}
		}
		if tables != nil && !slices.Contains(tables, n) {
			continue
		}
		for _, m := range tableFirst.FindAllStringSubmatch(text, -1) {
			for _, k := range backticked.FindAllStringSubmatch(m[1], -1) {
				tabled[k[1]] = true
			}
		}
	}
	return named, tabled
}

// writtenKeys adds the key names of the JSON value v, at any depth, to
// keys; the children of the keys in maps are data (parser names, IDs),
// not keys.
func writtenKeys(v any, maps map[string]bool, keys map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			keys[k] = true
			if !maps[k] {
				writtenKeys(c, maps, keys)
			}
		}
	case []any:
		for _, c := range x {
			writtenKeys(c, maps, keys)
		}
	}
}

// readJSON reads a JSON file, or JSON lines when lines is set, into keys.
func readJSON(t *testing.T, path string, lines bool, maps, keys map[string]bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	docs := [][]byte{b}
	if lines {
		docs = nil
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			docs = append(docs, append([]byte(nil), sc.Bytes()...))
		}
	}
	if len(docs) == 0 {
		t.Fatalf("%s: nothing written", path)
	}
	for _, d := range docs {
		var v any
		if err := json.Unmarshal(d, &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		writtenKeys(v, maps, keys)
	}
}

// formatRun runs reptest with args in dir and fails unless it exits with
// one of codes.
func formatRun(t *testing.T, args []string, codes ...int) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), args, &stdout, &stderr)
	if !slices.Contains(codes, code) {
		t.Fatalf("reptest %s: exit status %d, want %v\n%s", strings.Join(args, " "), code, codes, stderr.String())
	}
	return stdout.Bytes()
}

// formatDoc is one JSON document reptest writes, the sections of
// docs/FORMAT.md that specify it, and how the test makes it.
type formatDoc struct {
	name     string
	sections []string
	// tables, when set, are the sections whose tables list keys this
	// document writes; nil means all of sections.
	tables []string
	// maps are keys whose values are maps keyed by data.
	maps map[string]bool
	// unwritten are keys the sections list that this test's runs do not
	// make, each with the condition that writes it.
	unwritten map[string]string
	// write writes the document(s) into dir and returns their keys.
	write func(t *testing.T, dir string, keys map[string]bool)
}

// TestFormatDocumentsEveryKey writes every JSON document reptest writes
// and checks its keys against docs/FORMAT.md: a key written but named
// nowhere in the document's sections fails, and so does a key in the
// first column of a section's table that no run writes (unless listed as
// written only under a condition this test does not make).
func TestFormatDocumentsEveryKey(t *testing.T) {
	secs := formatSections(t)
	for _, d := range formatDocs() {
		t.Run(d.name, func(t *testing.T) {
			named, tabled := docKeys(t, secs, d.sections, d.tables)
			keys := map[string]bool{}
			d.write(t, t.TempDir(), keys)
			var undocumented, unwritten []string
			for k := range keys {
				if !named[k] {
					undocumented = append(undocumented, k)
				}
			}
			for k := range tabled {
				if !keys[k] && d.unwritten[k] == "" {
					unwritten = append(unwritten, k)
				}
			}
			sort.Strings(undocumented)
			sort.Strings(unwritten)
			if len(undocumented) > 0 {
				t.Errorf("keys written but not in docs/FORMAT.md %q: %s", d.sections, strings.Join(undocumented, ", "))
			}
			if len(unwritten) > 0 {
				t.Errorf("keys in the tables of docs/FORMAT.md %q that were not written: %s", d.sections, strings.Join(unwritten, ", "))
			}
		})
	}
}

// formatCorpus writes a corpus of one passing and one failing case into
// dir and returns its folder.
func formatCorpus(t *testing.T, dir string) string {
	t.Helper()
	c := filepath.Join(dir, "corpus")
	os.MkdirAll(c, 0o755)
	yaml := goodCase + `  - id: t/two
    req: [MATCH-4]
    title: a crawl-delay line before the group
    robots: "Crawl-delay: 5\nUser-agent: *\nDisallow: /private\n"
    checks:
      - {agent: FooBot, url: /private/report, expect: disallow}
`
	if err := os.WriteFile(filepath.Join(c, "a.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

// formatInputs writes three robots.txt files on which the reference and
// temoto disagree into dir and returns its folder.
func formatInputs(t *testing.T, dir string) string {
	t.Helper()
	in := filepath.Join(dir, "inputs")
	os.MkdirAll(in, 0o755)
	for name, body := range map[string]string{
		"a.txt": "User-agent: *\nDisallow: /a\nAllow: /a/b\n",
		"b.txt": "User-agent: *\nDisallow: /a\nAllow: /a/b\n", // a duplicate
		"c.txt": "User-agent: FooBot\nDisallow: /x*y$\n\nUser-agent: *\nDisallow: /\n",
	} {
		if err := os.WriteFile(filepath.Join(in, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return in
}

func formatDocs() []formatDoc {
	diffArgs := func(t *testing.T, dir string) []string {
		return []string{"diff", "--parser", "reference", "--parser", "temoto", "--inputs", formatInputs(t, dir),
			"--no-cache", "--quiet", "--json", filepath.Join(dir, "f.jsonl"), "--summary", filepath.Join(dir, "s.json"),
			"--report", filepath.Join(dir, "r.json")}
	}
	findingMaps := map[string]bool{"verdicts": true, "source_lines": true, "apart": true}
	return []formatDoc{
		{name: "findings", sections: []string{"4. Findings"}, maps: findingMaps,
			unwritten: map[string]string{"profile": "the google profile"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				formatRun(t, diffArgs(t, dir), exitOK)
				readJSON(t, filepath.Join(dir, "f.jsonl"), true, findingMaps, keys)
			}},
		{name: "summary", sections: []string{"4. Findings", "4.2"}, maps: findingMaps,
			unwritten: map[string]string{"profile": "the google profile"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				formatRun(t, diffArgs(t, dir), exitOK)
				readJSON(t, filepath.Join(dir, "s.json"), false, findingMaps, keys)
			}},
		{name: "diff report", sections: []string{"4. Findings", "4.2", "4.3", "5. The results", "9. The diagnosis"},
			tables: []string{"4. Findings", "4.2", "4.3", "9. The diagnosis"}, maps: findingMaps,
			unwritten: map[string]string{"profile": "the google profile", "unrecorded": "merging a report of an older version"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				formatRun(t, diffArgs(t, dir), exitOK)
				r, m := filepath.Join(dir, "r.json"), filepath.Join(dir, "m.json")
				readJSON(t, r, false, findingMaps, keys)
				// The merge of two shards' reports is a report too.
				formatRun(t, []string{"report", "--quiet", "--merge-out", m, r, r}, exitOK)
				readJSON(t, m, false, findingMaps, keys)
			}},
		{name: "results", sections: []string{"5. The results", "1.3", "9. The diagnosis"},
			maps: map[string]bool{"cases": true, "usage": true, "expect_usage": true},
			unwritten: map[string]string{
				"drafts": "the aipref profile", "findings": "documents of older versions", "audit": "reptest audit",
				"crawls": "reptest crawl", "crawl_layout": "reptest crawl", "crawl_layout_note": "reptest crawl in the ports layout",
				"expected": "--expect", "unexpected_passes": "--expect",
				"interrupted": "an interrupted run", "interrupt_reason": "an interrupted run",
				"summary": "reptest diff --report", "run": "reptest diff --report", "reference": "reptest diff --report"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				out := filepath.Join(dir, "r.json")
				formatRun(t, []string{"run", "--corpus", formatCorpus(t, dir), "--parser", "reference", "--parser", "temoto",
					"--strict", "--quiet", "--json", out}, exitFail)
				readJSON(t, out, false, map[string]bool{"cases": true}, keys)
			}},
		{name: "crawl", sections: []string{"5. The results", "1.3", "9. The diagnosis", "12. Crawl timelines"},
			tables: []string{"12. Crawl timelines"}, maps: map[string]bool{"cases": true},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				wget, err := exec.LookPath("wget")
				if err != nil {
					t.Skip("the crawl's document needs a crawler: install wget (Debian package wget)")
				}
				out := filepath.Join(dir, "c.json")
				// wget with robots=off fetches the disallowed pages, so the
				// run fails and its timeline is written.
				formatRun(t, []string{"crawl", "--crawler", wget + " -q -r -l 2 -e robots=off -P {dir} {url}", "--name", "wget",
					"--run", "access/status-200-rules-apply", "--run", "access/status-503-unreachable", "--json", out, "--quiet"}, exitFail)
				readJSON(t, out, false, map[string]bool{"cases": true}, keys)
				// A crawler that makes no request: the run does not count.
				formatRun(t, []string{"crawl", "--crawler", "sh -c 'exit 0'", "--name", "idle",
					"--run", "access/status-200-rules-apply", "--json", out, "--quiet"}, exitFail)
				readJSON(t, out, false, map[string]bool{"cases": true}, keys)
			}},
		{name: "audit", sections: []string{"5. The results", "1.3", "7.1", "7.2"}, tables: []string{"7.1"},
			maps: map[string]bool{"cases": true, "by_requirement": true, "uncertain_by_requirement": true},
			unwritten: map[string]string{
				"requests_file": "--requests", "judged_omitted": "more than 100,000 requests", "verifying": "--verified-ranges"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				robots := filepath.Join(dir, "robots.txt")
				os.WriteFile(robots, []byte("User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nAllow: /\n"), 0o644)
				out := filepath.Join(dir, "a.json")
				formatRun(t, []string{"audit", "--robots", robots, "--log", "../../accesslog/testdata/access.log", "--json", out, "--quiet"}, exitFail)
				readJSON(t, out, false, map[string]bool{"cases": true, "by_requirement": true, "uncertain_by_requirement": true}, keys)
			}},
		{name: "request records", sections: []string{"7.2"},
			unwritten: map[string]string{"span_seconds": "a bucket (cloudflare-graphql)", "verified": "a log with a verified-bot field",
				"could_break": "an uncertain bucket"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				robots := filepath.Join(dir, "robots.txt")
				os.WriteFile(robots, []byte("User-agent: *\nDisallow: /go/\n"), 0o644)
				out := filepath.Join(dir, "req.jsonl")
				formatRun(t, []string{"audit", "--robots", robots, "--log", "../../accesslog/testdata/access.log", "--requests", out, "--quiet"}, exitOK, exitFail)
				readJSON(t, out, true, nil, keys)
			}},
		{name: "badges", sections: []string{"13. Badges"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				badges := filepath.Join(dir, "badges")
				formatRun(t, []string{"run", "--corpus", formatCorpus(t, dir), "--parser", "reference", "--parser", "temoto",
					"--quiet", "--badge", badges}, exitFail)
				files, _ := filepath.Glob(filepath.Join(badges, "*.json"))
				if len(files) != 2 {
					t.Fatalf("badges %q, want two", files)
				}
				for _, f := range files {
					readJSON(t, f, false, nil, keys)
				}
			}},
		{name: "doctor", sections: []string{"6. The setup"},
			unwritten: map[string]string{"install_steps": "--install", "npm": "a Node peer missing", "npm_dirs": "a Node peer or crawler missing", "apt": "a Debian package missing"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				out := filepath.Join(dir, "d.json")
				b := formatRun(t, []string{"doctor", "--json", "--parser", "reference", "--parser", "protego"}, exitOK, exitFail)
				os.WriteFile(out, b, 0o644)
				readJSON(t, out, false, nil, keys)
			}},
		{name: "variants", sections: []string{"8. Misreadings"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				out := filepath.Join(dir, "v.json")
				os.WriteFile(out, formatRun(t, []string{"variants", "--json"}, exitOK), 0o644)
				readJSON(t, out, false, nil, keys)
			}},
		{name: "list", sections: []string{"10. The case list", "1.3"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				out := filepath.Join(dir, "l.json")
				os.WriteFile(out, formatRun(t, []string{"list", "--json"}, exitOK), 0o644)
				readJSON(t, out, false, nil, keys)
			}},
		{name: "matrix", sections: []string{"11. The verdict matrix"},
			maps: map[string]bool{"usage": true},
			unwritten: map[string]string{"usage": "the aipref profile", "drafts": "the aipref profile", "unnamed": "--agent naming no group",
				"fixes": "a star-not-inherited warning"},
			write: func(t *testing.T, dir string, keys map[string]bool) {
				robots := filepath.Join(dir, "robots.txt")
				os.WriteFile(robots, []byte("Disallow: /x\nUser-agent: *\nDisallow: /a\nAllow: /a/b\nSitemap: https://e.com/s.xml\n\nUser-agent: FooBot\nDisallow: /c\n"), 0o644)
				out := filepath.Join(dir, "m.json")
				os.WriteFile(out, formatRun(t, []string{"matrix", "--json", robots}, exitOK, exitFail), 0o644)
				readJSON(t, out, false, map[string]bool{"usage": true}, keys)
			}},
	}
}
