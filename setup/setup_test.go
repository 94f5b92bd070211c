package setup

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/setup/setuptest"
)

func TestProgramCheck(t *testing.T) {
	setuptest.FakePath(t, map[string]string{
		"wget":     `echo "GNU Wget 1.21.3 built on linux-gnu."`,
		"httrack":  `echo "HTTrack version 3.49-4+libhtsjava.so.2"`,
		"ruby":     `case "$1" in --version) echo "ruby 3.1.2p20 (2022-04-12) [x86_64-linux-gnu]";; *) echo "<internal:/usr/lib/ruby/3.1.0/rubygems>:85:in require: cannot load such file -- mechanize (LoadError)" >&2; exit 1;; esac`,
		"kubectl":  `echo "error: unknown flag" >&2; exit 3`,
		"faketime": `echo "faketime: Version 0.9.10"`,
	})
	want := map[string]Status{
		"wget":      {Name: "wget", Kind: KindCrawler, Ready: true, Version: "1.21.3", Apt: []string{"wget"}, Install: "apt-get install -y --no-install-recommends wget"},
		"httrack":   {Name: "httrack", Kind: KindCrawler, Ready: true, Version: "3.49-4+libhtsjava.so.2", Apt: []string{"httrack"}, Install: "apt-get install -y --no-install-recommends httrack"},
		"wget2":     {Name: "wget2", Kind: KindCrawler, Reason: "wget2 not found on PATH", Apt: []string{"wget2"}, Install: "apt-get install -y --no-install-recommends wget2"},
		"mechanize": {Name: "mechanize", Kind: KindCrawler, Runtime: "ruby 3.1.2p20", Reason: "ruby: exit status 1: <internal:/usr/lib/ruby/3.1.0/rubygems>:85:in require: cannot load such file -- mechanize (LoadError)", Apt: []string{"ruby", "ruby-mechanize"}, Install: "apt-get install -y --no-install-recommends ruby ruby-mechanize"},
		"kubectl":   {Name: "kubectl", Kind: KindTool, Reason: "kubectl: exit status 3: error: unknown flag", Apt: []string{"kubernetes-client"}, Install: "apt-get install -y --no-install-recommends kubernetes-client"},
		"faketime":  {Name: "faketime", Kind: KindTool, Ready: true, Version: "0.9.10", Apt: []string{"faketime"}, Install: "apt-get install -y --no-install-recommends faketime"},
	}
	for _, p := range Programs() {
		w, ok := want[p.Name]
		if !ok {
			continue
		}
		if diff := cmp.Diff(w, p.Check(context.Background())); diff != "" {
			t.Errorf("%s (-want +got):\n%s", p.Name, diff)
		}
	}
}

func TestInstallCommands(t *testing.T) {
	if got, want := InstallCommand([]string{"npm", "nodejs", "npm"}, "/c/peers/node"), "apt-get install -y --no-install-recommends nodejs npm && cd /c/peers/node && npm ci --no-audit --no-fund"; got != want {
		t.Errorf("InstallCommand = %q, want %q", got, want)
	}
	if got, want := NpmCommand("/a b/node"), `cd '/a b/node' && npm ci --no-audit --no-fund`; got != want {
		t.Errorf("NpmCommand = %q, want %q", got, want)
	}
	if p, ok := ProgramFor("/usr/bin/wget2"); !ok || p.Name != "wget2" {
		t.Errorf("ProgramFor(/usr/bin/wget2) = %v, %v", p.Name, ok)
	}
	if _, ok := ProgramFor("ruby"); ok {
		t.Error("ProgramFor(ruby) found a program: an interpreter runs many")
	}
}

