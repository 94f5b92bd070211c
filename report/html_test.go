package report

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func renderHTML(t *testing.T, d *result.Document, o HTMLOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if len(o.Table.Areas) == 0 {
		o.Table = builtin()
	}
	if err := WriteHTML(&buf, d, o); err != nil {
		t.Fatalf("WriteHTML: %v", err)
	}
	return buf.String()
}

func TestHTMLGolden(t *testing.T) {
	d := fixtureDoc()
	d.Diagnosis = fixtureDiagnosis() // the page leads with its table
	got := renderHTML(t, d, HTMLOptions{Title: "reptest fixture"})
	golden := filepath.Join("testdata", "report.golden.html")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./report -run TestHTMLGolden -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("HTML report differs from %s (-want +got); run with -update if the change is intended:\n%s", golden, diff)
	}
}

// tag is one start or end tag of an HTML page, as scanTags reads it.
type tag struct {
	name    string
	end     bool
	attrs   map[string]string // values with character references decoded
	content string            // the raw text of script and style elements
}

// scanTags reads the tags of a page written by WriteHTML. It is not an
// HTML parser: it reads "<" followed by a letter, "/" or "!" as markup,
// double-quoted and unquoted attribute values, and skips the raw text of
// script and style elements (which it returns as content). That is
// enough to see what a browser would take for markup in this output,
// because html/template writes every attribute value in double quotes.
func scanTags(t *testing.T, s string) []tag {
	t.Helper()
	var tags []tag
	for i := 0; i < len(s); i++ {
		if s[i] != '<' || i+1 >= len(s) {
			continue
		}
		c := s[i+1]
		switch {
		case c == '!':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				t.Fatalf("unterminated <! at %d", i)
			}
			i += j
			continue
		case c != '/' && !isLetter(c):
			continue
		}
		tg := tag{attrs: map[string]string{}}
		j := i + 1
		if s[j] == '/' {
			tg.end = true
			j++
		}
		k := j
		for k < len(s) && (isLetter(s[k]) || s[k] >= '0' && s[k] <= '9' || s[k] == '-') {
			k++
		}
		tg.name = strings.ToLower(s[j:k])
		for {
			for k < len(s) && (s[k] == ' ' || s[k] == '\n' || s[k] == '\t') {
				k++
			}
			if k >= len(s) {
				t.Fatalf("unterminated tag %q", tg.name)
			}
			if s[k] == '>' {
				break
			}
			if s[k] == '/' && k+1 < len(s) && s[k+1] == '>' {
				k++
				break
			}
			var name, val string
			name, val, k = scanAttr(t, s, k, tg.name)
			if name == "" {
				t.Fatalf("empty attribute name in %s at %d: %q", tg.name, k, s[i:min(k+20, len(s))])
			}
			tg.attrs[name] = html.UnescapeString(val)
		}
		i = k
		if !tg.end && (tg.name == "script" || tg.name == "style") {
			closing := "</" + tg.name
			e := strings.Index(strings.ToLower(s[i:]), closing)
			if e < 0 {
				t.Fatalf("unterminated %s", tg.name)
			}
			tg.content = s[i+1 : i+e]
			i += e - 1
		}
		tags = append(tags, tg)
	}
	return tags
}

// scanAttr reads the attribute at s[k:] of the element named elem and
// returns its name, its raw value and the index after it.
func scanAttr(t *testing.T, s string, k int, elem string) (name, val string, next int) {
	t.Helper()
	a := k
	for k < len(s) && !strings.ContainsRune("= \n\t>/", rune(s[k])) {
		k++
	}
	name = strings.ToLower(s[a:k])
	if k < len(s) && s[k] == '=' {
		k++
		if s[k] == '"' {
			e := strings.IndexByte(s[k+1:], '"')
			if e < 0 {
				t.Fatalf("unterminated attribute %s of %s", name, elem)
			}
			return name, s[k+1 : k+1+e], k + e + 2
		}
		b := k
		for k < len(s) && !strings.ContainsRune(" \n\t>", rune(s[k])) {
			k++
		}
		val = s[b:k]
	}
	return name, val, k
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// allowedTags are the elements WriteHTML writes.
var allowedTags = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`html head meta title style body header h1 h2 h3 p b nav a div label select option
		button span main section table thead tbody tr th td svg path rect line text article code dl dt dd pre br
		footer output script ul li small details summary template`) {
		allowedTags[n] = true
	}
}

// hostile is text that would become markup, script, or misleading
// display if it were not escaped.
var hostile = strings.Join([]string{
	`<script>alert(1)</script>`,
	`</style><script>alert(2)</script>`,
	`"onerror="alert(3)`,
	`' onmouseover='alert(4)`,
	`javascript:alert(5)`,
	"\u202Egnp.exe\u202C",
	"\u2066iso\u2069 \u200F\u061C",
	`</textarea><img src=x onerror=alert(6)>`,
	`<!-- --> <![CDATA[ ]]> {{.}} ${x}`,
	"\x1b[31m\x00\x7f\u2028",
}, " ")

// hostileDoc puts the hostile text in every field a report shows, with a
// 1 MB line in the robots.txt body and the URL.
func hostileDoc() *result.Document {
	long := strings.Repeat("A", 1<<20)
	id := "evil/" + hostile
	parser := "parser" + hostile
	res := result.Result{Case: id, Check: 0, Parser: parser, Agent: hostile, URL: "javascript:alert(7)" + hostile + long,
		Expect: result.Verdict(hostile), Verdict: result.Verdict(hostile), Outcome: result.Violation, Level: result.Level(hostile),
		Req: []string{"UA-3", hostile}, Profile: hostile, Title: hostile, Detail: hostile + "\n" + long, Trace: hostile, Step: hostile}
	res2 := res
	res2.Case = "http/" + hostile
	res2.Outcome = result.Error
	d := &result.Document{
		Tool: result.Tool, Version: hostile, Profile: hostile,
		Parsers: []result.Summary{{Name: parser, Version: hostile}},
		Results: []result.Result{res, res2},
		Cases: map[string]*result.CaseInfo{
			id: {Title: hostile, Source: hostile, Profile: hostile,
				Robots: &result.Body{Text: hostile + "\n" + long + "\nDisallow: /x\u202E\n", Size: 3 << 20},
				Checks: []result.CheckInfo{{Line: 2, Trace: hostile}}},
			res2.Case: {Title: hostile, Fetch: []result.Served{{URL: "javascript:alert(8)" + hostile, Status: 301,
				Headers: map[string]string{hostile: hostile}, Fault: hostile, Delay: hostile,
				Body: &result.Body{B64: base64.StdEncoding.EncodeToString([]byte("\xff\xfe" + hostile)), Size: 9, Generated: hostile}}},
				Checks: []result.CheckInfo{{Line: 1, Response: 1, Trace: hostile}}},
		},
		Requirements: []result.Requirement{{ID: hostile, Section: "javascript:alert(9)", Summary: hostile, Level: hostile, Area: hostile}},
		Findings: []result.Finding{{Input: result.Input{Robots: []byte(hostile + "\n" + long), Agent: hostile, URL: hostile, Profile: hostile},
			Verdicts: map[string]result.Verdict{parser: "allow", "reference": result.Verdict(hostile)}, Signature: hostile, Req: []string{hostile},
			Sources: []string{hostile}, Trace: hostile}},
		Expected:   []result.ExpectedFailure{{Parser: parser, Case: id, Check: 0, Pattern: hostile, Reason: hostile, Link: "javascript:alert(10)"}},
		Unexpected: []result.UnexpectedPass{{Parser: hostile, Cases: []string{hostile}, Reason: hostile, Link: "javascript:alert(11)"}},
	}
	d.Summarize()
	return d
}

