package peers

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestExtract checks that Extract writes every program as this directory
// holds it, and that a second call reuses the folder.
func TestExtract(t *testing.T) {
	root := t.TempDir()
	dir, err := Extract(root)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(dir) != Version() {
		t.Errorf("folder %s, want one named %s", dir, Version())
	}
	want := []string{"node/robots-parser.js", "node/package.json", "node/package-lock.json", "perl/robotrules.pl", "python/urllib_robotparser.py", "python/protego_peer.py", "ruby/webrobots.rb"}
	for _, name := range want {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s not extracted: %v", name, err)
			continue
		}
		orig, err := os.ReadFile(filepath.FromSlash(name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, orig) {
			t.Errorf("%s extracted differs from the source", name)
		}
	}
	fs.WalkDir(os.DirFS(dir), ".", func(path string, d fs.DirEntry, err error) error {
		if d != nil && d.Name() == "node_modules" {
			t.Errorf("node_modules was embedded: %s", path)
		}
		return nil
	})
	again, err := Extract(root)
	if err != nil || again != dir {
		t.Errorf("second Extract = %s, %v; want %s", again, err, dir)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("%d entries in the cache root, want 1 (no temporary folder left)", len(entries))
	}
}
