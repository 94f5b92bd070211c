package reference_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reptest/reptest/reference"
)

// TestReasonOnceAgrees checks ReasonOnce against the reason of a parsed
// file's decision, and its error against Decide's, under the profiles'
// options, orphan rules that apply and every misreading a parser can make
// (those of groups go through a parsed file), on the test files and the
// first files of the real-world collection (when present).
func TestReasonOnceAgrees(t *testing.T) {
	bodies := []string{rfc951, file21, "", "Disallow: /x\nUser-agent: a\nDisallow: /y\n", "Disallow: /x\n",
		"User-agent: *\nUser-agent: a\nDisallow: /p\nUser-agent: a\nAllow: /p\n", "User-agent: a\n", "User-agent: a\n\nUser-agent: *\nDisallow: /\n",
		"User-agent: *\nDisallow: /\nAllow: /dir/index.html\n", "User-agent: a\nDisallow: /%7e\nAllow: /~\nDisallow: /*$\n",
		"Allow: /robots.txt\nUser-agent: b\nDisallow: /\n", "User-agent: a b\nDisallow: /\nContent-Usage: train-ai=n\nUser-agent: c\nAllow: /\n"}
	for _, tt := range decideTests {
		bodies = append(bodies, tt.robots)
	}
	if names, _ := filepath.Glob(filepath.Join(realworldDir(), "*.txt")); len(names) > 0 {
		for _, n := range names[:min(len(names), 40)] {
			data, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, string(data))
		}
	}
	orphans := reference.RFC()
	orphans.OrphanRulesApply = true
	opts := []reference.Options{reference.RFC(), reference.Google(), reference.AIPref(), orphans}
	for _, m := range reference.Misreadings() {
		if m.ForParsers() {
			o := reference.RFC()
			m.Apply(&o)
			o.Name += "+" + m.ID
			opts = append(opts, o)
		}
	}
	urls := []string{"", "/", "/a\x00b", "/x", "/y", "/p", "/robots.txt", "/robots.txt?x", "/dir/", "/dir/index.html", "/~", "/%7E",
		"/example/page.html", "/X/Y?z", "/search", "/wp-admin/", "/private/x"}
	for _, o := range opts {
		for _, body := range bodies {
			r := reference.ParseString(body, o)
			for _, agent := range []string{"a", "b", "foobot", "Googlebot", "other", "Foo Bar", ""} {
				for _, u := range urls {
					d, err1 := r.Decide(agent, u)
					got, err2 := reference.ReasonOnce(body, o, agent, u)
					if (err1 == nil) != (err2 == nil) || err1 == nil && got != d.Reason {
						t.Fatalf("%s: ReasonOnce(%q, %q) = %v, %v; Parse+Decide = %v, %v\n%.300s", o.Name, agent, u, got, err2, d.Reason, err1, body)
					}
				}
			}
		}
	}
}
