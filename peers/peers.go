// Package peers holds reptest's external peer programs, the small
// adapters in node/, perl/, python/ and ruby/ that speak the reptest/1
// protocol around another language's robots.txt library, and embeds them,
// so that a reptest binary built anywhere (go install) can run them:
// Extract writes them to a folder of their own.
package peers

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// The programs, without node/node_modules (installed by npm ci).
//
//go:embed node/*.js node/*.json perl python ruby
var programs embed.FS

// FS returns the peer programs, laid out as this directory holds them.
func FS() fs.FS { return programs }

// Version returns a short hash of the embedded programs: the name of
// the folder Extract writes them to.
func Version() string {
	h := sha256.New()
	for _, name := range files() {
		b, _ := programs.ReadFile(name)
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// files returns the paths of the embedded files, sorted.
func files() []string {
	var names []string
	fs.WalkDir(programs, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, path)
		}
		return nil
	})
	sort.Strings(names)
	return names
}

// Extract writes the programs to root/Version() unless they are there
// already, and returns that folder. It writes into a temporary folder
// that it renames, so a concurrent Extract, or one that was interrupted,
// never leaves a partial folder behind.
func Extract(root string) (string, error) {
	dir := filepath.Join(root, Version())
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("peers: %w", err)
	}
	tmp, err := os.MkdirTemp(root, ".extract-*")
	if err != nil {
		return "", fmt.Errorf("peers: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, name := range files() {
		b, err := programs.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("peers: %w", err)
		}
		path := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", fmt.Errorf("peers: %w", err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return "", fmt.Errorf("peers: %w", err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("peers: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have extracted the same programs meanwhile.
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			return dir, nil
		}
		return "", fmt.Errorf("peers: %w", err)
	}
	return dir, nil
}
