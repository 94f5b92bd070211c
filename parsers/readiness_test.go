package parsers

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reptest/reptest/setup"
	"github.com/reptest/reptest/setup/setuptest"
)

// fakeRuntimes makes PATH a folder of fake interpreters: ruby loads any
// library and answers the hello, node loads none; perl and python3 are
// absent.
func fakeRuntimes(t *testing.T) {
	t.Helper()
	setuptest.FakePath(t, map[string]string{
		"ruby": `case "$1" in -e) exit 0;; esac
read hello
echo '{"name":"webrobots","version":"0.1.2","runtime":"fake-ruby 9.9","capabilities":["parse"]}'
while read line; do :; done`,
		"node": `echo "Error: Cannot find module 'robots-parser'" >&2; exit 1`,
	})
}

// TestReadiness checks the statuses with fake runtimes on PATH: what New
// decides, with the version and runtime of the hello, or the reason and
// the install command of the "did not run" message.
func TestReadiness(t *testing.T) {
	fakeRuntimes(t)
	peersDir, err := PeersDir(Options{})
	if err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(peersDir, "node")
	want := []setup.Status{
		{Name: "reference", Kind: setup.KindParser, Ready: true, Runtime: "Go " + runtime.Version() + ", in this binary"},
		{Name: "webrobots", Kind: setup.KindParser, Ready: true, Version: "0.1.2", Runtime: "fake-ruby 9.9",
			Apt: []string{"ruby", "ruby-webrobots"}, Install: "apt-get install -y --no-install-recommends ruby ruby-webrobots"},
		{Name: "perl-robotrules", Kind: setup.KindParser, Reason: "perl not found",
			Apt:     []string{"perl", "libwww-robotrules-perl", "libjson-xs-perl"},
			Install: "apt-get install -y --no-install-recommends libjson-xs-perl libwww-robotrules-perl perl"},
		{Name: "robots-parser", Kind: setup.KindParser, Reason: "node cannot load robots-parser (npm robots-parser@3.0.1)",
			Apt: []string{"nodejs", "npm"}, NpmDir: node,
			// The fake node is not Debian's (dpkg does not know it): no
			// Debian nodejs and npm, which would conflict with it.
			Install: "cd " + node + " && npm ci --no-audit --no-fund"},
	}
	for _, w := range want {
		got := Readiness(context.Background(), w.Name, Options{})
		if diff := cmp.Diff(w, got, cmpopts.IgnoreFields(setup.Status{}, "Version")); diff != "" {
			t.Errorf("%s (-want +got):\n%s", w.Name, diff)
		}
		if w.Ready && got.Version == "" {
			t.Errorf("%s: no version", w.Name)
		}
		// The message of New, which run and diff print, names the same
		// install command.
		if w.Ready {
			continue
		}
		if _, err := New(context.Background(), w.Name, Options{}); err == nil || !strings.Contains(err.Error(), w.Install) {
			t.Errorf("%s: New's error %v does not name %q", w.Name, err, w.Install)
		}
	}
}
