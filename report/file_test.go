package report

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// WriteFile replaces a file only once the new content is complete: a
// failed render leaves the old file and no temporary file behind.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "old\n"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, "half of the new")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("WriteFile = %v, want the render's error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("after a failed render the file holds %q, want the old content", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("folder holds %d entries, want only out.json (no temporary file left)", len(ents))
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, %v; want 0644", fi.Mode(), err)
	}
	if err := WriteFile(filepath.Join(dir, "no-such-dir", "x"), func(io.Writer) error { return nil }); err == nil {
		t.Error("WriteFile into a missing folder succeeded")
	}
}