func TestHTMLEscapesHostileInput(t *testing.T) {
	run := &result.RunInfo{Command: hostile, Date: hostile, Profile: hostile, Inputs: []string{hostile},
		Parsers: []result.Info{{Name: "parser" + hostile, Version: hostile, Runtime: hostile}, {Name: "reference", Version: hostile}}}
	s := &result.DiffSummary{Parsers: []string{"parser" + hostile, "reference"}, Probes: 3,
		Areas: []result.AreaStat{{Area: hostile, Probes: 3, Agreed: 1, Apart: map[string]int{"parser" + hostile: 2}}}}
	out := renderHTML(t, withDiff(hostileDoc(), run, s), HTMLOptions{Title: hostile})

	if len(out) > 1<<20 {
		t.Errorf("page is %d bytes: long values are not cut", len(out))
	}
	lower := strings.ToLower(out)
	for _, c := range []struct {
		s    string
		want int
	}{{"<script", 3}, {"</script", 3}, {"<style", 1}, {"</style", 1}, {"<img", 0}, {"<textarea", 0}, {"</textarea", 0}, {"<!--", 0}, {"<![cdata[", 0}} {
		if n := strings.Count(lower, c.s); n != c.want {
			t.Errorf("%q occurs %d times, want %d", c.s, n, c.want)
		}
	}

	tags := scanTags(t, out)
	var scripts, styles []tag
	for _, tg := range tags {
		checkHostileTag(t, tg)
		if !tg.end && tg.name == "script" {
			scripts = append(scripts, tg)
		}
		if !tg.end && tg.name == "style" {
			styles = append(styles, tg)
		}
	}

	// The only scripts are the JSON data blocks (filters, findings) and
	// the report's own code; the data is JSON, ASCII only.
	if len(scripts) != 3 || scripts[0].attrs["type"] != "application/json" || scripts[1].attrs["type"] != "application/json" || scripts[2].content != htmlJS {
		t.Fatalf("scripts are not [data, findings, code]: %d scripts", len(scripts))
	}
	for _, s := range scripts[:2] {
		var data any
		if err := json.Unmarshal([]byte(s.content), &data); err != nil {
			t.Errorf("data block %s is not JSON: %v", s.attrs["id"], err)
		}
		for _, r := range s.content {
			if r >= 0x80 || r == '<' || r == '>' {
				t.Errorf("data block %s holds %U", s.attrs["id"], r)
				break
			}
		}
	}
	if len(styles) != 1 || styles[0].content != htmlCSS {
		t.Errorf("style element is not the report's stylesheet")
	}

	// The CSP admits exactly this script and style.
	var csp string
	for _, tg := range tags {
		if tg.name == "meta" && tg.attrs["http-equiv"] == "Content-Security-Policy" {
			csp = tg.attrs["content"]
		}
	}
	for _, want := range []string{"default-src 'none'", "script-src " + cspHash(scripts[2].content), "style-src " + cspHash(styles[0].content), "img-src data:"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}

	checkVisibleEscapes(t, out)
}

// checkHostileTag checks that an element of the page rendered from hostile
// input is one WriteHTML writes, with no handler, style or source
// attribute, no input in its attributes and no link off https.
func checkHostileTag(t *testing.T, tg tag) {
	t.Helper()
	if !allowedTags[tg.name] {
		t.Errorf("unexpected element <%s>", tg.name)
	}
	for name, val := range tg.attrs {
		if strings.HasPrefix(name, "on") || name == "style" || name == "src" || name == "srcdoc" {
			t.Errorf("<%s> has attribute %s=%q", tg.name, name, val)
		}
		if strings.Contains(val, "alert(") {
			t.Errorf("<%s %s> holds input: %q", tg.name, name, clip(val, 200))
		}
		if name == "href" && !strings.HasPrefix(val, "https://") && !strings.HasPrefix(val, "#") {
			t.Errorf("<a> links to %q", val)
		}
	}
}

