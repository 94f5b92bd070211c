package parsers

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// newPeer starts a shipped peer, or skips the test naming the package
// that is missing.
func newPeer(t *testing.T, name string) cases.Parser {
	t.Helper()
	p, err := New(context.Background(), name, Options{})
	if errors.Is(err, ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("New(%q): %v", name, err)
	}
	if c, ok := p.(cases.Closer); ok {
		t.Cleanup(func() { c.Close() })
	}
	return p
}

// Checks that every peer answers alike, unless its own checks have one of
// the same name.
var commonPeerChecks = []verdictTest{
	{"star group", "User-agent: *\nDisallow: /private\n", 0, "FooBot", "https://example.com/private/x", result.Disallow},
	{"star group, other path", "User-agent: *\nDisallow: /private\n", 0, "FooBot", "https://example.com/public", result.Allow},
	{"named group", "User-agent: FooBot\nDisallow: /foo\n\nUser-agent: *\nDisallow: /\n", 0, "FooBot", "https://example.com/foo/1", result.Disallow},
	{"named group replaces star", "User-agent: FooBot\nDisallow: /foo\n\nUser-agent: *\nDisallow: /\n", 0, "FooBot", "https://example.com/bar", result.Allow},
	{"other agent gets star", "User-agent: FooBot\nDisallow: /foo\n\nUser-agent: *\nDisallow: /\n", 0, "BarBot", "https://example.com/bar", result.Disallow},
	{"empty file", "", 0, "FooBot", "https://example.com/x", result.Allow},
}

// Groups for several agents, for the peers that parse a body once for
// all the agents a question names.
const agentLines = "User-agent: FooBot\nUser-agent: BazBot\nDisallow: /foo\n\nUser-agent: *\nDisallow: /star\n"

// An Allow inside a Disallow: libraries differ, which shows that the peer
// really runs its library.
const allowInside = "User-agent: *\nDisallow: /docs\nAllow: /docs/public\n"

