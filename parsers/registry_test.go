package parsers

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNames(t *testing.T) {
	want := []string{
		"grobotstxt", "perl-robotrules", "protego", "python-urllib", "reference",
		"reference-google", "robots-parser", "robots-txt-guard", "robots-txt-parser", "temoto", "webrobots",
	}
	if diff := cmp.Diff(want, Names()); diff != "" {
		t.Errorf("Names() mismatch (-want +got):\n%s", diff)
	}
}

func TestNewInProcess(t *testing.T) {
	for _, name := range []string{"reference", "reference-google", "grobotstxt", "temoto"} {
		p, err := New(context.Background(), name, Options{PeersDir: "/nonexistent"})
		if err != nil {
			t.Errorf("New(%q): %v", name, err)
			continue
		}
		if got := p.Info().Name; got != name {
			t.Errorf("New(%q).Info().Name = %q", name, got)
		}
	}
	if _, err := New(context.Background(), "googlebot", Options{}); !errors.Is(err, ErrUnknown) {
		t.Errorf("New(unknown name): error %v, want ErrUnknown", err)
	}
}

func TestPeersDir(t *testing.T) {
	// From the working directory (this package's directory) up to go.mod.
	t.Setenv(PeersEnv, "")
	got, err := PeersDir(Options{})
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if want := filepath.Join(filepath.Dir(wd), "peers"); got != want {
		t.Errorf("PeersDir from the working directory = %q, want %q", got, want)
	}

	env, opt := t.TempDir(), t.TempDir()
	t.Setenv(PeersEnv, env)
	if got, err := PeersDir(Options{}); err != nil || got != env {
		t.Errorf("PeersDir with $%s = %q, %v; want %q", PeersEnv, got, err, env)
	}
	if got, err := PeersDir(Options{PeersDir: opt}); err != nil || got != opt {
		t.Errorf("PeersDir with Options.PeersDir = %q, %v; want %q (it wins over the environment)", got, err, opt)
	}
	if _, err := PeersDir(Options{PeersDir: filepath.Join(opt, "missing")}); err == nil {
		t.Error("PeersDir accepted a directory that does not exist")
	}
}

func TestIsModuleRoot(t *testing.T) {
	tests := []struct {
		gomod string
		want  bool
	}{
		{"module github.com/reptest/reptest\n\ngo 1.24\n", true},
		{"// comment\nmodule \"github.com/reptest/reptest\" // ours\n", true},
		{"module github.com/reptest/reptest/v2\n", false},
		{"module example.com/other\n", false},
		{"modulegithub.com/reptest/reptest\n", false},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(tt.gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := isModuleRoot(dir); got != tt.want {
			t.Errorf("isModuleRoot(%q) = %v, want %v", tt.gomod, got, tt.want)
		}
	}
	if isModuleRoot(t.TempDir()) {
		t.Error("a directory without go.mod is a module root")
	}
}
