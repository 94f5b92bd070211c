package diff

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/reptest/reptest/cases"
)

// Input is one question put to every parser: a robots.txt body, a
// crawler's product token and a URL. Its JSON form holds the keys of a
// finding (CASES.md §4). Profile is the profile the input was asked
// under; Run sets it on every finding.
type Input struct {
	Robots  []byte `json:"robots_b64"`
	Agent   string `json:"agent"`
	URL     string `json:"url"`
	Profile string `json:"profile,omitempty"`
}

// Probe is an (agent, URL) pair asked of one file. Line and Kind say where
// a derived probe came from: the rule's line (0 for none) and the variant
// of it ("prefix", "past", "star", ...; "check" for a corpus check).
type Probe struct {
	Agent string
	URL   string
	Line  int
	Kind  string
}

// File is one robots.txt body and the probes to ask of it. Probes nil
// means the engine derives them from the body (DeriveProbes).
type File struct {
	// Name identifies the file in findings and messages: a path, "gen/S/I"
	// for generated files, "case:ID" for corpus cases.
	Name    string
	Robots  []byte
	Profile string
	Probes  []Probe
}

// MaxFileBytes is the largest file ReadDir reads: a robots.txt body is
// parsed up to 500 KiB, so anything past a few MiB only costs time.
const MaxFileBytes = 8 << 20

// ReadDir returns every regular file under dir (recursively, in lexical
// order) as a File named by its path. Hidden files and directories
// (".name") and documentation that sits next to collections (*.md, *.tsv)
// are skipped. A file larger than MaxFileBytes is an error.
func ReadDir(dir string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if path != dir && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if ext := strings.ToLower(filepath.Ext(name)); ext == ".md" || ext == ".tsv" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > MaxFileBytes {
			return fmt.Errorf("diff: %s: %d bytes is larger than %d", path, info.Size(), MaxFileBytes)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files = append(files, File{Name: path, Robots: b})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("diff: reading inputs: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("diff: no files in %s", dir)
	}
	return files, nil
}

// FromCases returns one File per case that has a body of its own, with
// the case's checks as its probes. HTTP and timeline cases are left out:
// a differential run compares parsers on bodies.
func FromCases(cs []cases.Case) []File {
	var files []File
	for _, c := range cs {
		if c.Robots == nil || len(c.Fetch) > 0 || len(c.Timeline) > 0 || len(c.Checks) == 0 {
			continue
		}
		f := File{Name: "case:" + c.ID, Robots: c.Robots, Probes: make([]Probe, 0, len(c.Checks))}
		if c.Profile == cases.ProfileGoogle {
			f.Profile = c.Profile
		}
		for _, ch := range c.Checks {
			if ch.Invalid == "" {
				f.Probes = append(f.Probes, Probe{Agent: ch.Agent, URL: ch.URL, Kind: "check"})
			}
		}
		if len(f.Probes) == 0 {
			continue
		}
		files = append(files, f)
	}
	return files
}

// Shard is a part K of N (1 ≤ K ≤ N) of a run's inputs.
type Shard struct{ K, N int }

// ParseShard reads "K/N".
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("diff: shard %q is not K/N", s)
	}
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if err := errors.Join(err1, err2); err != nil {
		return Shard{}, fmt.Errorf("diff: shard %q: %w", s, err)
	}
	if ni < 1 || ki < 1 || ki > ni {
		return Shard{}, fmt.Errorf("diff: shard %q: need 1 ≤ K ≤ N", s)
	}
	return Shard{K: ki, N: ni}, nil
}

// Select returns the files of the shard: those whose index in files is
// K-1 modulo N. The zero Shard selects everything. Every file is in
// exactly one shard of N, whatever the machine.
func (s Shard) Select(files []File) []File {
	if s.N <= 1 {
		return files
	}
	var out []File
	for i, f := range files {
		if i%s.N == s.K-1 {
			out = append(out, f)
		}
	}
	return slices.Clip(out)
}

// String returns "K/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }
