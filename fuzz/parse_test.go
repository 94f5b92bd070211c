package fuzz

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/reference"
)

// Bounds the reference must keep on any input (LIM-2: a parser protects
// the crawler from hostile files).
const (
	// allocPerByte and allocSlack bound the bytes reference.Parse may
	// allocate for a body of n bytes: allocPerByte*n + allocSlack. The
	// worst ratio seen is about 22: a file of short rules with bare CR
	// line ends (the reference sizes its slices by counting LF), or of
	// "allow:/index.htm" lines under the Google options (each adds a
	// derived rule); the seeds cr-rules and cr-index-html hold both.
	// Ordinary files stay under 10.
	allocPerByte = 32
	allocSlack   = 64 << 10

	// timeBudget bounds the CPU time of parsing one input and deciding
	// its (agent, URL) pair. The fuzzer itself only reports a hang after
	// about ten seconds, so the target measures and fails on its own. CPU
	// time (cpuTime) rather than wall time keeps a busy machine from
	// failing the target.
	timeBudget = 100 * time.Millisecond

	// maxProbeURL is the longest URL a target decides: longer ones are
	// cut. Twice the 2083 bytes browsers accept; matching cost grows with
	// the URL's length times the pattern's.
	maxProbeURL = 4166

	// maxAgents and maxURLs bound the probes derived from one input;
	// files larger than bigBody get fewer (bigAgents, bigURLs), so that
	// hostile seeds do not slow the whole fuzzing loop down.
	maxAgents = 6
	maxURLs   = 8
	bigBody   = 16 << 10
	bigAgents = 2
	bigURLs   = 3

	// measureTries is how often a limit is measured before it fails: the
	// best of several runs filters out a GC cycle or a busy machine.
	measureTries = 3
)

// profiles returns the option sets every target runs: the RFC's and
// Google's.
func profiles() []reference.Options {
	return []reference.Options{reference.RFC(), reference.Google()}
}

// isProductToken reports whether s is a product token of RFC 9309 §2.2.1:
// one or more of a-z, A-Z, "_" and "-" (UA-1). It is written here rather
// than taken from the reference so that the reference's check is tested.
func isProductToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// cutURL cuts a URL to maxProbeURL bytes.
func cutURL(u string) string {
	if len(u) > maxProbeURL {
		return u[:maxProbeURL]
	}
	return u
}

// FuzzParse feeds any bytes to the reference as robots.txt, under the RFC
// and the Google options. The reference must not panic, must allocate at
// most allocPerByte bytes per input byte (plus allocSlack), must parse and
// decide within timeBudget, must refuse agents that are not product tokens
// with reference.ErrInvalidToken, and must give every token a decision
// whose trace agrees with the file. Agents and URLs are also derived from
// the file itself: the names of its groups and the paths of its rules.
func FuzzParse(f *testing.F) {
	addDocSeeds(f, fuzzing())
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		url = cutURL(url)
		for _, opts := range profiles() {
			checkParse(t, opts, body, agent, url)
		}
	})
}

func checkParse(t *testing.T, opts reference.Options, body []byte, agent, url string) {
	r := checkParseLimits(t, opts, body, agent, url)
	lines := r.Lines()
	na, nu := maxAgents, maxURLs
	if len(body) > bigBody {
		na, nu = bigAgents, bigURLs
	}
	for _, a := range probeAgents(r, agent, na) {
		for _, u := range probeURLs(lines, url, nu) {
			checkDecision(t, opts, r, lines, a, u)
			// The one-shot decision gives the parsed file's verdict.
			want, errP := r.Allowed(a, u)
			got, errO := reference.AllowedOnce(string(body), opts, a, u)
			if got != want || (errP == nil) != (errO == nil) {
				t.Fatalf("%s: agent %q, URL %q: AllowedOnce = %v, %v; Parse+Allowed = %v, %v", opts.Name, a, u, got, errO, want, errP)
			}
		}
	}
	// Allowed builds no trace and does not allocate, for a URL that is a
	// short absolute path and a token that fits the reference's buffer.
	if isProductToken(agent) && len(agent) <= 64 && len(url) <= 160 &&
		strings.HasPrefix(url, "/") && !strings.HasPrefix(url, "//") {
		if n := mallocs(func() { _, _ = r.Allowed(agent, url) }); n != 0 {
			t.Errorf("%s: Allowed(%q, %q) made %d allocations, want 0", opts.Name, agent, url, n)
		}
	}
}

// checkParseLimits parses body, checking the allocation bound and the
// time bound, and returns the parsed file.
func checkParseLimits(t *testing.T, opts reference.Options, body []byte, agent, url string) *reference.Robots {
	t.Helper()
	limit := uint64(allocPerByte*len(body) + allocSlack)
	var r *reference.Robots
	best := ^uint64(0)
	for range measureTries {
		var n uint64
		r, n = parseAllocs(body, opts)
		best = min(best, n)
		if best <= limit {
			break
		}
	}
	if best > limit {
		t.Fatalf("%s: Parse of %d bytes allocated %d bytes, more than %d (%d per byte + %d)",
			opts.Name, len(body), best, limit, allocPerByte, allocSlack)
	}

	bestTime := time.Duration(1<<63 - 1)
	for range measureTries {
		start := cpuTime()
		rr := reference.Parse(body, opts)
		_, _ = rr.Decide(agent, url)
		_, _ = rr.Allowed(agent, url)
		bestTime = min(bestTime, cpuTime()-start)
		if bestTime <= timeBudget {
			break
		}
	}
	if bestTime > timeBudget {
		t.Fatalf("%s: parsing %d bytes and deciding (%q, %d-byte URL) took %v of CPU time, more than %v",
			opts.Name, len(body), agent, len(url), bestTime, timeBudget)
	}
	return r
}

