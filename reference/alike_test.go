package reference_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reptest/reptest/reference"
)

// maxAlikeFiles bounds the real-world files TestComparisonAlike reads,
// in name order, so that it takes a second or two.
const maxAlikeFiles = 80

// TestComparisonAlike checks that a Comparison never calls two readings
// alike where they answer otherwise: the reference against every variant
// of one misreading a parser can make, under the RFC's and Google's
// options, on the misreadings' own cases, the test files and real-world
// files, asked about agents each file names and others, on paths made
// from its rules. It also checks that a reading is alike to itself
// everywhere, and that most questions of a variant are found alike, as
// the fitter relies on.
func TestComparisonAlike(t *testing.T) {
	bodies := []string{file21, rfc951, largeGroup, "Disallow: /orphan\nUser-agent: a\nAllow: /\n",
		// Merged groups: ties and order decided across groups.
		"User-agent: a\nAllow: /p\n\nUser-agent: a\nDisallow: /p\n", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nAllow: /x/y\n"}
	for _, tc := range misreadCases {
		bodies = append(bodies, tc.body)
	}
	names, _ := filepath.Glob(filepath.Join(realworldDir(), "*.txt"))
	slices.Sort(names)
	for _, n := range names[:min(len(names), maxAlikeFiles)] {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(data))
	}
	var asked, alike int
	for _, base := range []reference.Options{reference.RFC(), reference.Google()} {
		for _, body := range bodies {
			ref := reference.ParseString(body, base)
			agents, urls := alikeQuestions(ref)
			self := reference.Compare(ref, reference.ParseString(body, base))
			for _, m := range reference.Misreadings() {
				o, err := reference.WithMisreadings(base, m.ID)
				if err != nil || !m.ForParsers() {
					continue
				}
				v := reference.ParseString(body, o)
				c := reference.Compare(ref, v)
				for _, a := range agents {
					for _, u := range urls {
						asked++
						if !self.Alike(a, u) {
							t.Fatalf("%s: a reading is not alike to itself for %q on %q in %.80q", base.Name, a, u, body)
						}
						if !c.Alike(a, u) {
							continue
						}
						alike++
						want, wantErr := ref.Allowed(a, u)
						got, err := v.Allowed(a, u)
						if got != want || (err == nil) != (wantErr == nil) {
							t.Fatalf("%s+%s: Alike(%q, %q), yet the reference answers %t (%v), the variant %t (%v), on %.200q",
								base.Name, m.ID, a, u, want, wantErr, got, err, body)
						}
					}
				}
			}
		}
	}
	t.Logf("%d questions, %d alike", asked, alike)
	if alike*2 < asked {
		t.Errorf("only %d of %d questions found alike: the comparison tells the fitter little", alike, asked)
	}
}

// alikeQuestions returns agents and URLs to ask of a parsed file: the
// tokens it names, variants of them, and others; paths made from its
// rules' patterns.
func alikeQuestions(r *reference.Robots) (agents, urls []string) {
	agents = []string{"Googlebot", "googlebot-news", "bingbot", "ReptestBot", "Mozilla/5.0 (compatible; Googlebot/2.1)", ""}
	urls = []string{"/", "/robots.txt", "/ROBOTS.TXT", "/a?b=1", "/%7Euser/%2fx", "https://example.com/index.html"}
	for _, g := range r.Groups() {
		for _, a := range g.Agents {
			if a.Token != "" && len(agents) < 24 {
				agents = append(agents, a.Token, strings.ToUpper(a.Token)+"x", "x"+a.Token)
			}
		}
		for _, ru := range g.Rules {
			if len(urls) < 120 {
				urls = append(urls, matchRuleURLs(ru.Pattern)...)
			}
		}
	}
	return agents, urls
}
