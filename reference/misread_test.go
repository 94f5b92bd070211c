package reference_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/reference"
)

// misreadCase is a file, an agent and a URL, with the verdicts of the
// reference (RFC options) and of its variant with one misreading.
type misreadCase struct {
	id, body, agent, url string
	rfc, variant         bool
}

func allowed(t *testing.T, body string, opts reference.Options, agent, url string) bool {
	t.Helper()
	once, err := reference.AllowedOnce(body, opts, agent, url)
	if err != nil {
		t.Fatalf("%s: AllowedOnce: %v", opts.Name, err)
	}
	// Asked twice, a parsed file decides the second time through its
	// compiled groups (prepared.go): both ways must agree with AllowedOnce.
	r := reference.ParseString(body, opts)
	for i := 0; i < 2; i++ {
		got, err := r.Allowed(agent, url)
		if err != nil || got != once {
			t.Fatalf("%s: Allowed #%d = %v, %v; AllowedOnce = %v", opts.Name, i+1, got, err, once)
		}
	}
	d, err := r.Decide(agent, url)
	if err != nil || d.Allowed != once {
		t.Fatalf("%s: Decide = %v, %v; AllowedOnce = %v", opts.Name, d, err, once)
	}
	return once
}

var pad = "User-agent: *\n" + strings.Repeat("# padding padding padding padding padding padding padding padding\n", 100<<10/64)

