package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/reptest/reptest/result"
)

// Badge is a shields.io endpoint badge
// (https://shields.io/badges/endpoint-badge).
type Badge struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
}

// BadgeFor returns a parser's badge: how many of its MUST checks passed
// ("612/612 MUST"), green when it conforms with no deviations, yellow when
// it conforms with deviations, red when it does not conform. Checks the
// parser skipped are not counted. A parser that did not run (its summary's
// NotRun) gets a grey "not run" badge, never a count.
func BadgeFor(d *result.Document, parser string) Badge {
	pass, total := d.LevelPassed(parser, result.MUST)
	b := Badge{SchemaVersion: 1, Label: "RFC 9309", Message: fmt.Sprintf("%d/%d MUST", pass, total), Color: "red"}
	if d.Profile == result.ProfileGoogle {
		b.Label = "RFC 9309 (google)"
	}
	for _, s := range d.Parsers {
		if s.Name != parser {
			continue
		}
		switch {
		case s.NotRun != "":
			b.Message, b.Color = "not run", "lightgrey"
		case s.Conforms && s.Deviations == 0:
			b.Color = "brightgreen"
		case s.Conforms:
			b.Color = "yellow"
		}
	}
	return b
}

// BadgeFile returns the file name of a parser's badge: the name with
// every character outside [A-Za-z0-9._-] replaced by "_", plus ".json".
func BadgeFile(parser string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, parser)
	if name == "" || strings.Trim(name, ".") == "" {
		name = "_" + name
	}
	return name + ".json"
}

// WriteBadges writes one badge per parser into dir, creating it, and
// returns the files written.
func WriteBadges(dir string, d *result.Document) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: badges: %w", err)
	}
	var files []string
	seen := map[string]string{}
	for _, s := range d.Parsers {
		name := BadgeFile(s.Name)
		if other, dup := seen[name]; dup {
			return files, fmt.Errorf("report: badges: parsers %q and %q map to the same file %s", other, s.Name, name)
		}
		seen[name] = s.Name
		path := filepath.Join(dir, name)
		badge := BadgeFor(d, s.Name)
		if err := WriteFile(path, func(w io.Writer) error { return json.NewEncoder(w).Encode(badge) }); err != nil {
			return files, fmt.Errorf("report: badges: %w", err)
		}
		files = append(files, path)
	}
	return files, nil
}
