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
)

// fakePath makes a folder of fake programs (name: sh script body) and
// makes it the whole PATH, with sh.
func fakePath(t *testing.T, progs map[string]string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Symlink("/bin/sh", filepath.Join(dir, "sh")); err != nil {
		t.Fatal(err)
	}
	for name, body := range progs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
}

func TestProgramCheck(t *testing.T) {
	fakePath(t, map[string]string{
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
// installed; the others are asked of dpkg, here absent.
func TestMissingPackages(t *testing.T) {
	fakePath(t, map[string]string{"node": "exit 0"})
	got := MissingPackages(context.Background(), []string{"npm", "nodejs", "python3-protego", "nodejs"})
	if diff := cmp.Diff([]string{"npm", "python3-protego"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
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
	fakePath(t, map[string]string{"apt-get": `echo "$DEBIAN_FRONTEND $*" >> ` + log})
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
