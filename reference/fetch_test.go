package reference_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reptest/reptest/reference"
)

// chain serves /robots.txt through n redirects ending at a file that
// disallows /private.
func chain(n int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var k int
		switch {
		case r.URL.Path == "/robots.txt":
			k = 0
		case strings.HasPrefix(r.URL.Path, "/hop"):
			fmt.Sscanf(r.URL.Path, "/hop%d", &k)
		}
		if k < n {
			// Relative Locations, resolved against the current URL.
			http.Redirect(w, r, fmt.Sprintf("hop%d", k+1), http.StatusFound)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	})
}

// ACC-3, ACC-5, ACC-6, ACC-7: the access method's outcomes.
func TestFetchAccess(t *testing.T) {
	status := func(code int) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
	}
	loop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/other", http.StatusMovedPermanently)
			return
		}
		http.Redirect(w, r, "/robots.txt", http.StatusMovedPermanently)
	})
	huge := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(10<<20))
		fmt.Fprint(w, "User-agent: *\nDisallow: /early\n")
		line := strings.Repeat("#", 1023) + "\n"
		for i := 0; i < 10<<10-1; i++ {
			if _, err := fmt.Fprint(w, line); err != nil {
				return
			}
		}
	})
	tests := []struct {
		req     string
		name    string
		h       http.Handler
		opts    func(*reference.Options)
		access  reference.Access
		private bool // whether /private is allowed
		early   bool // whether /early is allowed
	}{
		{"ACC-2", "direct", chain(0), nil, reference.Success, false, true},
		{"ACC-3", "five-redirects", chain(5), nil, reference.Success, false, true},
		{"ACC-5", "six-redirects", chain(6), nil, reference.NotAvailable, true, true},
		{"ACC-5", "loop", loop, nil, reference.NotAvailable, true, true},
		{"ACC-6", "404", status(404), nil, reference.NotAvailable, true, true},
		{"ACC-6", "429-rfc", status(429), nil, reference.NotAvailable, true, true},
		{"G-429", "429-google", status(429), func(o *reference.Options) { o.TooManyRequestsUnreachable = true }, reference.NotReachable, false, false},
		{"ACC-7", "500", status(500), nil, reference.NotReachable, false, false},
		{"ACC-7", "599", status(599), nil, reference.NotReachable, false, false},
		{"LIM-2", "10MiB-body", huge, nil, reference.Success, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.req+"/"+tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.h)
			defer srv.Close()
			opts := reference.RFC()
			if tt.opts != nil {
				tt.opts(&opts)
			}
			res := reference.Fetch(context.Background(), srv.Client(), srv.URL+"/robots.txt", opts)
			if res.Info.Access != tt.access {
				t.Fatalf("access = %s, want %s (%s)", res.Info.Access, tt.access, res.Info.Why)
			}
			for path, want := range map[string]bool{"/private": tt.private, "/early": tt.early} {
				d, err := res.Decide("FooBot", srv.URL+path)
				if err != nil || d.Allowed != want {
					t.Errorf("%s: allowed = %v, %v; want %v (%s)", path, d.Allowed, err, want, d)
				}
			}
			if tt.name == "10MiB-body" && (!res.Info.Truncated || res.Info.Bytes > reference.ParseLimit) {
				t.Errorf("body: truncated=%v bytes=%d, want truncated at most %d", res.Info.Truncated, res.Info.Bytes, reference.ParseLimit)
			}
		})
	}
}

// CACHE-2, ACC-8: the cache on an injected clock.
func TestFetcherCache(t *testing.T) {
	keepCopy := reference.RFC()
	keepCopy.OutageIgnoresCache = false
	for _, tt := range []struct {
		name string
		opts reference.Options
		// copyInOutage: the cached copy, not a complete disallow, applies
		// while the file is unreachable for less than 30 days.
		copyInOutage bool
		// copyAfter: after 30 days the cached copy applies, rather than
		// an allow-all.
		copyAfter bool
	}{
		{"rfc", reference.RFC(), false, false},
		{"rfc-keep-copy", keepCopy, true, false},
		{"google", reference.Google(), false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			testFetcherCache(t, tt.opts, tt.copyInOutage, tt.copyAfter)
		})
	}
}

func testFetcherCache(t *testing.T, opts reference.Options, copyInOutage, copyAfter bool) {
	var rules atomic.Value
	var down atomic.Bool
	var fetches atomic.Int32
	rules.Store("/a")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		if down.Load() {
			w.WriteHeader(503)
			return
		}
		fmt.Fprintf(w, "User-agent: *\nDisallow: %s\n", rules.Load())
	}))
	defer srv.Close()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f := &reference.Fetcher{Client: srv.Client(), Options: opts, Now: func() time.Time { return now }}
	ctx := context.Background()
	allowed := func(path string) bool {
		d, err := f.Decide(ctx, "FooBot", srv.URL+path)
		if err != nil {
			t.Fatal(err)
		}
		return d.Allowed
	}
	day := 24 * time.Hour
	steps := []struct {
		at      time.Duration
		rules   string
		down    bool
		path    string
		allowed bool
		fetches int32
	}{
		{0, "/a", false, "/a", false, 1},
		{12 * time.Hour, "/b", false, "/a", false, 1}, // fresh copy reused
		{day, "/b", false, "/a", false, 1},            // exactly 24 h: still used (CACHE-2)
		{25 * time.Hour, "/b", false, "/a", true, 2},  // stale: fetched again
		{25 * time.Hour, "/b", false, "/b", false, 2},
		{50 * time.Hour, "/b", true, "/b", false, 3},               // unreachable
		{50 * time.Hour, "/b", true, "/c", copyInOutage, 4},        // no failure is cached
		{50*time.Hour + 29*day, "/b", true, "/c", copyInOutage, 5}, // still within 30 days
		{50*time.Hour + 31*day, "/b", true, "/c", true, 6},         // long outage
		{50*time.Hour + 31*day, "/b", true, "/b", !copyAfter, 7},
	}
	for _, s := range steps {
		now = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(s.at)
		rules.Store(s.rules)
		down.Store(s.down)
		if got := allowed(s.path); got != s.allowed {
			t.Errorf("at %s: %s allowed = %v, want %v", s.at, s.path, got, s.allowed)
		}
		if got := fetches.Load(); got != s.fetches {
			t.Errorf("at %s: %d fetches so far, want %d", s.at, got, s.fetches)
		}
	}
}

// A slow authority does not hold up decisions for another.
func TestFetcherConcurrentAuthorities(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
	}))
	defer slow.Close()
	defer close(release)
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /x\n")
	}))
	defer fast.Close()
	f := &reference.Fetcher{Options: reference.RFC()}
	go f.Decide(context.Background(), "FooBot", slow.URL+"/a")
	done := make(chan error, 1)
	go func() {
		_, err := f.Decide(context.Background(), "FooBot", fast.URL+"/x")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a fetch from one authority waited for another's")
	}
}