// checkVisibleEscapes checks that no character that is invisible or
// reorders text reaches the page: it is shown as an escape instead.
func checkVisibleEscapes(t *testing.T, out string) {
	t.Helper()
	for i, r := range out {
		if r != '\n' && (unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029') {
			t.Fatalf("raw %U at byte %d: %q", r, i, out[max(0, i-40):min(len(out), i+40)])
		}
	}
	for _, esc := range []string{`\u202e`, `\u2066`, `\u200f`, `\x1b`, `\x00`, `\x7f`, `\u2028`, `\xff`} {
		if !strings.Contains(out, `<span class="esc" title="escaped character">`+esc+`</span>`) {
			t.Errorf("no visible escape %s", esc)
		}
	}
	if !strings.Contains(out, "more bytes</span>") {
		t.Errorf("the 1 MB line is not marked as cut")
	}
}

// chromium returns the path of a Chromium binary, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("headless browser test: install Debian package chromium")
	return ""
}

// runChromium runs headless Chromium on a URL with extra flags and
// returns its stdout; console messages are in the returned log.
func runChromium(t *testing.T, bin string, extra ...string) (stdout, log string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}, extra...)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, errb.String())
	}
	return out.String(), errb.String()
}

var selftestRE = regexp.MustCompile(`selftest rows=(\d+) checks=(\d+) expect=(-?\d+) errors=(\d+)([^<]*)`)

func TestHTMLInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("headless browser test skipped in -short mode")
	}
	bin := chromium(t)
	d := fixtureDoc()
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(renderHTML(t, d, HTMLOptions{})), 0o644); err != nil {
		t.Fatal(err)
	}

	// The rows each filter should leave, counted from the results: the
	// verdicts of checks where some parser did not pass.
	shown := map[[2]string]bool{}
	for _, r := range d.Results {
		if r.Outcome != result.Pass && r.Outcome != result.Skipped {
			shown[[2]string{r.Case, strconv.Itoa(r.Check)}] = true
		}
	}
	count := func(keep func(result.Result) bool) int {
		n := 0
		for _, r := range d.Results {
			if shown[[2]string{r.Case, strconv.Itoa(r.Check)}] && keep(r) {
				n++
			}
		}
		return n
	}
	tests := []struct {
		filter string
		want   int
	}{
		{"parser:temoto", count(func(r result.Result) bool { return r.Parser == "temoto" })},
		{"outcome:violation", count(func(r result.Result) bool { return r.Outcome == result.Violation })},
		{"parser:grobotstxt,outcome:skipped", count(func(r result.Result) bool { return r.Parser == "grobotstxt" && r.Outcome == result.Skipped })},
		{"level:SHOULD", count(func(r result.Result) bool { return r.Level == result.SHOULD })},
		{"area:access", count(func(r result.Result) bool { return builtin().Index().AreaOf(r.Req[0]) == "access" })},
	}
	for _, tc := range tests {
		t.Run(tc.filter, func(t *testing.T) {
			if tc.want == 0 {
				t.Fatalf("fixture has no row for %s: the test would prove nothing", tc.filter)
			}
			dom, log := runChromium(t, bin, "--virtual-time-budget=5000", "--dump-dom", "file://"+page+"#selftest="+tc.filter)
			m := selftestRE.FindStringSubmatch(dom)
			if m == nil {
				t.Fatalf("no self-test result in the DOM (script blocked or failed?); log:\n%s", consoleLines(log))
			}
			if m[4] != "0" {
				t.Errorf("page reported errors:%s", html.UnescapeString(m[5]))
			}
			if got, _ := strconv.Atoi(m[1]); got != tc.want {
				t.Errorf("filter %s shows %s rows, want %d", tc.filter, m[1], tc.want)
			}
			if m[3] != "-1" && m[3] != m[1] {
				t.Errorf("page's own expectation %s differs from the rows shown %s", m[3], m[1])
			}
			if c := consoleLines(log); strings.Contains(c, "Content-Security-Policy") || strings.Contains(c, "Refused") || strings.Contains(c, "Uncaught") {
				t.Errorf("console:\n%s", c)
			}
		})
	}

	shot := filepath.Join(dir, "report.png")
	if p := os.Getenv("REPTEST_SCREENSHOT"); p != "" {
		shot = p
	}
	runChromium(t, bin, "--screenshot="+shot, "--window-size=1280,2000", "--hide-scrollbars", "file://"+page)
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 20<<10 {
		t.Errorf("screenshot is not a plausible PNG (%d bytes)", len(png))
	}
}

