package parsers

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

type verdictTest struct {
	name   string
	robots string
	status int
	agent  string
	url    string
	want   result.Verdict
}

func runVerdicts(t *testing.T, p cases.Parser, tests []verdictTest) {
	t.Helper()
	for _, tt := range tests {
		req := cases.Request{Robots: []byte(tt.robots), Status: tt.status, Agent: tt.agent, URL: tt.url}
		got, err := p.Check(context.Background(), req)
		if err != nil {
			t.Errorf("%s: %s: unexpected error: %v", p.Info().Name, tt.name, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: %s: verdict %q, want %q", p.Info().Name, tt.name, got, tt.want)
		}
		if bt, ok := p.(cases.Batcher); ok {
			vs, errs := bt.CheckBatch(context.Background(), req, []cases.Question{{Agent: tt.agent, URL: tt.url}})
			if errs[0] != nil || vs[0] != tt.want {
				t.Errorf("%s: %s: batch verdict %q (error %v), want %q", p.Info().Name, tt.name, vs[0], errs[0], tt.want)
			}
		}
	}
}

// TestGoLibsBatchSameAsCheck asks the in-process libraries every question
// about each body one Check at a time and in one batch (one parse, its
// events replayed per question for grobotstxt) and checks that the
// answers are the same.
func TestGoLibsBatchSameAsCheck(t *testing.T) {
	bodies := []string{
		"",
		shopRobots,
		"\ufeffUser-agent: FooBot\r\nDisallow: /a\r\nAllow: /a/b$\r\n\r\nUser-agent: *\r\nDisallow: /\r\n",
		"User-agent: foobot\nUser-agent: BarBot/2.1\nDisallow: /%7e\nAllow: /%7E/x\nSitemap: https://example.com/s.xml\nCrawl-delay: 3\nNoindex: /n\n",
		"Disallow: /early\nUser-agent: *\nDisallow: /*.php$\nAllow: /*?\nuser-agent FooBot\ndisalow: /typo\nAllow: /é/ü\n",
		"User-agent: *\nDisallow: /a\nUser-agent: FooBot\nAllow: /\nDisallow: /a/*/c\n# end\n",
		strings.Repeat("User-agent: Bot\nDisallow: /x\n", 200) + "User-agent: FooBot\nDisallow:\n",
	}
	var qs []cases.Question
	for _, agent := range []string{"FooBot", "barbot", "Other", "*", ""} {
		for _, u := range []string{"https://example.com/", "https://example.com/a/b", "https://example.com/a/b/c", "https://example.com/%7Ex",
			"https://example.com/~x", "https://example.com/x.php", "https://example.com/x.php?y", "https://example.com/robots.txt",
			"https://example.com/%C3%A9/%C3%BC", "https://example.com/%zz", "http://[::1/x", "https://example.com/early"} {
			qs = append(qs, cases.Question{Agent: agent, URL: u})
		}
	}
	for _, p := range []cases.Parser{NewGrobotstxt(), NewTemoto()} {
		for n, body := range bodies {
			req := cases.Request{Robots: []byte(body)}
			vs, errs := p.(cases.Batcher).CheckBatch(context.Background(), req, qs)
			for k, q := range qs {
				r := req
				r.Agent, r.URL = q.Agent, q.URL
				want, err := p.Check(context.Background(), r)
				if want != vs[k] || (err == nil) != (errs[k] == nil) {
					t.Errorf("%s, body %d, %q %s: batch %q (error %v), check %q (error %v)", p.Info().Name, n, q.Agent, q.URL, vs[k], errs[k], want, err)
				}
			}
		}
	}
}

const shopRobots = "User-agent: *\nDisallow: /cart\nDisallow: /*?session=\n\nUser-agent: FooBot\nDisallow: /search\n"

func TestGrobotstxt(t *testing.T) {
	badURL := "https://example.com/%zz"
	if _, err := url.Parse(badURL); err == nil {
		t.Fatalf("net/url parses %q; the test needs a URL it refuses", badURL)
	}
	runVerdicts(t, NewGrobotstxt(), []verdictTest{
		{"star group", shopRobots, 0, "BarBot", "https://example.com/cart/1", result.Disallow},
		{"star group, other path", shopRobots, 0, "BarBot", "https://example.com/shoes", result.Allow},
		{"wildcard in query", shopRobots, 0, "BarBot", "https://example.com/shoes?session=4", result.Disallow},
		{"named group replaces star", shopRobots, 0, "FooBot", "https://example.com/cart/1", result.Allow},
		{"named group", shopRobots, 0, "FooBot", "https://example.com/search?q=x", result.Disallow},
		// The library answers "not allowed" for a URL net/url refuses,
		// even under a file that allows everything: kept visible.
		{"unparseable URL", "User-agent: *\nAllow: /\n", 0, "FooBot", badURL, result.Disallow},
		{"unparseable URL, empty file", "", 0, "FooBot", "http://[::1/x", result.Disallow},
	})
	_, err := NewGrobotstxt().Check(context.Background(), cases.Request{Status: 503, Agent: "FooBot", URL: "https://example.com/"})
	if !errors.Is(err, errCapability) {
		t.Errorf("status request: error %v, want errCapability", err)
	}
	if info := NewGrobotstxt().Info(); info.Version != grobotstxtVersion {
		t.Errorf("version %q, want %q (go.mod's)", info.Version, grobotstxtVersion)
	}
}

func TestTemoto(t *testing.T) {
	runVerdicts(t, NewTemoto(), []verdictTest{
		{"star group", shopRobots, 0, "BarBot", "https://example.com/cart/1", result.Disallow},
		{"star group, other path", shopRobots, 0, "BarBot", "https://example.com/shoes", result.Allow},
		// A whole URL would never match "/search"; the adapter passes
		// the path and query.
		{"path and query, not URL", shopRobots, 0, "FooBot", "https://example.com/search?q=x", result.Disallow},
		{"wildcard in query", shopRobots, 0, "BarBot", "https://example.com/shoes?session=4", result.Disallow},
		{"fragment dropped", shopRobots, 0, "BarBot", "https://example.com/cart#top", result.Disallow},
		// FromBytes refuses a whole file for one line it cannot take. A
		// real file of this shape (rules before any User-agent line) is
		// akrherz/iem's htdocs/robots.txt in shared/realworld.
		{"rules before user-agent", "# our site\nCrawl-delay: 30\nDisallow: /tmp/\n", 0, "FooBot", "https://example.com/docs", result.Reject},
		{"crawl-delay not a number", "User-agent: *\nCrawl-delay: soon\nDisallow: /tmp/\n", 0, "FooBot", "https://example.com/docs", result.Reject},
		// Status through FromStatusAndBytes.
		{"status 200", shopRobots, 200, "BarBot", "https://example.com/cart", result.Disallow},
		{"status 200, file refused", "Disallow: /\n", 200, "BarBot", "https://example.com/docs", result.Reject},
		{"status 404", shopRobots, 404, "BarBot", "https://example.com/cart", result.Allow},
		{"status 503", "", 503, "BarBot", "https://example.com/docs", result.Disallow},
		{"status 301 is refused", "", 301, "BarBot", "https://example.com/docs", result.Reject},
	})
	_, err := NewTemoto().Check(context.Background(), cases.Request{RobotsURL: "http://127.0.0.1:1/robots.txt", Agent: "FooBot", URL: "https://example.com/"})
	if !errors.Is(err, errCapability) {
		t.Errorf("fetch request: error %v, want errCapability", err)
	}
	want := []result.Capability{result.CapParse, result.CapStatus}
	if info := NewTemoto().Info(); len(info.Capabilities) != 2 || !info.Has(want[0]) || !info.Has(want[1]) || info.Version != temotoVersion {
		t.Errorf("Info() = %+v, want version %s and capabilities %v", info, temotoVersion, want)
	}
}

func TestReferenceGoogle(t *testing.T) {
	p, err := New(context.Background(), "reference-google", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Info().Name != "reference-google" {
		t.Errorf("name %q", p.Info().Name)
	}
	// The Google option set reads "FooBot/2.1" as naming FooBot; the RFC
	// set does not, whatever the request's profile.
	body := "User-agent: FooBot/2.1\nDisallow: /x\n"
	runVerdicts(t, p, []verdictTest{
		{"google agent reading", body, 0, "FooBot", "https://example.com/x", result.Disallow},
	})
	rfc, err := New(context.Background(), "reference", Options{})
	if err != nil {
		t.Fatal(err)
	}
	runVerdicts(t, rfc, []verdictTest{
		{"rfc agent reading", body, 0, "FooBot", "https://example.com/x", result.Allow},
	})
}

// TestQuickMatchSameAsLibrary checks the grobotstxt adapter's match
// strategy against the library's on every pattern and path made of a few
// octets that matter ("*", "$", "/", letters), all lengths up to four and
// some longer ones.
func TestQuickMatchSameAsLibrary(t *testing.T) {
	var words []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		words = append(words, prefix)
		if n == 0 {
			return
		}
		for _, c := range []string{"*", "$", "/", "a", "b"} {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	words = append(words, "/a*b*a$", "/aaaa*$", "/ab/index.html", "/*ab$", "/a$b", strings.Repeat("/ab", 20), strings.Repeat("*a", 10)+"$")
	lib := grobotstxt.LongestMatchStrategy{}
	for _, pattern := range words {
		for _, path := range words {
			path = "/" + path
			if got, want := (quickMatch{}).MatchAllow(path, pattern), lib.MatchAllow(path, pattern); got != want {
				t.Errorf("MatchAllow(%q, %q) = %d, the library's %d", path, pattern, got, want)
			}
			if got, want := (quickMatch{}).MatchDisallow(path, pattern), lib.MatchDisallow(path, pattern); got != want {
				t.Errorf("MatchDisallow(%q, %q) = %d, the library's %d", path, pattern, got, want)
			}
		}
	}
}