// TestMissingPackages: a package whose command is on PATH counts as
// installed; the others are asked of dpkg. Debian's npm is never asked
// for next to a Node.js that is not Debian's (it conflicts with
// NodeSource's nodejs, which brings its own npm).
func TestMissingPackages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		progs map[string]string
		want  []string
	}{
		{"no node", map[string]string{}, []string{"nodejs", "npm", "python3-protego"}},
		{"Debian's nodejs without npm", map[string]string{"node": "exit 0",
			"dpkg-query": `case "$*" in *nodejs*) echo "install ok installed 18.19.0+dfsg-6~deb12u2";; *) exit 1;; esac`}, []string{"npm", "python3-protego"}},
		{"NodeSource's nodejs", map[string]string{"node": "exit 0",
			"dpkg-query": `case "$*" in *nodejs*) echo "install ok installed 20.20.2-1nodesource1";; *) exit 1;; esac`}, []string{"python3-protego"}},
		{"a node dpkg does not know (nvm)", map[string]string{"node": "exit 0"}, []string{"python3-protego"}},
	} {
		setuptest.FakePath(t, tc.progs)
		got := MissingPackages(context.Background(), []string{"npm", "nodejs", "python3-protego", "nodejs"})
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// The simplecrawler row checks the crawler's own folder of the checkout,
// crawlers/simplecrawler (its library loaded there), and says to run npm
// ci there; Debian's nodejs and npm only next to no Node.js or Debian's.
func TestSimplecrawlerRow(t *testing.T) {
	var sc Program
	for _, p := range Programs() {
		if p.Name == "simplecrawler" {
			sc = p
		}
	}
	node := `case "$1" in --version) echo v20.20.2;; *) if [ -f node_modules/simplecrawler/package.json ]; then echo 1.1.9; else echo "Error: Cannot find module 'simplecrawler/package.json'" >&2; exit 1; fi;; esac`
	nodesource := `echo "install ok installed 20.20.2-1nodesource1"`
	debian := `echo "install ok installed 18.19.0+dfsg-6~deb12u2"`
	const npmCI = "cd crawlers/simplecrawler && npm ci --no-audit --no-fund"
	const notLoaded = "node: exit status 1: Error: Cannot find module 'simplecrawler/package.json'"
	for _, tc := range []struct {
		name       string
		dpkg       string
		lock, libs bool
		want       Status
	}{
		{"outside the checkout", nodesource, false, false, Status{
			Reason: "no crawlers/simplecrawler/package-lock.json here: run reptest doctor in the reptest checkout, whose crawlers/simplecrawler holds the crawler's script and package-lock.json"}},
		{"NodeSource, no npm ci yet", nodesource, true, false, Status{Runtime: "node v20.20.2", NpmDir: "crawlers/simplecrawler", Install: npmCI, Reason: notLoaded}},
		{"Debian's nodejs, no npm ci yet", debian, true, false, Status{Runtime: "node v20.20.2", NpmDir: "crawlers/simplecrawler",
			Install: "apt-get install -y --no-install-recommends nodejs npm && " + npmCI, Reason: notLoaded}},
		{"installed", nodesource, true, true, Status{Ready: true, Version: "1.1.9", Runtime: "node v20.20.2", NpmDir: "crawlers/simplecrawler", Install: npmCI}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setuptest.FakePath(t, map[string]string{"node": node, "dpkg-query": tc.dpkg})
			t.Chdir(t.TempDir())
			if tc.lock {
				os.MkdirAll("crawlers/simplecrawler", 0o755)
				os.WriteFile("crawlers/simplecrawler/package-lock.json", []byte("{}"), 0o644)
			}
			if tc.libs {
				os.MkdirAll("crawlers/simplecrawler/node_modules/simplecrawler", 0o755)
				os.WriteFile("crawlers/simplecrawler/node_modules/simplecrawler/package.json", []byte("{}"), 0o644)
			}
			want := tc.want
			want.Name, want.Kind, want.Apt = "simplecrawler", KindCrawler, []string{"nodejs", "npm"}
			if diff := cmp.Diff(want, sc.Check(context.Background())); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestNpmInstallOffline points npm at a registry that cannot be reached,
// with an empty cache: the error says so, and nothing is installed.
func TestNpmInstallOffline(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not found (install Debian package npm)")
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join("..", "peers", "node", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("npm_config_registry", "http://127.0.0.1:9/")
	t.Setenv("npm_config_cache", t.TempDir())
	var out strings.Builder
	err := NpmInstall(context.Background(), dir, &out)
	if err == nil || !strings.Contains(err.Error(), "the npm registry (http://127.0.0.1:9/) cannot be reached") {
		t.Fatalf("NpmInstall with an unreachable registry: %v; want the registry named as unreachable\nnpm said:\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "robots-parser")); err == nil {
		t.Error("robots-parser was installed from an unreachable registry")
	}
}

// TestAptInstall runs a fake apt-get: as root, update then install of the
// packages; otherwise ErrNotRoot naming the command to run with sudo.
func TestAptInstall(t *testing.T) {
	log := filepath.Join(t.TempDir(), "apt.log")
	setuptest.FakePath(t, map[string]string{"apt-get": `echo "$DEBIAN_FRONTEND $*" >> ` + log})
	err := AptInstall(context.Background(), []string{"wget2", "faketime", "wget2"}, io.Discard)
	if os.Geteuid() != 0 {
		if !errors.Is(err, ErrNotRoot) || !strings.Contains(err.Error(), "sudo apt-get install -y --no-install-recommends faketime wget2") {
			t.Errorf("AptInstall as a user: %v; want ErrNotRoot with the sudo command", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	want := "noninteractive update\nnoninteractive install -y --no-install-recommends faketime wget2\n"
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("apt-get calls (-want +got):\n%s", diff)
	}
}