// consoleLines keeps the page's console messages of a Chromium log.
func consoleLines(log string) string {
	var b strings.Builder
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Content-Security-Policy") {
			fmt.Fprintln(&b, l)
		}
	}
	return b.String()
}

// The parser's own detail of a reject (the protocol's "detail") is shown
// beside the runner's, as JUnit and -v show it.
func TestHTMLParserDetail(t *testing.T) {
	rs := []result.Result{{Case: "t/one", Parser: "mybot", Agent: "FooBot", URL: "https://example.com/x",
		Expect: result.Allow, Verdict: result.Reject, Outcome: result.Violation, Level: result.MUST, Req: []string{"SYN-1"},
		ParserDetail: "line 1: no colon"}}
	d := cases.NewDocument(result.Meta{Version: "0.1.0", Profile: result.ProfileRFC}, []result.Summary{{Name: "mybot"}}, rs, nil)
	got := renderHTML(t, d, HTMLOptions{})
	if !strings.Contains(got, "the parser says: line 1: no colon") {
		t.Error("the HTML report does not show the parser's detail")
	}
}

// manyClasses is a run of n classes, with every area of the requirement
// table recorded, for the dashboard's lazy class list.
func manyClasses(n int) (*result.Document, *result.DiffSummary) {
	parsers := []string{"reference", "temoto", "grobotstxt", "protego"}
	var reqs []string
	for _, r := range builtinTable().byID {
		reqs = append(reqs, r.ID)
	}
	slices.Sort(reqs)
	d := &result.Document{}
	for i := range n {
		vs := map[string]result.Verdict{}
		for j, p := range parsers {
			vs[p] = result.Allow
			if (1+i%14)>>j&1 == 1 { // never all alike
				vs[p] = result.Disallow
			}
		}
		d.Findings = append(d.Findings, result.Finding{Input: result.Input{Robots: []byte("User-agent: *\nDisallow: /x\n"), Agent: "FooBot",
			URL: "https://example.com/x"}, Verdicts: vs, Signature: result.Signature(vs), Req: []string{reqs[i%len(reqs)]},
			Sources: []string{fmt.Sprintf("f%d.txt", i)}, Probes: 1 + i%7})
	}
	s := &result.DiffSummary{Parsers: parsers, Files: n, Probes: 100 * n, Groups: result.GroupFindings(d.Findings)}
	for _, a := range builtinTable().areas {
		s.Areas = append(s.Areas, result.AreaStat{Area: a.Name, Probes: 100, Agreed: 90, Apart: map[string]int{"temoto": 10}})
	}
	return withDiff(d, nil, s), s
}

var (
	builtRE    = regexp.MustCompile(`<article class="([^"]*\bclass-card\b[^"]*)" id="(c-[0-9a-f]+)"`)
	templRE    = regexp.MustCompile(`(?s)<template\b.*?</template>`)
	keptRE     = regexp.MustCompile(`<output id="selftest"[^>]*\bdata-classes="(\d+)"[^>]*\bdata-errors="(\d+)"`)
	areaLinkRE = regexp.MustCompile(`<a href="#area=(\d+)">`)
)

