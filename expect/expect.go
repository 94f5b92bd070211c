// Package expect reads and writes expected-failure files (reptest run
// --expect FILE, --write-expect FILE): for each parser, the cases whose
// failures are known. Which results such a file covers is decided by
// result.Document.MarkExpected, from the plain entries this package
// returns (File.Expectations).
package expect

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/reptest/reptest/result"
)

// File is an expected-failure file: for each parser, the cases
// whose failures are known, each with a reason and a link to the
// upstream bug. A team keeps CI green on known bugs while still seeing
// new failures and fixed bugs.
//
// The YAML form maps parser names to entries:
//
//	temoto:
//	  - cases: [encoding/*, examples/table-1-*]
//	    reason: percent-encoded octets are not normalised
//	    link: https://github.com/temoto/robotstxt/issues/1
//
// A case pattern is a case id, or a pattern of cases.Glob ("*" stands for
// any run of characters, "/" included, and "?" for one character), the
// syntax of --run and --skip.
type File struct {
	Parsers map[string][]Entry
}

// Entry is one entry of an expected-failure file.
type Entry struct {
	Cases  []string `yaml:"cases"`
	Case   string   `yaml:"case"` // a single pattern, instead of Cases
	Reason string   `yaml:"reason"`
	Link   string   `yaml:"link"`
	// Line is where the entry starts in the file, for messages.
	Line int `yaml:"-"`
}

// patterns returns the entry's case patterns.
func (e *Entry) patterns() []string {
	if e.Case != "" {
		return append([]string{e.Case}, e.Cases...)
	}
	return e.Cases
}

// Read reads an expected-failure file. name is used in messages. Unknown
// keys, entries without a case pattern or a reason, and links that are
// not http(s) URLs are errors.
func Read(r io.Reader, name string) (*File, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(io.LimitReader(r, 16<<20))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return &File{Parsers: map[string][]Entry{}}, nil
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(root.Content) == 0 {
		return &File{Parsers: map[string][]Entry{}}, nil
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d:%d: expected a mapping of parser names to entries", name, m.Line, m.Column)
	}
	e := &File{Parsers: map[string][]Entry{}}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		parser := k.Value
		if _, dup := e.Parsers[parser]; dup {
			return nil, fmt.Errorf("%s:%d:%d: parser %q appears twice", name, k.Line, k.Column, parser)
		}
		if v.Kind != yaml.SequenceNode {
			return nil, fmt.Errorf("%s:%d:%d: parser %q: expected a list of entries", name, v.Line, v.Column, parser)
		}
		var entries []Entry
		for _, n := range v.Content {
			if n.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(n.Content); j += 2 {
					if k := n.Content[j]; !slices.Contains(entryKeys, k.Value) {
						return nil, fmt.Errorf("%s:%d:%d: unknown key %q in an entry (known: %s)", name, k.Line, k.Column, k.Value, strings.Join(entryKeys, ", "))
					}
				}
			}
			var ent Entry
			if err := decodeStrict(n, &ent); err != nil {
				return nil, fmt.Errorf("%s:%d:%d: %w", name, n.Line, n.Column, err)
			}
			ent.Line = n.Line
			if err := ent.validate(); err != nil {
				return nil, fmt.Errorf("%s:%d:%d: parser %q: %w", name, n.Line, n.Column, parser, err)
			}
			entries = append(entries, ent)
		}
		e.Parsers[parser] = entries
	}
	return e, nil
}

// entryKeys are the keys of an Entry.
var entryKeys = []string{"case", "cases", "link", "reason"}

// decodeStrict decodes a node, refusing unknown keys.
func decodeStrict(n *yaml.Node, v any) error {
	b, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	return dec.Decode(v)
}

func (e *Entry) validate() error {
	ps := e.patterns()
	if len(ps) == 0 {
		return errors.New("entry names no case (cases: [...])")
	}
	for _, p := range ps {
		if strings.TrimSpace(p) == "" {
			return errors.New("empty case pattern")
		}
	}
	if strings.TrimSpace(e.Reason) == "" {
		return errors.New("entry has no reason")
	}
	if e.Link != "" {
		u, err := url.Parse(e.Link)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("link %q is not an http or https URL", e.Link)
		}
	}
	return nil
}

// Expectations returns the file's entries as the document's plain
// values, parsers sorted by name and each parser's entries in file order,
// for result.Document.MarkExpected.
func (f *File) Expectations() []result.Expectation {
	var out []result.Expectation
	for _, parser := range slices.Sorted(maps.Keys(f.Parsers)) {
		for _, e := range f.Parsers[parser] {
			out = append(out, result.Expectation{Parser: parser, Cases: e.patterns(), Reason: e.Reason, Link: e.Link})
		}
	}
	return out
}

// For starts an expected-failure file from a run: one entry
// per parser and case with a failure that fails the run (a violation or
// error, or a deviation in a strict run), whose reason says what failed.
// A person then edits the reasons and adds links; applied to the same
// run, the file makes every failure expected.
func For(d *result.Document) *File {
	e := &File{Parsers: map[string][]Entry{}}
	type key struct{ parser, cas string }
	at := map[key]int{}
	for _, r := range d.Results {
		if !r.Outcome.Fails(d.Strict) {
			continue
		}
		k := key{r.Parser, r.Case}
		got := string(r.Verdict)
		if r.Outcome == result.Error {
			got = "an error"
		}
		what := fmt.Sprintf("check %d: %s, expected %s, got %s", r.Check, r.Outcome, r.Expect, got)
		if i, ok := at[k]; ok {
			e.Parsers[r.Parser][i].Reason += "; " + what
			continue
		}
		at[k] = len(e.Parsers[r.Parser])
		e.Parsers[r.Parser] = append(e.Parsers[r.Parser], Entry{Cases: []string{r.Case}, Reason: what})
	}
	return e
}

// WriteYAML writes the file in the form Read reads,
// parsers sorted by name, with a comment saying what to edit.
func (e *File) WriteYAML(w io.Writer) error {
	type entry struct {
		Cases  []string `yaml:"cases,flow"`
		Reason string   `yaml:"reason"`
		Link   string   `yaml:"link,omitempty"`
	}
	out := make(map[string][]entry, len(e.Parsers))
	for p, es := range e.Parsers {
		for _, x := range es {
			out[p] = append(out[p], entry{Cases: x.patterns(), Reason: x.Reason, Link: x.Link})
		}
	}
	if _, err := io.WriteString(w, "# Expected failures (reptest run --expect FILE). Replace each reason with\n# why the parser fails, and add a link to the upstream bug.\n"); err != nil {
		return fmt.Errorf("expect: writing expectations: %w", err)
	}
	if len(out) == 0 {
		_, err := io.WriteString(w, "{}\n")
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("expect: writing expectations: %w", err)
	}
	return enc.Close()
}
