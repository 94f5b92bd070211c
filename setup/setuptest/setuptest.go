// Package setuptest makes fake programs for tests of what looks for
// programs on PATH: the peers' runtimes, crawlers and tools that package
// setup and reptest doctor check.
package setuptest

import (
	"os"
	"path/filepath"
	"testing"
)

// Programs writes each of progs (name: the body of a POSIX shell script)
// into dir as an executable program, with sh beside them, so that dir
// alone can be PATH.
func Programs(dir string, progs map[string]string) error {
	if err := os.Symlink("/bin/sh", filepath.Join(dir, "sh")); err != nil {
		return err
	}
	for name, body := range progs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// FakePath makes a folder of the programs progs (see Programs) the whole
// PATH for the rest of the test, and returns the folder.
func FakePath(t testing.TB, progs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := Programs(dir, progs); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return dir
}
