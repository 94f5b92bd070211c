package reference_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/reference"
)

func TestGroups(t *testing.T) {
	tests := []struct {
		name    string
		robots  string
		opts    reference.Options
		groups  []reference.Group
		orphans []int // lines of the orphan rules
	}{{
		name:   "consecutive user-agent lines share a group; a rule closes it",
		robots: "User-agent: a\nUser-agent: B # two\nDisallow: /x\nUser-agent: c\nAllow: /y\n",
		opts:   reference.RFC(),
		groups: []reference.Group{
			{Agents: []reference.Agent{{Line: 1, Value: "a", Token: "a"}, {Line: 2, Value: "B", Token: "B"}},
				Rules: []reference.RuleRef{{Line: 3, Pattern: "/x", Length: 2, Normalized: "/x"}}},
			{Agents: []reference.Agent{{Line: 4, Value: "c", Token: "c"}},
				Rules: []reference.RuleRef{{Line: 5, Allow: true, Pattern: "/y", Length: 2, Normalized: "/y"}}},
		},
	}, {
		name:   "rules stay in file order, other records and blank lines do not split a group",
		robots: "User-agent: *\nDisallow: /\n\nCrawl-delay: 3\nAllow: /public/page$\nDisallow: /a%7e\n",
		opts:   reference.RFC(),
		groups: []reference.Group{{
			Agents: []reference.Agent{{Line: 1, Value: "*", Star: true}},
			Rules: []reference.RuleRef{
				{Line: 2, Pattern: "/", Length: 1, Normalized: "/"},
				{Line: 5, Allow: true, Pattern: "/public/page$", Length: 13, Normalized: "/public/page", Anchored: true},
				{Line: 6, Pattern: "/a%7e", Length: 3, Normalized: "/a~"},
			},
		}},
	}, {
		name:    "orphan rules belong to no group; a group may have no rules",
		robots:  "Disallow: /o\nAllow: /p\nUser-agent: a\n",
		opts:    reference.RFC(),
		groups:  []reference.Group{{Agents: []reference.Agent{{Line: 3, Value: "a", Token: "a"}}, Rules: []reference.RuleRef{}}},
		orphans: []int{1, 2},
	}, {
		name:   "google: leading tokens, star prefix, no derived index.html rule",
		robots: "User-agent: Googlebot/2.1\nUser-agent: * bots\nUser-agent: /x\nAllow: /d/index.html\n",
		opts:   reference.Google(),
		groups: []reference.Group{{
			Agents: []reference.Agent{
				{Line: 1, Value: "Googlebot/2.1", Token: "Googlebot"},
				{Line: 2, Value: "* bots", Star: true},
				{Line: 3, Value: "/x"},
			},
			Rules: []reference.RuleRef{{Line: 4, Allow: true, Pattern: "/d/index.html", Length: 13, Normalized: "/d/index.html"}},
		}},
	}, {
		name:   "rfc: a value that is not a product token names nothing",
		robots: "User-agent: Googlebot/2.1\nUser-agent: * bots\nDisallow: /\n",
		opts:   reference.RFC(),
		groups: []reference.Group{{
			Agents: []reference.Agent{{Line: 1, Value: "Googlebot/2.1"}, {Line: 2, Value: "* bots"}},
			Rules:  []reference.RuleRef{{Line: 3, Pattern: "/", Length: 1, Normalized: "/"}},
		}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := reference.ParseString(tt.robots, tt.opts)
			if diff := cmp.Diff(tt.groups, r.Groups()); diff != "" {
				t.Errorf("Groups() mismatch (-want +got):\n%s", diff)
			}
			var orphans []int
			for _, ru := range r.OrphanRules() {
				orphans = append(orphans, ru.Line)
			}
			if diff := cmp.Diff(tt.orphans, orphans); diff != "" {
				t.Errorf("OrphanRules() lines (-want +got):\n%s", diff)
			}
		})
	}
}