func TestPeers(t *testing.T) {
	tests := []struct {
		name  string
		caps  []result.Capability
		extra []verdictTest
	}{
		{"python-urllib", []result.Capability{result.CapParse, result.CapStatus}, []verdictTest{
			// The first matching rule wins, in file order.
			{"first match", allowInside, 0, "FooBot", "https://example.com/docs/public/a", result.Disallow},
			{"401 disallows all", "", 401, "FooBot", "https://example.com/x", result.Disallow},
			{"404 allows all", "", 404, "FooBot", "https://example.com/x", result.Allow},
			{"503 leaves the file unread", "", 503, "FooBot", "https://example.com/x", result.Disallow},
			{"200 reads the body", "User-agent: *\nDisallow: /x\n", 200, "FooBot", "https://example.com/x", result.Disallow},
			{"not UTF-8", "User-agent: *\nDisallow: /caf\xe9\n", 0, "FooBot", "https://example.com/x", result.Reject},
		}},
		{"protego", []result.Capability{result.CapParse}, []verdictTest{
			{"longest match", allowInside, 0, "FooBot", "https://example.com/docs/public/a", result.Allow},
			{"wildcard", "User-agent: *\nDisallow: /*.pdf$\n", 0, "FooBot", "https://example.com/a/b.pdf", result.Disallow},
		}},
		{"robots-parser", []result.Capability{result.CapParse}, []verdictTest{
			{"longest match", allowInside, 0, "FooBot", "https://example.com/docs/public/a", result.Allow},
			{"wildcard", "User-agent: *\nDisallow: /*.pdf$\n", 0, "FooBot", "https://example.com/a/b.pdf", result.Disallow},
		}},
		{"robots-txt-guard", []result.Capability{result.CapParse}, []verdictTest{
			// Rules sorted by length, the first match wins; an Allow beats
			// a Disallow of the same path.
			{"longest match", allowInside, 0, "FooBot", "https://example.com/docs/public/a", result.Allow},
			{"wildcard", "User-agent: *\nDisallow: /*.pdf$\n", 0, "FooBot", "https://example.com/a/b.pdf", result.Disallow},
			{"same path, allow wins", "User-agent: *\nDisallow: /x\nAllow: /x\n", 0, "FooBot", "https://example.com/x", result.Allow},
			// The agent is matched as a substring of the crawler's name.
			{"agent substring", "User-agent: Foo\nDisallow: /\n", 0, "FooBot", "https://example.com/x", result.Disallow},
		}},
		{"robots-txt-parser", []result.Capability{result.CapParse}, []verdictTest{
			{"longest match", allowInside, 0, "FooBot", "https://example.com/docs/public/a", result.Allow},
			// Patterns are unanchored regular expressions over the whole
			// URL: a rule matches anywhere in it.
			{"unanchored", "User-agent: *\nDisallow: /b\n", 0, "FooBot", "https://example.com/a/b", result.Disallow},
			// Its parser throws on a one-line file without a record.
			{"one line, no record", "nothing here", 0, "FooBot", "https://example.com/x", result.Reject},
			{"empty file", "", 0, "FooBot", "https://example.com/x", result.Reject},
		}},
		{"perl-robotrules", []result.Capability{result.CapParse}, []verdictTest{
			// WWW::RobotRules knows Disallow only; Allow lines are ignored.
			{"allow ignored", allowInside, 0, "FooBot", "https://example.com/docs/public/a", result.Disallow},
			// A line names the agent when its value is a substring of the
			// agent's first word without its version. The peer parses a body
			// once for the agents that this test answers alike, so the
			// checks below ask three agents in turn about one body.
			{"line inside the agent", agentLines, 0, "MyFooBot/2.0 (+https://example.com)", "https://example.com/foo", result.Disallow},
			{"line longer than the agent", agentLines, 0, "Foo", "https://example.com/foo", result.Allow},
			{"line longer than the agent, star group", agentLines, 0, "Foo", "https://example.com/star", result.Disallow},
			{"no line names the agent", agentLines, 0, "BarBot", "https://example.com/star", result.Disallow},
		}},
		{"webrobots", []result.Capability{result.CapParse, result.CapStatus}, []verdictTest{
			{"longest match", allowInside, 0, "FooBot", "https://example.com/docs/public/a", result.Allow},
			{"404 allows all", "User-agent: *\nDisallow: /\n", 404, "FooBot", "https://example.com/x", result.Allow},
			{"503 disallows all", "", 503, "FooBot", "https://example.com/x", result.Disallow},
			{"200 reads the body", "User-agent: *\nDisallow: /x\n", 200, "FooBot", "https://example.com/y", result.Allow},
			// The library drops a file it cannot parse and records a
			// parse error.
			{"parse error", "User-agent: *\nDisallow: /\n(((\n", 0, "FooBot", "https://example.com/x", result.Reject},
			// One parse serves every agent: each still gets its own group.
			{"second agent line", agentLines, 0, "BazBot", "https://example.com/foo", result.Disallow},
			{"second agent line, other path", agentLines, 0, "BazBot", "https://example.com/star", result.Allow},
			{"agent as a substring", agentLines, 0, "MyFooBot", "https://example.com/foo", result.Disallow},
			{"no line names the agent", agentLines, 0, "BarBot", "https://example.com/foo", result.Allow},
			{"crawl-delay does not sleep", "User-agent: *\nCrawl-delay: 3600\nDisallow: /x\n", 0, "FooBot", "https://example.com/x", result.Disallow},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPeer(t, tt.name)
			info := p.Info()
			if info.Name != tt.name || info.Version == "" || info.Runtime == "" || !slices.Equal(info.Capabilities, tt.caps) {
				t.Errorf("Info() = %+v, want name %q, a version, a runtime, capabilities %v", info, tt.name, tt.caps)
			}
			t.Logf("%s version %s on %s", info.Name, info.Version, info.Runtime)
			checks := slices.DeleteFunc(slices.Clone(commonPeerChecks), func(c verdictTest) bool {
				return slices.ContainsFunc(tt.extra, func(e verdictTest) bool { return e.name == c.name })
			})
			runVerdicts(t, p, append(checks, tt.extra...))
			runBatchVerdicts(t, p.(cases.Batcher), append(checks, tt.extra...))
			if !info.Has(result.CapStatus) {
				_, err := p.Check(context.Background(), cases.Request{Status: 503, Agent: "FooBot", URL: "https://example.com/"})
				if !errors.Is(err, errCapability) {
					t.Errorf("status request: error %v, want errCapability", err)
				}
			}
		})
	}
}