// The class list builds the first classes with the page and the others
// when a filter, a permalink or scrolling needs them; filters count
// every class, built or not.
func TestDashLazyClassesInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("headless browser test skipped in -short mode")
	}
	bin := chromium(t)
	d, run := manyClasses(3 * eagerClasses)
	page := filepath.Join(t.TempDir(), "dash.html")
	if err := os.WriteFile(page, []byte(renderHTML(t, d, HTMLOptions{})), 0o644); err != nil {
		t.Fatal(err)
	}
	fk := filterKeys{table: builtinTable()}
	for _, a := range fk.table.areas {
		fk.areas.key(a.Name)
	}
	groups := run.Groups
	var ids []string
	inArea := map[string]int{}
	for _, g := range groups {
		ids = append(ids, groupAnchor(g))
		for _, a := range fk.table.areasOf(g.Req) {
			inArea[fk.areas.key(a)]++
		}
	}
	load := func(fragment string) (shown []string, kept int) {
		t.Helper()
		dom, log := runChromium(t, bin, "--virtual-time-budget=5000", "--dump-dom", "file://"+page+fragment)
		m := keptRE.FindStringSubmatch(dom)
		if m == nil || m[2] != "0" {
			t.Fatalf("%s: the page's script failed or saw errors (%v); log:\n%s", fragment, m, consoleLines(log))
		}
		if c := consoleLines(log); c != "" {
			t.Errorf("%s: console:\n%s", fragment, c)
		}
		for _, m := range builtRE.FindAllStringSubmatch(templRE.ReplaceAllString(dom, ""), -1) {
			if !strings.Contains(" "+m[1]+" ", " hidden ") {
				shown = append(shown, m[2])
			}
		}
		kept, _ = strconv.Atoi(m[1])
		return shown, kept
	}

	shown, kept := load("")
	if diff := cmp.Diff(ids[:eagerClasses], shown); diff != "" || kept != len(ids) {
		t.Errorf("page keeps %d of %d classes; shown (-want +got):\n%s", kept, len(ids), diff)
	}
	last := ids[len(ids)-1]
	if shown, _ = load("#" + last); !slices.Contains(shown, last) {
		t.Errorf("permalink #%s: the class is not built and shown (%d shown)", last, len(shown))
	}
	out := renderHTML(t, d, HTMLOptions{})
	links := areaLinkRE.FindAllStringSubmatch(out, -1)
	if len(links) != len(builtinTable().areas) {
		t.Fatalf("area table links %d areas, the run recorded %d", len(links), len(builtinTable().areas))
	}
	for _, l := range links {
		if inArea[l[1]] == 0 {
			continue
		}
		if _, kept := load("#area=" + l[1]); kept != inArea[l[1]] {
			t.Errorf("area link %s keeps %d classes, want %d", l[0], kept, inArea[l[1]])
		}
		break
	}
}

// Every parser of a report up to 64 gets a colour and marker pair of its
// own: the ninth is not the first's blue circle again.
func TestParserStylesDistinct(t *testing.T) {
	seen := map[[2]string]int{}
	for i := range 64 {
		k := [2]string{parserColor(i), markerPath(i)}
		if j, dup := seen[k]; dup {
			t.Errorf("parsers %d and %d share colour %s and marker %s", j, i, k[0], k[1])
		}
		seen[k] = i
	}
	if parserColor(8) != parserColor(0) || markerPath(8) == markerPath(0) {
		t.Errorf("parser 8: %s %s; want parser 0's colour with another marker", parserColor(8), markerPath(8))
	}
}

// The page of a run that did not finish says so at the top, with why;
// the page of one that finished says nothing of it.
func TestHTMLInterrupted(t *testing.T) {
	for _, interrupted := range []bool{false, true} {
		d := fixtureDoc()
		d.Interrupted, d.InterruptReason = interrupted, "interrupt signal received"
		var buf bytes.Buffer
		if err := WriteHTML(&buf, d, HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		const want = `<p class="interrupted" role="alert"><b>Interrupted.</b> The run did not finish (interrupt signal received): these results are incomplete.</p>`
		if got := strings.Contains(buf.String(), want); got != interrupted {
			t.Errorf("interrupted %v: the page holds the notice %v; want %v", interrupted, got, interrupted)
		}
	}
}
