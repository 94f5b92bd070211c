package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes the file at path with render, atomically: render writes
// into a temporary file in the same folder, which then replaces path by a
// rename. A reader never sees a half-written file, and a run that fails or
// is killed while rendering leaves the previous file (or none) in place.
// The file gets mode 0644.
func WriteFile(path string, render func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 64<<10)
	if err := render(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := errors.Join(bw.Flush(), tmp.Chmod(0o644), tmp.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