// misreadCases holds, for each misreading a parser can make, a case
// where the variant decides otherwise than the reference, in the way its
// title says, and one where both agree.
var misreadCases = []misreadCase{
	{"first-match", "User-agent: *\nDisallow: /\nAllow: /public/\n", "a", "/public/x", true, false},
	{"first-match", "User-agent: *\nDisallow: /\nAllow: /public/\n", "a", "/private", false, false},
	{"allow-ignored", "User-agent: *\nAllow: /public/\nDisallow: /\n", "a", "/public/x", true, false},
	{"allow-ignored", "User-agent: *\nAllow: /public/\nDisallow: /\n", "a", "/x", false, false},
	{"tie-disallow", "User-agent: *\nAllow: /a\nDisallow: /a\n", "a", "/a", true, false},
	{"tie-disallow", "User-agent: *\nAllow: /a\nDisallow: /ab\n", "a", "/ab", false, false},
	{"length-without-wildcards", "User-agent: *\nAllow: /a*\nDisallow: /ab\n", "a", "/abc", true, false},
	{"length-without-wildcards", "User-agent: *\nAllow: /a*\nDisallow: /ab\n", "a", "/ac", true, true},
	{"length-without-wildcards", "User-agent: *\nAllow: /ab$\nDisallow: /ab\n", "a", "/ab", true, true},
	{"no-wildcards", "User-agent: *\nDisallow: /*.pdf\n", "a", "/x.pdf", false, true},
	{"no-wildcards", "User-agent: *\nDisallow: /*.pdf\n", "a", "/*.pdf", false, false},
	{"no-end-anchor", "User-agent: *\nDisallow: /a$\n", "a", "/a", false, true},
	{"no-end-anchor", "User-agent: *\nDisallow: /a$\n", "a", "/a$", true, false},
	{"no-end-anchor", "User-agent: *\nDisallow: /a$\n", "a", "/b", true, true},
	{"wildcard-unanchored", "User-agent: *\nDisallow: /private*\n", "a", "/x/private/y", true, false},
	{"wildcard-unanchored", "User-agent: *\nDisallow: /private\n", "a", "/x/private/y", true, true},
	{"wildcard-unanchored", "User-agent: *\nDisallow: /private*\n", "a", "/private/y", false, false},
	{"rules-unanchored", "User-agent: *\nDisallow: /private\n", "a", "/x/private", true, false},
	{"rules-unanchored", "User-agent: *\nDisallow: /private\n", "a", "/pub", true, true},
	{"slash-added", "User-agent: *\nDisallow: private\n", "a", "/private", true, false},
	{"slash-added", "User-agent: *\nDisallow: /private\n", "a", "/private", false, false},
	{"url-not-normalised", "User-agent: *\nDisallow: /a\n", "a", "/%61", false, true},
	{"url-not-normalised", "User-agent: *\nDisallow: /a\n", "a", "/a", false, false},
	{"case-insensitive-paths", "User-agent: *\nDisallow: /Private\n", "a", "/private", true, false},
	{"case-insensitive-paths", "User-agent: *\nDisallow: /Private\n", "a", "/Private", false, false},
	{"no-percent-normalisation", "User-agent: *\nDisallow: /%7Efoo\n", "a", "/~foo", false, true},
	{"no-percent-normalisation", "User-agent: *\nDisallow: /%7Efoo\n", "a", "/%7Efoo", false, false},
	{"decode-all-escapes", "User-agent: *\nDisallow: /a%2Fb\n", "a", "/a/b", true, false},
	{"decode-all-escapes", "User-agent: *\nDisallow: /a%2Fb\n", "a", "/a%2fb", false, false},
	{"query-ignored", "User-agent: *\nDisallow: /*?q=\n", "a", "/s?q=1", false, true},
	{"query-ignored", "User-agent: *\nDisallow: /s\n", "a", "/s?q=1", false, false},
	{"robots-txt-not-exempt", "User-agent: *\nDisallow: /\n", "a", "/robots.txt", true, false},
	{"robots-txt-not-exempt", "User-agent: *\nDisallow: /\n", "a", "/x", false, false},

	{"no-group-merge-first", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n", "a", "/y", false, true},
	{"no-group-merge-first", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n", "a", "/x", false, false},
	{"no-group-merge-last", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n", "a", "/x", false, true},
	{"no-group-merge-last", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n", "a", "/y", false, false},
	{"star-merged-into-named", "User-agent: *\nDisallow: /s\n\nUser-agent: a\nDisallow: /a\n", "a", "/s", true, false},
	{"star-merged-into-named", "User-agent: *\nDisallow: /s\n\nUser-agent: a\nDisallow: /a\n", "b", "/s", false, false},
	{"star-group-for-all", "User-agent: *\nDisallow: /s\n\nUser-agent: a\nDisallow: /a\n", "a", "/a", false, true},
	{"star-group-for-all", "User-agent: *\nDisallow: /s\n\nUser-agent: a\nDisallow: /a\n", "b", "/s", false, false},
	{"substring-agent", "User-agent: bot\nDisallow: /\n", "Googlebot", "/x", true, false},
	{"substring-agent", "User-agent: Googlebot-News\nDisallow: /\n", "Googlebot", "/x", true, false},
	{"substring-agent", "User-agent: Bingbot\nDisallow: /\n", "Googlebot", "/x", true, true},
	{"prefix-agent", "User-agent: Google\nDisallow: /\n", "Googlebot", "/x", true, false},
	{"prefix-agent", "User-agent: bot\nDisallow: /\n", "Googlebot", "/x", true, true},
	{"unicode-case-fold", "User-agent: \u212Aelbot\nDisallow: /\n", "Kelbot", "/x", true, false},
	{"unicode-case-fold", "User-agent: kelbot\nDisallow: /\n", "Kelbot", "/x", false, false},
	{"empty-group-ignored", "User-agent: *\nDisallow: /\n\nUser-agent: quietbot\n", "quietbot", "/x", true, false},
	{"empty-group-ignored", "User-agent: *\nDisallow: /\n\nUser-agent: quietbot\n", "otherbot", "/x", false, false},
	{"full-ua-string", "User-agent: a\nDisallow: /\n", "a", "/x", false, true},
	{"full-ua-string", "User-agent: " + reference.UserAgentHeader("a") + "\nDisallow: /\n", "a", "/x", true, false},
	{"full-ua-string", "User-agent: *\nDisallow: /\n", "a", "/x", false, false},
	{"blank-line-ends-group", "User-agent: a\n\nDisallow: /\n", "a", "/x", false, true},
	{"blank-line-ends-group", "User-agent: a\n\nUser-agent: b\nDisallow: /\n", "a", "/x", false, true},
	{"blank-line-ends-group", "User-agent: a\nDisallow: /\n\n", "a", "/x", false, false},
	{"agents-not-grouped", "User-agent: a\nUser-agent: b\nDisallow: /\n", "a", "/x", false, true},
	{"agents-not-grouped", "User-agent: a\nUser-agent: b\nDisallow: /\n", "b", "/x", false, false},
	{"agents-not-grouped", "User-agent: *\nUser-agent: a\nDisallow: /\n", "c", "/x", false, true},
	{"records-split-agents", "User-agent: a\nSitemap: /s.xml\nUser-agent: b\nDisallow: /\n", "a", "/x", false, true},
	{"records-split-agents", "User-agent: a\nSitemap: /s.xml\nUser-agent: b\nDisallow: /\n", "b", "/x", false, false},
	{"records-split-agents", "User-agent: a\nDisallow: /\nSitemap: /s.xml\nDisallow: /x\n", "a", "/x", false, false},
	{"crawl-delay-splits-agents", "User-agent: a\ncrawl-delay: 5\nUser-agent: b\nDisallow: /\n", "a", "/x", false, true},
	{"crawl-delay-splits-agents", "User-agent: a\nSitemap: /s.xml\nUser-agent: b\nDisallow: /\n", "a", "/x", false, false},
	{"crawl-delay-splits-agents", "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n", "b", "/x", false, false},
	{"agent-within", "User-agent: foo\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "foobot", "/x", true, false},
	{"agent-within", "User-agent: bot\nDisallow: /a\n\nUser-agent: foo\nDisallow: /x\n", "foobot", "/a", true, false},
	{"agent-within", "User-agent: foobot-news\nDisallow: /\n", "foobot", "/x", true, true},
	{"longest-agent-within", "User-agent: foo\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "foobot", "/x", true, false},
	{"longest-agent-within", "User-agent: bot\nDisallow: /\n\nUser-agent: foob\nAllow: /\n", "foobot", "/x", true, true},
	{"longest-agent-within", "User-agent: foobot\nDisallow: /\n\nUser-agent: foo\nAllow: /x\n", "foobot", "/x", false, false},
	{"longest-agent-within", "User-agent: foobot-news\nDisallow: /\n", "foobot", "/x", true, true},
	{"orphan-rules-apply", "Disallow: /x\n", "a", "/x", true, false},
	{"orphan-rules-apply", "Disallow: /x\nUser-agent: *\nAllow: /\n", "a", "/x", true, true},

	{"bom-not-skipped", "\uFEFFUser-agent: *\nDisallow: /\n", "a", "/x", false, true},
	{"bom-not-skipped", "\uFEFF\nUser-agent: *\nDisallow: /\n", "a", "/x", false, false},
	{"unicode-spaces-trimmed", "User-agent: *\nDisallow:\u00a0/nbsp\u3000\n", "a", "/nbsp", true, false},
	{"unicode-spaces-trimmed", "User-agent: *\nDisallow: /real\n", "a", "/real", false, false},
	{"key-typos-accepted", "UserAgent: *\nDisallow: /\n", "a", "/x", true, false},
	{"key-typos-accepted", "User-agent: *\nDisalow: /\n", "a", "/x", true, false},
	{"key-typos-accepted", "User-agent: *\nDisallow: /\n", "a", "/x", false, false},
	{"useragent-accepted", "UserAgent: *\nDisallow: /\n", "a", "/x", true, false},
	{"missing-colon-accepted", "User-agent: *\nDisallow /\n", "a", "/x", true, false},
	{"missing-colon-accepted", "User-agent *\nDisallow: /\n", "a", "/x", true, false},
	{"missing-colon-accepted", "User-agent: *\nDisallow / x\n", "a", "/x", true, true},
	{"useragent-accepted", "User agent: *\nDisallow: /\n", "a", "/x", true, true},
	{"useragent-accepted", "User-agent: *\nDisalow: /\n", "a", "/x", true, true},
	{"cr-line-endings-ignored", "User-agent: *\rDisallow: /\r", "a", "/x", false, true},
	{"cr-line-endings-ignored", "User-agent: *\r\nDisallow: /\r\n", "a", "/x", false, false},
	{"no-size-limit", strings.Repeat(pad, 6) + "Disallow: /\n", "a", "/x", true, false},
	{"no-size-limit", strings.Repeat(pad, 4) + "Disallow: /\n", "a", "/x", false, false},
	{"small-size-limit", pad + "Disallow: /\n", "a", "/x", false, true},
	{"small-size-limit", "User-agent: *\nDisallow: /\n" + pad, "a", "/x", false, false},
}

func TestMisreadingsDecide(t *testing.T) {
	tested := map[string]bool{}
	for _, tc := range misreadCases {
		variant, err := reference.WithMisreadings(reference.RFC(), tc.id)
		if err != nil {
			t.Fatal(err)
		}
		tested[tc.id] = true
		rfc := allowed(t, tc.body, reference.RFC(), tc.agent, tc.url)
		got := allowed(t, tc.body, variant, tc.agent, tc.url)
		if rfc != tc.rfc || got != tc.variant {
			t.Errorf("%s: %q for %s on %.60q: reference %v, variant %v; want %v, %v", tc.id, tc.url, tc.agent, tc.body, rfc, got, tc.rfc, tc.variant)
		}
	}
	for _, m := range reference.Misreadings() {
		if (m.Kind == reference.KindMatching || m.Kind == reference.KindGroups || m.Kind == reference.KindSyntax) && !tested[m.ID] {
			t.Errorf("misreading %s has no case in misreadCases", m.ID)
		}
	}
}

// misreadFetch serves robots.txt in one way: a status, a redirect to a
// file that disallows everything, or a connection closed without a
// response.
func misreadFetch(t *testing.T, how string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch how {
		case "503":
			w.WriteHeader(http.StatusServiceUnavailable)
		case "404":
			w.WriteHeader(http.StatusNotFound)
		case "redirect":
			if r.URL.Path == "/robots.txt" {
				http.Redirect(w, r, "/real.txt", http.StatusMovedPermanently)
				return
			}
			w.Write([]byte("User-agent: *\nDisallow: /\n"))
		case "reset":
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		default:
			w.Write([]byte("User-agent: *\nDisallow: /\n"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/robots.txt"
}

// TestMisreadingsAccess checks the access misreadings through Fetch, on
// a loopback server, and through FromStatus.
func TestMisreadingsAccess(t *testing.T) {
	tests := []struct {
		id, how      string
		rfc, variant bool
	}{
		{"5xx-allows", "503", false, true},
		{"5xx-allows", "404", true, true},
		{"unreachable-allows", "reset", false, true},
		{"unreachable-allows", "503", false, false},
		{"4xx-disallows", "404", true, false},
		{"4xx-disallows", "200", false, false},
		{"redirects-not-followed", "redirect", false, true},
		{"redirects-not-followed", "200", false, false},
	}
	tested := map[string]bool{}
	for _, tc := range tests {
		tested[tc.id] = true
		variant, err := reference.WithMisreadings(reference.RFC(), tc.id)
		if err != nil {
			t.Fatal(err)
		}
		u := misreadFetch(t, tc.how)
		var got [2]bool
		for i, opts := range []reference.Options{reference.RFC(), variant} {
			d, err := reference.Fetch(context.Background(), nil, u, opts).Decide("a", "/x")
			if err != nil {
				t.Fatal(err)
			}
			got[i] = d.Allowed
		}
		if got != [2]bool{tc.rfc, tc.variant} {
			t.Errorf("%s on %s: reference %v, variant %v; want %v, %v", tc.id, tc.how, got[0], got[1], tc.rfc, tc.variant)
		}
	}
	for _, m := range reference.Misreadings() {
		if m.Kind == reference.KindAccess && !tested[m.ID] {
			t.Errorf("misreading %s has no case", m.ID)
		}
	}
	// FromStatus classifies a status a caller fetched the same way.
	for _, c := range []struct {
		id     string
		status int
		want   bool
	}{{"5xx-allows", 500, true}, {"4xx-disallows", 403, false}, {"5xx-allows", 200, true}} {
		opts, _ := reference.WithMisreadings(reference.RFC(), c.id)
		d, _ := reference.FromStatus(c.status, []byte("User-agent: *\nAllow: /\n"), opts).Decide("a", "/x")
		if d.Allowed != c.want {
			t.Errorf("%s: FromStatus(%d) allowed = %v, want %v", c.id, c.status, d.Allowed, c.want)
		}
	}
}

func TestWithMisreadings(t *testing.T) {
	opts, err := reference.WithMisreadings(reference.Google(), "first-match", "no-wildcards")
	if err != nil {
		t.Fatal(err)
	}
	if opts.Name != "google+first-match+no-wildcards" || !opts.FirstMatch || !opts.LiteralStar || !opts.GoogleKeys {
		t.Errorf("WithMisreadings(Google, first-match, no-wildcards) = %+v", opts)
	}
	_, err = reference.WithMisreadings(reference.RFC(), "first-match", "longest-match")
	if err == nil || !strings.Contains(err.Error(), `"longest-match"`) || !strings.Contains(err.Error(), "first-match, allow-ignored") {
		t.Errorf("unknown id: error %v, want one naming it and listing the ids", err)
	}
	if _, ok := reference.LookupMisreading("port-ignored"); !ok {
		t.Error("LookupMisreading(port-ignored) not found")
	}
	// No misreading leaves the options as they were, and RFC and Google
	// set none.
	for _, base := range []reference.Options{reference.RFC(), reference.Google()} {
		if base.Misread != (reference.Misread{}) {
			t.Errorf("%s sets misreadings: %+v", base.Name, base.Misread)
		}
	}
}

// TestMisreadingsCatalogue checks the catalogue's form: unique ids in
// lower case words, a title, a section, a known kind, and requirement IDs
// that corpus/requirements.yaml defines; and every Apply changes the
// options.
func TestMisreadingsCatalogue(t *testing.T) {
	yaml, err := os.ReadFile("../corpus/requirements.yaml")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, m := range regexp.MustCompile(`\{id: ([A-Z0-9.-]+),`).FindAllStringSubmatch(string(yaml), -1) {
		known[m[1]] = true
	}
	idRE := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	kinds := []string{reference.KindMatching, reference.KindGroups, reference.KindSyntax, reference.KindAccess, reference.KindCrawl}
	seen := map[string]bool{}
	for _, m := range reference.Misreadings() {
		switch {
		case !idRE.MatchString(m.ID) || seen[m.ID]:
			t.Errorf("id %q: malformed or repeated", m.ID)
		case m.Title == "" || m.RFC == "" || len(m.Req) == 0 || !slices.Contains(kinds, m.Kind):
			t.Errorf("%s: incomplete entry %+v", m.ID, m)
		}
		seen[m.ID] = true
		for _, r := range m.Req {
			if !known[r] {
				t.Errorf("%s: requirement %s is not in corpus/requirements.yaml", m.ID, r)
			}
		}
		opts := reference.RFC()
		m.Apply(&opts)
		opts.Name = reference.RFC().Name
		if cmp.Equal(opts, reference.RFC()) {
			t.Errorf("%s: Apply changes nothing on the RFC options", m.ID)
		}
	}
	if len(seen) < 39 {
		t.Errorf("the catalogue has %d misreadings, want at least the 33 of issue 19 and 6 more", len(seen))
	}
}

// A Misreading encodes as JSON with the keys of docs/FORMAT.md §8, without
// its Apply.
func TestMisreadingJSON(t *testing.T) {
	m, _ := reference.LookupMisreading("first-match")
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"first-match","title":"The first matching rule in file order wins, not the longest","rfc":"2.2.2","req":["MATCH-4","EX-5.2"],"kind":"matching"}`
	if string(b) != want {
		t.Errorf("json.Marshal = %s\nwant %s", b, want)
	}
}

// Conflicting misreadings are refused, and each conflict is real: applied
// together regardless, the two decide every question on the files of
// misreadCases as one of them alone does. (That a pair without conflict
// reads some file otherwise than either part needs files made for it: the
// fitting's round trip over generated files checks that.)
func TestMisreadingConflicts(t *testing.T) {
	if _, err := reference.WithMisreadings(reference.RFC(), "substring-agent", "prefix-agent"); err == nil || !strings.Contains(err.Error(), "cannot be combined") {
		t.Errorf("substring-agent+prefix-agent: error %v, want a conflict", err)
	}
	var bodies, agents, urls []string
	for _, tc := range misreadCases {
		if !slices.Contains(bodies, tc.body) {
			bodies = append(bodies, tc.body)
		}
		if !slices.Contains(agents, tc.agent) {
			agents = append(agents, tc.agent)
		}
		if !slices.Contains(urls, tc.url) {
			urls = append(urls, tc.url)
		}
	}
	verdicts := func(ids ...string) string {
		opts := reference.RFC()
		for _, id := range ids {
			m, _ := reference.LookupMisreading(id)
			m.Apply(&opts)
		}
		var b strings.Builder
		for _, body := range bodies {
			r := reference.ParseString(body, opts)
			for _, agent := range agents {
				for _, url := range urls {
					ok, _ := r.Allowed(agent, url)
					b.WriteString(fmt.Sprint(ok))
				}
			}
		}
		return b.String()
	}
	ids := reference.MisreadingIDs()
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			_, err := reference.WithMisreadings(reference.RFC(), a, b)
			if !reference.Conflict(a, b) {
				if err != nil {
					t.Errorf("%s+%s: %v", a, b, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s+%s: no error for a conflict", a, b)
			}
			if v := verdicts(a, b); v != verdicts(a) && v != verdicts(b) {
				t.Errorf("%s+%s decide otherwise than either alone: not a conflict", a, b)
			}
		}
	}
}
