package reference_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	bodies := alikeBodies(t)
	var asked, alike int
	for _, base := range []reference.Options{reference.RFC(), reference.Google()} {
		for _, body := range bodies {
			ref := reference.ParseString(body, base)
			agents, urls := alikeQuestions(ref)
			self := reference.Compare(ref, reference.ParseString(body, base))
			for _, o := range parserVariants(base) {
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
							t.Fatalf("%s: Alike(%q, %q), yet the reference answers %t (%v), the variant %t (%v), on %.200q",
								o.Name, a, u, want, wantErr, got, err, body)
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

// parserVariants returns base with each misreading a parser can make.
func parserVariants(base reference.Options) []reference.Options {
	var out []reference.Options
	for _, m := range reference.Misreadings() {
		if o, err := reference.WithMisreadings(base, m.ID); err == nil && m.ForParsers() {
			out = append(out, o)
		}
	}
	return out
}

// alikeBodies returns the files TestComparisonAlike and TestReread read.
func alikeBodies(t *testing.T) []string {
	bodies := []string{file21, rfc951, largeGroup, "Disallow: /orphan\nUser-agent: a\nAllow: /\n",
		// Merged groups: ties and order decided across groups.
		"User-agent: a\nAllow: /p\n\nUser-agent: a\nDisallow: /p\n", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nAllow: /x/y\n",
		// Long rules, which a parsed file keeps compiled.
		"User-agent: *\nDisallow: /" + strings.Repeat("A%7e", 200) + "\nAllow: /" + strings.Repeat("b", 400) + "/index.html\n"}
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
	return bodies
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

// TestReread checks that a file reread under a variant's options answers
// as the file parsed under them does, and that Reread declines options
// that read lines otherwise: on the same files and questions as
// TestComparisonAlike, with and without the reference's groups compiled
// first.
func TestReread(t *testing.T) {
	bodies := alikeBodies(t)
	var reread, declined int
	for _, base := range []reference.Options{reference.RFC(), reference.Google()} {
		for i, body := range bodies {
			ref := reference.ParseString(body, base)
			agents, urls := alikeQuestions(ref)
			if i%2 == 0 {
				ref.Allowed(agents[0], urls[0])
				ref.Allowed(agents[0], urls[1]) // the second decision compiles
			}
			for _, o := range parserVariants(base) {
				v, ok := ref.Reread(o)
				if !ok {
					declined++
					continue
				}
				reread++
				want := reference.ParseString(body, o)
				for _, a := range agents {
					for _, u := range urls {
						w, wErr := want.Allowed(a, u)
						g, gErr := v.Allowed(a, u)
						if g != w || (gErr == nil) != (wErr == nil) {
							t.Fatalf("%s: reread answers %t (%v) for %q on %q, parsed %t (%v), on %.200q", o.Name, g, gErr, a, u, w, wErr, body)
						}
					}
				}
				if diff := cmp.Diff(want.Groups(), v.Groups()); diff != "" {
					t.Fatalf("%s: reread groups differ (-parsed +reread):\n%s", o.Name, diff)
				}
			}
		}
	}
	t.Logf("%d variants reread, %d declined", reread, declined)
	if reread == 0 || declined == 0 {
		t.Errorf("%d variants reread, %d declined: want some of each", reread, declined)
	}
}

// TestRereadFrom checks that a file reread from a file itself reread
// under other options answers as the file parsed under the last options
// does, whichever reading RereadFrom chooses to reread.
func TestRereadFrom(t *testing.T) {
	bodies := alikeBodies(t)
	var chained int
	for i, body := range bodies {
		ref := reference.ParseString(body, reference.RFC())
		agents, urls := alikeQuestions(ref)
		variants := parserVariants(reference.RFC())
		for k, o := range variants {
			first, ok := ref.Reread(o)
			if !ok {
				continue
			}
			if i%2 == 0 {
				first.Allowed(agents[0], urls[0])
				first.Allowed(agents[0], urls[len(urls)-1])
			}
			next := variants[(k*7+i)%len(variants)]
			want := reference.ParseString(body, next)
			for _, from := range []func() (*reference.Robots, bool){
				func() (*reference.Robots, bool) { return first.Reread(next) },
				func() (*reference.Robots, bool) { return reference.RereadFrom(next, ref, first) },
				func() (*reference.Robots, bool) { return reference.RereadFrom(next, nil, first, ref) },
			} {
				v, ok := from()
				if !ok {
					continue
				}
				chained++
				for _, a := range agents {
					for _, u := range urls {
						w, wErr := want.Allowed(a, u)
						g, gErr := v.Allowed(a, u)
						if g != w || (gErr == nil) != (wErr == nil) {
							t.Fatalf("%s after %s: reread answers %t (%v) for %q on %q, parsed %t (%v), on %.200q", next.Name, o.Name, g, gErr, a, u, w, wErr, body)
						}
					}
				}
			}
		}
	}
	if chained == 0 {
		t.Error("no file was reread from a reread file")
	}
	if _, ok := reference.RereadFrom(reference.RFC()); ok {
		t.Error("RereadFrom of no reading gave one")
	}
}

// TestRereadLong checks that a reread file compiles its long rules under
// its own options: a long rule whose escapes the reference normalises,
// asked first (a file's first decision matches the kept compiled form).
func TestRereadLong(t *testing.T) {
	body := "User-agent: *\nDisallow: /" + strings.Repeat("%7e", 200) + "\n"
	url := "/" + strings.Repeat("%7e", 200)
	for _, id := range []string{"no-percent-normalisation", "case-insensitive-paths"} {
		o, err := reference.WithMisreadings(reference.RFC(), id)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := reference.ParseString(body, reference.RFC()).Reread(o)
		if !ok {
			t.Fatalf("%s: Reread declined", id)
		}
		want, _ := reference.ParseString(body, o).Allowed("a", url)
		if got, _ := v.Allowed("a", url); got != want {
			t.Errorf("%s: reread answers %t, parsed %t", id, got, want)
		}
	}
}
