package diff

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// Probe is an (agent, URL) pair asked of one file. Line and Kind say where
// a derived probe came from: the rule's line (0 for none) and the variant
// of it ("prefix", "past", "star", ...; "check" for a corpus check). Req
// is the requirement ID (corpus/requirements.yaml) the probe exercises:
// the one its kind tests (see DeriveProbes), or the first requirement of
// a corpus check's case. result.DiffSummary.Areas counts the probe in that
// requirement's area; a probe without one is counted in none.
type Probe struct {
	Agent string
	URL   string
	Line  int
	Kind  string
	Req   string
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
// (".name"), documentation that sits next to collections (*.md, *.tsv)
// and WARC files (which Inputs streams) are skipped. A file larger than
// MaxFileBytes is an error.
func ReadDir(dir string) ([]File, error) {
	files, _, err := readDir(dir)
	return files, err
}

// readDir returns the files ReadDir returns and, apart, the WARC files.
func readDir(dir string) ([]File, []string, error) {
	var files []File
	var warcs []string
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
		if IsWARC(name) {
			warcs = append(warcs, path)
			return nil
		}
		b, err := readFile(path)
		if err != nil {
			return err
		}
		files = append(files, File{Name: path, Robots: b})
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("diff: reading inputs: %w", err)
	}
	if len(files) == 0 && len(warcs) == 0 {
		return nil, nil, fmt.Errorf("diff: no files in %s", dir)
	}
	return files, warcs, nil
}

// readFile reads one robots.txt file, MaxFileBytes at most: a file
// larger is an error, told by reading, not by its size, which a device or
// a pipe does not have (/dev/zero would be read until memory runs out).
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("diff: %s: %w", path, err)
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("diff: %s: more than %d bytes", path, MaxFileBytes)
	}
	return b, nil
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
		if c.Profile == result.ProfileGoogle {
			f.Profile = c.Profile
		}
		req := ""
		if len(c.Req) > 0 {
			req = c.Req[0]
		}
		for _, ch := range c.Checks {
			if ch.Invalid == "" {
				f.Probes = append(f.Probes, Probe{Agent: ch.Agent, URL: ch.URL, Kind: "check", Req: req})
			}
		}
		if len(f.Probes) == 0 {
			continue
		}
		files = append(files, f)
	}
	return files
}