func TestPeerUnavailable(t *testing.T) {
	peersDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(peersDir, "fake.sh"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		p       peer
		wantMsg string
	}{
		{"library missing", peer{name: "fake", runtime: "sh", apt: []string{"dash", "python3-fake"}, script: "fake.sh",
			probe: []string{"-c", "exit 1"}, missing: "cannot import fake"},
			"fake: sh cannot import fake; install with `apt-get install -y --no-install-recommends dash python3-fake`; `reptest doctor --parser fake` says what is missing"},
		{"runtime missing", peer{name: "fake", runtime: "no-such-interpreter-x", apt: []string{"fake-lang"}, script: "fake.sh"},
			"fake: no-such-interpreter-x not found; install with `apt-get install -y --no-install-recommends fake-lang`; `reptest doctor --parser fake` says what is missing"},
	}
	for _, tt := range tests {
		_, err := tt.p.start(context.Background(), Options{PeersDir: peersDir})
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s: error %v, want ErrUnavailable", tt.name, err)
			continue
		}
		if err.Error() != tt.wantMsg {
			t.Errorf("%s: message %q, want %q", tt.name, err, tt.wantMsg)
		}
	}
	// A peers directory without the programs.
	for _, name := range []string{"protego", "robots-parser", "robots-txt-guard", "robots-txt-parser"} {
		_, err := New(context.Background(), name, Options{PeersDir: t.TempDir()})
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s in an empty peers directory: error %v, want ErrUnavailable", name, err)
		}
	}
}

// TestPeerRuntimeMissing runs New with an empty PATH: the interpreters
// found through PATH are reported missing with the command that installs
// them, the same as reptest doctor's.
func TestPeerRuntimeMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir, err := PeersDir(Options{})
	if err != nil {
		t.Fatal(err)
	}
	node := "apt-get install -y --no-install-recommends nodejs npm && cd " + filepath.Join(dir, "node") + " && npm ci --no-audit --no-fund"
	want := map[string]string{
		"python-urllib":     "python-urllib: python3 not found; install with `apt-get install -y --no-install-recommends python3`",
		"perl-robotrules":   "perl-robotrules: perl not found; install with `apt-get install -y --no-install-recommends libjson-xs-perl libwww-robotrules-perl perl`",
		"webrobots":         "webrobots: ruby not found; install with `apt-get install -y --no-install-recommends ruby ruby-webrobots`",
		"robots-parser":     "robots-parser: node not found; install with `" + node + "`",
		"robots-txt-guard":  "robots-txt-guard: node not found; install with `" + node + "`",
		"robots-txt-parser": "robots-txt-parser: node not found; install with `" + node + "`",
	}
	for name, msg := range want {
		msg += "; `reptest doctor --parser " + name + "` says what is missing"
		_, err := New(context.Background(), name, Options{})
		if !errors.Is(err, ErrUnavailable) || err.Error() != msg {
			t.Errorf("New(%q) with an empty PATH: %v; want %q wrapping ErrUnavailable", name, err, msg)
		}
	}
}

// TestNodePeersMissingPackage runs the Node peers from a peers directory
// whose node_modules is empty: each is unavailable, naming the npm package
// and version to install, so the tests that need it skip with that.
func TestNodePeersMissingPackage(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found (install Debian package nodejs)")
	}
	src, err := PeersDir(Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "node", "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(src, "node", "*.js"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "node", filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{
		"robots-parser":     "npm robots-parser@3.0.1",
		"robots-txt-guard":  "npm robots-txt-guard@1.0.2 robots-txt-parse@2.0.1",
		"robots-txt-parser": "npm robots-txt-parser@2.0.3",
	}
	for name, pkg := range want {
		_, err := New(context.Background(), name, Options{PeersDir: dir})
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), pkg) {
			t.Errorf("New(%q) without node_modules: %v; want ErrUnavailable naming %q", name, err, pkg)
		}
	}
}

// TestPeersOutsideCheckout checks that outside a checkout the embedded
// programs are written to the user's cache folder and run from there.
func TestPeersOutsideCheckout(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv(PeersEnv, "")
	t.Chdir(t.TempDir())
	dir, err := PeersDir(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, "reptest", "peers"); filepath.Dir(dir) != want {
		t.Errorf("PeersDir() = %s, want a folder in %s", dir, want)
	}
	p := newPeer(t, "python-urllib")
	runVerdicts(t, p, commonPeerChecks)
}