// parseAllocs parses body and returns the bytes the heap grew by.
func parseAllocs(body []byte, opts reference.Options) (*reference.Robots, uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := reference.Parse(body, opts)
	runtime.ReadMemStats(&after)
	return r, after.TotalAlloc - before.TotalAlloc
}

// mallocs returns the fewest heap allocations fn made in measureTries
// runs. (testing.AllocsPerRun is not available in the OSS-Fuzz build.)
func mallocs(fn func()) uint64 {
	best := ^uint64(0)
	var before, after runtime.MemStats
	for range measureTries {
		runtime.ReadMemStats(&before)
		fn()
		runtime.ReadMemStats(&after)
		best = min(best, after.Mallocs-before.Mallocs)
		if best == 0 {
			break
		}
	}
	return best
}

// probeAgents returns the agents to ask about: the fuzzer's, the names the
// file gives its groups (as listed and upper-cased), a token no file names
// and "*", which is not a product token.
func probeAgents(r *reference.Robots, agent string, n int) []string {
	agents := []string{agent, "*", "FooBot"}
	for _, name := range r.Agents() {
		if len(agents) >= n {
			break
		}
		agents = append(agents, name, strings.ToUpper(name))
	}
	return agents[:min(len(agents), n)]
}

// probeURLs returns at most n URLs to ask about: the fuzzer's, "/robots.txt",
// and for the file's rules their paths as written, without "*" and "$",
// and with an octet appended.
func probeURLs(lines []reference.Line, url string, n int) []string {
	urls := []string{url, "/robots.txt"}
	for _, l := range lines {
		if len(urls) >= n {
			break
		}
		if l.Kind != reference.Allow && l.Kind != reference.Disallow {
			continue
		}
		v := cutURL(l.Value)
		urls = append(urls, v, strings.NewReplacer("*", "", "$", "").Replace(v)+"x")
	}
	return urls[:min(len(urls), n)]
}

// checkDecision checks one decision of the reference: the error for an
// agent that is not a token, and for a token a verdict that Allowed and
// Decide agree on, with a trace that points at a rule of the file.
func checkDecision(t *testing.T, opts reference.Options, r *reference.Robots, lines []reference.Line, agent, url string) {
	t.Helper()
	d, errD := r.Decide(agent, url)
	ok, errA := r.Allowed(agent, url)
	// Google's options take any agent string (AnyAgent); the RFC's refuse
	// what is not a product token (UA-1).
	if !isProductToken(agent) && !opts.AnyAgent {
		if !errors.Is(errD, reference.ErrInvalidToken) || !errors.Is(errA, reference.ErrInvalidToken) {
			t.Fatalf("%s: agent %q is not a product token: Decide error %v, Allowed error %v; want reference.ErrInvalidToken",
				opts.Name, agent, errD, errA)
		}
		return
	}
	if errD != nil || errA != nil {
		t.Fatalf("%s: agent %q, URL %q: Decide error %v, Allowed error %v; want a verdict", opts.Name, agent, url, errD, errA)
	}
	if ok != d.Allowed {
		t.Fatalf("%s: agent %q, URL %q: Allowed says %v, Decide says %v (%s)", opts.Name, agent, url, ok, d.Allowed, d)
	}
	switch d.Reason {
	case reference.RuleMatched:
		n := d.Rule.Line
		if n < 1 || n > len(lines) {
			t.Fatalf("%s: agent %q, URL %q: deciding rule at line %d of a %d-line file (%s)", opts.Name, agent, url, n, len(lines), d)
		}
		l := lines[n-1]
		want := reference.Disallow
		if d.Rule.Allow {
			want = reference.Allow
		}
		if l.Number != n || l.Kind != want || l.Value != d.Rule.Pattern || d.Allowed != d.Rule.Allow {
			t.Fatalf("%s: agent %q, URL %q: decision %s does not match line %d as read: %+v", opts.Name, agent, url, d, n, l)
		}
	case reference.NoGroup, reference.NoMatchingRule:
		if !d.Allowed {
			t.Fatalf("%s: agent %q, URL %q: %s without a rule, want allow", opts.Name, agent, url, d)
		}
	case reference.RobotsTxt:
		if !d.Allowed || !opts.ImplicitRobotsTxt {
			t.Fatalf("%s: agent %q, URL %q: unexpected implicit /robots.txt decision %s", opts.Name, agent, url, d)
		}
	default:
		t.Fatalf("%s: agent %q, URL %q: a parsed file gave reason %v", opts.Name, agent, url, d.Reason)
	}
}
