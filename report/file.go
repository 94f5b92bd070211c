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
//
// A path that exists and is no regular file (/dev/null, /dev/stdout, a
// named pipe) is written in place: renaming over it would replace the
// device or pipe with a plain file.
func WriteFile(path string, render func(io.Writer) error) (err error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return writeInPlace(path, render)
	}
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
	if err := renderTo(tmp, render); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := errors.Join(tmp.Chmod(0o644), tmp.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// writeInPlace writes render's output to the existing non-regular file at
// path.
func writeInPlace(path string, render func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := errors.Join(renderTo(f, render), f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// renderTo writes render's output to f through a buffer.
func renderTo(f *os.File, render func(io.Writer) error) error {
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := render(bw); err != nil {
		return err
	}
	return bw.Flush()
}