// runBatchVerdicts asks the checks of tests as batches, one per body and
// status with all of its questions, and compares each answer with the
// check's wanted verdict: a batch must answer as the single checks do.
func runBatchVerdicts(t *testing.T, p cases.Batcher, tests []verdictTest) {
	t.Helper()
	type body struct {
		robots string
		status int
	}
	var order []body
	byBody := map[body][]verdictTest{}
	for _, tt := range tests {
		b := body{tt.robots, tt.status}
		if _, ok := byBody[b]; !ok {
			order = append(order, b)
		}
		byBody[b] = append(byBody[b], tt)
	}
	for _, b := range order {
		group := byBody[b]
		qs := make([]cases.Question, len(group))
		want := make([]result.Verdict, len(group))
		for i, tt := range group {
			qs[i], want[i] = cases.Question{Agent: tt.agent, URL: tt.url}, tt.want
		}
		got, errs := p.CheckBatch(context.Background(), cases.Request{Robots: []byte(b.robots), Status: b.status}, qs)
		for i, err := range errs {
			if err != nil {
				t.Errorf("batch of %q, status %d: %s: unexpected error: %v", b.robots, b.status, group[i].name, err)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("batch of %q, status %d: verdicts differ from the single checks' (-want +got):\n%s", b.robots, b.status, diff)
		}
	}
}

// TestPeersBatch checks that every peer announces the batch capability
// and answers a batch as it answers the same questions one by one, on
// bodies it accepts, rejects or cannot read, with statuses, several
// agents interleaved as the differential engine asks them (by URL, then
// agent), and questions that fail alone. The single checks go to a
// program of their own, in the reverse order, so that a cache that keeps
// the wrong parse shows as a difference.
func TestPeersBatch(t *testing.T) {
	bodies := []string{
		allowInside,
		"User-agent: FooBot\nDisallow: /foo\n\nUser-agent: *\nDisallow: /\n",
		"User-agent: BarBot\nDisallow: /docs\n\nUser-agent: FooBot\nAllow: /\nDisallow: /bar\n",
		"",
		"nothing here",                         // robots-txt-parser rejects it
		"User-agent: *\nDisallow: /\n(((\n",    // webrobots cannot parse it
		"User-agent: *\nDisallow: /caf\xe9\n",  // not UTF-8: python-urllib rejects it
		"User-agent: *\r\nDisallow: /docs\r\n", // CRLF
	}
	var qs []cases.Question
	for _, u := range []string{"https://example.com/docs/public/a", "https://example.com/foo/1", "https://example.com/bar", "http://other.example/docs", "ftp://example.com/x", "not a URL"} {
		for _, a := range []string{"FooBot", "BarBot", "BazBot/2.1"} {
			qs = append(qs, cases.Question{Agent: a, URL: u})
		}
	}
	for _, pr := range peers() {
		t.Run(pr.name, func(t *testing.T) {
			batch, single := newPeer(t, pr.name).(*Exec), newPeer(t, pr.name).(*Exec)
			if !batch.batch {
				t.Errorf("%s does not announce the batch capability", pr.name)
			}
			statuses := []int{0}
			if batch.Info().Has(result.CapStatus) {
				statuses = append(statuses, 200, 404, 503)
			}
			for _, body := range bodies {
				for _, status := range statuses {
					req := cases.Request{Robots: []byte(body), Status: status, Profile: result.ProfileRFC}
					got, gerrs := batch.CheckBatch(context.Background(), req, qs)
					want, werrs := reversedChecks(single, req, qs)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("body %q, status %d: batch differs from single checks (-want +got):\n%s", body, status, diff)
					}
					for i := range qs {
						if (werrs[i] == nil) != (gerrs[i] == nil) {
							t.Errorf("body %q, status %d, question %+v: errors %v (single) and %v (batch)", body, status, qs[i], werrs[i], gerrs[i])
						}
					}
				}
			}
		})
	}
}

// reversedChecks asks p each question with Check, last question first,
// and returns the verdicts and errors in the order of qs.
func reversedChecks(p cases.Parser, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	vs := make([]result.Verdict, len(qs))
	errs := make([]error, len(qs))
	for i := len(qs) - 1; i >= 0; i-- {
		r := req
		r.Agent, r.URL = qs[i].Agent, qs[i].URL
		vs[i], errs[i] = p.Check(context.Background(), r)
	}
	return vs, errs
}