// Every user-agent, allow and disallow line that Lines reports is in
// exactly one place of Groups and OrphanRules, with the same value.
func TestGroupsCoverLines(t *testing.T) {
	bodies := []string{rfc951, file21, file500k(),
		"Allow: /\r\nUser-agent: a\rDisallow: /b\r\n\r\nuser-agent: *\nDisallow: /*.gif$\n",
		"User-agent FooBot\nDisallow /private\nDissallow: /x\nUseragent: y\nallowed: /z\n",
	}
	for _, body := range bodies {
		for _, opts := range []reference.Options{reference.RFC(), reference.Google()} {
			r := reference.ParseString(body, opts)
			want := map[int]string{}
			for _, l := range r.Lines() {
				switch l.Kind {
				case reference.UserAgent, reference.Allow, reference.Disallow:
					want[l.Number] = l.Kind.String() + " " + l.Value
				}
			}
			got := map[int]string{}
			add := func(line int, s string) {
				if _, dup := got[line]; dup {
					t.Errorf("%s: line %d is in two places", opts.Name, line)
				}
				got[line] = s
			}
			rules := func(rs []reference.RuleRef) {
				for _, ru := range rs {
					kind := reference.Disallow
					if ru.Allow {
						kind = reference.Allow
					}
					add(ru.Line, kind.String()+" "+ru.Pattern)
				}
			}
			for _, g := range r.Groups() {
				for _, a := range g.Agents {
					add(a.Line, reference.UserAgent.String()+" "+a.Value)
				}
				rules(g.Rules)
			}
			rules(r.OrphanRules())
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, body %q: groups do not cover the lines (-want +got):\n%s", opts.Name, strings.SplitN(body, "\n", 2)[0], diff)
			}
		}
	}
}

// A parsed file compiles each group when a decision first needs it; many
// goroutines deciding at once on a fresh parse get the verdicts of a
// parse that decided alone (run with -race to see the compilation is safe).
func TestConcurrentDecisions(t *testing.T) {
	body := file500k() + "User-agent: *\nDisallow: /%7Ea/\nAllow: /*.HTML$\nAllow: /d/index.html\n"
	agents := []string{"botaa", "botzz", "crawler-c", "otherbot"}
	urls := []string{"/", "/section-0/page-0/x", "/~a/b", "/x/item-3-2.json", "/search?q=2&x", "/d/", "/a.HTML"}
	for _, opts := range []reference.Options{reference.RFC(), reference.Google()} {
		want := map[string]bool{}
		alone := reference.ParseString(body, opts)
		for _, a := range agents {
			for _, u := range urls {
				want[a+" "+u], _ = alone.Allowed(a, u)
			}
		}
		r := reference.ParseString(body, opts)
		errs := make(chan string, 64)
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range agents {
					a := agents[(i+w)%len(agents)]
					for _, u := range urls {
						d, err := r.Decide(a, u)
						if err != nil || d.Allowed != want[a+" "+u] {
							errs <- fmt.Sprintf("%s: Decide(%q, %q) = %v, %v; alone %v", opts.Name, a, u, d.Allowed, err, want[a+" "+u])
						}
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}

// A decision allocates nothing, on a parsed file or in one shot, whatever
// the rules normalisation has to change.
func TestDecisionsDoNotAllocate(t *testing.T) {
	bodies := []string{file21, rfc951,
		"User-agent: *\nDisallow: /a%7eb\nDisallow: /ツ/\nAllow: /x**y$\nDisallow: /p$q\nAllow: /d/index.html\n",
		"User-agent: *\nDisallow: /" + strings.Repeat("%7e", 400) + "\nAllow: /" + strings.Repeat("*", 3000) + "x\nAllow: /" + strings.Repeat("ツ", 300) + "/index.html\n",
	}
	urls := []string{"https://www.example.com/private/press/release?id=1", "/a~b", "/%E3%83%84/x", "/xzy", "/p$q", "/d/"}
	for _, opts := range []reference.Options{reference.RFC(), reference.Google()} {
		for _, body := range bodies {
			r := reference.ParseString(body, opts)
			for _, u := range append(urls, "/"+strings.Repeat("~", 400), "/"+strings.Repeat("%E3%83%84", 50)+"/") {
				got, _ := r.Allowed("FooBot", u)
				once, _ := reference.AllowedOnce(body, opts, "FooBot", u)
				d, _ := r.Decide("FooBot", u)
				if got != once || got != d.Allowed {
					t.Errorf("%s: %q: Allowed %v, AllowedOnce %v, Decide %v", opts.Name, u, got, once, d)
				}
				if n := testing.AllocsPerRun(20, func() { _, _ = r.Allowed("FooBot", u) }); n != 0 {
					t.Errorf("%s: Allowed(%q) on %q: %v allocations", opts.Name, u, body, n)
				}
				if n := testing.AllocsPerRun(20, func() { _, _ = reference.AllowedOnce(body, opts, "FooBot", u) }); n != 0 && len(body) < 1000 {
					t.Errorf("%s: AllowedOnce(%q) on %q: %v allocations", opts.Name, u, body, n)
				}
			}
		}
	}
}
