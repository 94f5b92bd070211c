package diff

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// folder folds the files' results into the run's document as they come,
// in job order: the summary's counts at once, the findings into a store
// (memory, or a temporary file for Options.SpillFindings) with what later
// files add to them (more sources, probes, duplicates) kept aside, so that
// the findings of a large run are not held in memory. The document is
// the one that merging all the results at the end, in job order, makes.
type folder struct {
	doc   *result.Document
	names []string
	areas *result.AreaIndex   // the requirement table's areas, in order
	next  int                 // the job index folded next
	ahead map[int]*fileResult // results of later jobs, waiting
	skip  map[int]bool        // jobs that were duplicates, not compared
	dups  map[int]*duplicates // by the compared input's job index

	store  findingStore
	index  map[[sha256.Size]byte]int // a finding's place by its input's digest
	firsts []int                     // the job index each finding was first found in
	merges map[int][]merge           // by place: what later files add
	// classes are the places of the classes' findings, by class: each
	// is stored as a stand-in, and completed at the end from the example
	// of the class's smallest file and every file of the class (merges).
	classes map[string]*classPlace
	classAt map[int]*classPlace
}

// classPlace is where a class's finding is, the disagreement of its
// smallest file so far, and that disagreement's example once minimised.
type classPlace struct {
	place   int
	rank    rank
	name    string // the smallest file's
	w       pending
	example *result.Finding
}

// merge is what one file adds to a finding first found in another (or
// found twice in one file: listed).
type merge struct {
	file   int // job index
	name   string
	lines  []int
	probes int
	listed bool
}

func newFolder(store findingStore, areas *result.AreaIndex) *folder {
	return &folder{store: store, areas: areas, ahead: make(map[int]*fileResult), skip: make(map[int]bool),
		dups: make(map[int]*duplicates), index: make(map[[sha256.Size]byte]int), merges: make(map[int][]merge),
		classes: make(map[string]*classPlace), classAt: make(map[int]*classPlace)}
}

// start begins the document of the parsers names, of the given profile.
func (fo *folder) start(names []string, profile string) {
	fo.names = names
	fo.doc = &result.Document{Tool: result.Tool, Version: reference.Version, Profile: profile,
		Parsers: []result.Summary{}, Results: []result.Result{}, Summary: &result.DiffSummary{},
		Reference: result.ReferenceOf(names, profile)}
	s := fo.doc.Summary
	s.Parsers = names
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			s.Pairs = append(s.Pairs, result.PairStat{A: names[i], B: names[j]})
		}
	}
}

// add records the result of job idx, and folds every result now in
// order.
func (fo *folder) add(idx int, r *fileResult) error {
	fo.ahead[idx] = r
	return fo.advance()
}

// duplicate records that job idx was a duplicate of job first.
func (fo *folder) duplicate(idx, first int, name string) error {
	d := fo.dups[first]
	if d == nil {
		d = new(duplicates)
		fo.dups[first] = d
	}
	d.count++
	if len(d.names) < MaxDuplicateSources {
		d.names = append(d.names, name)
	}
	fo.skip[idx] = true
	return fo.advance()
}

func (fo *folder) advance() error {
	for {
		if fo.skip[fo.next] {
			delete(fo.skip, fo.next)
			fo.next++
			continue
		}
		r, ok := fo.ahead[fo.next]
		if !ok {
			return nil
		}
		delete(fo.ahead, fo.next)
		if err := fo.fold(fo.next, r); err != nil {
			return err
		}
		fo.next++
	}
}

// foldCompared folds the results held back by a job before them that was
// not compared (a run stopped before it finished): such jobs, and the
// duplicates of their inputs, are left out.
func (fo *folder) foldCompared() error {
	last := -1
	for idx := range fo.ahead {
		last = max(last, idx)
	}
	for idx := fo.next; idx < last; idx++ {
		if _, ok := fo.ahead[idx]; !ok && !fo.skip[idx] {
			fo.skip[idx] = true
			delete(fo.dups, idx)
		}
	}
	return fo.advance()
}

// fold adds the result r of job at to the summary and its findings to the
// store, and lets go of what r no longer needs (the evidence sample may
// keep the rest).
func (fo *folder) fold(at int, r *fileResult) error {
	s := fo.doc.Summary
	s.Files++
	s.Responses++
	s.Probes += r.probes
	s.Disagreements += r.disagreements
	if r.disagreements > 0 {
		s.FilesWithDisagreements++
	}
	for k := range s.Pairs {
		s.Pairs[k].Probes += r.probes
		s.Pairs[k].ProbeDisagreements += r.pairs[k]
		s.Pairs[k].Files++
		if r.pairs[k] > 0 {
			s.Pairs[k].FileDisagreements++
		}
	}
	s.Areas = result.AddAreas(s.Areas, areasOf(fo.names, r), fo.areas.Rank)
	listed := make(map[[sha256.Size]byte]bool) // findings this file is a source of
	for _, f := range r.findings {
		id := sha256.Sum256([]byte(f.Input.ID()))
		lines := f.SourceLines[r.name]
		if at2, ok := fo.index[id]; ok {
			fo.merges[at2] = append(fo.merges[at2], merge{file: at, name: r.name, lines: lines, probes: f.Probes, listed: listed[id]})
			listed[id] = true
			continue
		}
		listed[id] = true
		fo.index[id] = len(fo.firsts)
		fo.firsts = append(fo.firsts, at)
		if err := fo.store.add(f); err != nil {
			return err
		}
	}
	for _, c := range r.classes {
		if err := fo.foldClass(at, r, c); err != nil {
			return err
		}
	}
	r.findings, r.classes, r.pairs, r.areas = nil, nil, nil, areaCounts{}
	return nil
}

// ids returns what a class's finding records of it: a digest of the
// class, and the digest its example was minimised from.
func (cp *classPlace) ids() (class, from string) {
	sum := sha256.Sum256([]byte(cp.w.class))
	return hex.EncodeToString(sum[:8]), hex.EncodeToString(cp.rank.sum[:])
}

// foldClass adds file at's disagreement c to its class's finding, as a
// source, and keeps it when the file is the smallest of the class's so
// far.
func (fo *folder) foldClass(at int, r *fileResult, c classed) error {
	cp := fo.classes[c.w.class]
	if cp == nil {
		cp = &classPlace{place: len(fo.firsts)}
		fo.classes[c.w.class], fo.classAt[cp.place] = cp, cp
		fo.firsts = append(fo.firsts, at)
		// A stand-in, replaced at the end.
		if err := fo.store.add(result.Finding{Input: result.Input{Agent: c.w.in.Agent, URL: c.w.in.URL}}); err != nil {
			return err
		}
	}
	fo.merges[cp.place] = append(fo.merges[cp.place], merge{file: at, name: r.name, lines: c.w.lines, probes: c.w.probes})
	if cp.w.class == "" || r.rank.less(cp.rank) {
		cp.rank, cp.name, cp.w, cp.example = r.rank, r.name, c.w, c.example
	}
	return nil
}

// finish completes each finding with the sources later files and
// duplicates added, in job order, and each class's finding from its
// example; groups them; and returns the document (without its findings
// when the store is a file: out holds them then).
func (fo *folder) finish() (*result.Document, error) {
	s := fo.doc.Summary
	for first, d := range fo.dups {
		if first < fo.next {
			s.Responses += d.count
			s.Duplicates += d.count
		}
	}
	for at, cp := range fo.classAt {
		if cp.example == nil {
			// The smallest file of every class minimises it.
			return nil, fmt.Errorf("diff: internal error: the class of finding %d has no example", at)
		}
	}
	var groups result.Grouping
	err := fo.store.finish(func(at int, g *result.Finding) bool {
		changed := fo.complete(at, g)
		groups.Add(*g)
		return changed
	})
	if err != nil {
		return nil, err
	}
	for k := range s.Pairs {
		s.Pairs[k].Share()
	}
	s.Groups = groups.Groups()
	s.Findings = len(fo.firsts)
	fo.doc.Findings = fo.store.findings()
	// What later files added to the findings grows with the inputs: let
	// it go before the diagnosis is fitted, the run's peak.
	fo.merges, fo.index, fo.classes, fo.classAt, fo.dups, fo.firsts = nil, nil, nil, nil, nil, nil
	return fo.doc, nil
}

// complete adds to the finding at place at, as found in its first file,
// what that file's duplicates and later files add, and reports whether
// they added anything. A class's finding is its example with every file
// of the class as a source.
func (fo *folder) complete(at int, g *result.Finding) bool {
	if cp := fo.classAt[at]; cp != nil {
		*g = *cp.example
		g.Sources, g.SourceLines, g.Probes, g.Duplicates = nil, nil, 0, 0
		g.Class, g.ExampleFrom = cp.ids()
		fo.addMerges(g, fo.merges[at])
		return true
	}
	d := fo.dupsOf(fo.firsts[at])
	if d.count == 0 && len(fo.merges[at]) == 0 {
		return false
	}
	lines := g.SourceLines[g.Sources[0]]
	g.Duplicates += d.count
	for _, name := range d.names {
		g.AddSource(name, lines)
	}
	fo.addMerges(g, fo.merges[at])
	return true
}

// addMerges adds what the files of ms add to g: their probes, and them
// and their duplicates as sources, or only their lines when they are
// listed already.
func (fo *folder) addMerges(g *result.Finding, ms []merge) {
	for _, m := range ms {
		g.Probes += m.probes
		dm := fo.dupsOf(m.file)
		if m.listed {
			// The file's second disagreement minimised to the same
			// input: only its lines are new.
			g.MergeLines(m.name, m.lines)
			for _, name := range dm.names {
				g.MergeLines(name, m.lines)
			}
			continue
		}
		g.AddSource(m.name, m.lines)
		g.Duplicates += dm.count
		for _, name := range dm.names {
			g.AddSource(name, m.lines)
		}
	}
}

func (fo *folder) dupsOf(idx int) *duplicates {
	if d := fo.dups[idx]; d != nil {
		return d
	}
	return &duplicates{}
}

// findingStore keeps a run's findings, as first found, in the order they
// were added; finish hands each back to be completed, in that order
// (complete reports whether it changed the finding).
type findingStore interface {
	add(f result.Finding) error
	finish(complete func(at int, f *result.Finding) bool) error
	// findings returns the completed findings when they are in memory.
	findings() []result.Finding
}

// memoryStore keeps the findings in memory.
type memoryStore struct{ fs []result.Finding }

func (m *memoryStore) add(f result.Finding) error { m.fs = append(m.fs, f); return nil }

func (m *memoryStore) finish(complete func(int, *result.Finding) bool) error {
	for i := range m.fs {
		complete(i, &m.fs[i])
	}
	return nil
}

func (m *memoryStore) findings() []result.Finding {
	if m.fs == nil {
		return []result.Finding{}
	}
	return m.fs
}

// FindingsFile is a run's findings in a temporary file, as JSON lines
// (WriteFindings' format), for a run too large to hold them in memory
// (Options.SpillFindings). The caller removes it.
type FindingsFile struct {
	// Path is the file's path; Count the findings it holds.
	Path  string
	Count int
}

// WriteTo copies the findings, as WriteFindings writes them, to w.
func (ff *FindingsFile) WriteTo(w io.Writer) (int64, error) {
	f, err := os.Open(ff.Path)
	if err != nil {
		return 0, fmt.Errorf("diff: writing findings: %w", err)
	}
	defer f.Close()
	n, err := io.Copy(w, f)
	if err != nil {
		return n, fmt.Errorf("diff: writing findings: %w", err)
	}
	return n, nil
}

// Load reads the findings into memory.
func (ff *FindingsFile) Load() ([]result.Finding, error) {
	f, err := os.Open(ff.Path)
	if err != nil {
		return nil, fmt.Errorf("diff: reading findings: %w", err)
	}
	defer f.Close()
	fs, err := ReadFindings(f)
	if fs == nil && err == nil {
		fs = []result.Finding{}
	}
	return fs, err
}

// Remove removes the file.
func (ff *FindingsFile) Remove() error { return os.Remove(ff.Path) }

// fileStore writes the findings as found to one temporary file, and
// the completed ones to another (out), both as JSON lines.
type fileStore struct {
	spill *os.File
	w     *findingWriter
	n     int
	out   *FindingsFile
}

func newFileStore() (*fileStore, error) {
	f, err := os.CreateTemp("", "reptest-findings-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("diff: keeping findings: %w", err)
	}
	return &fileStore{spill: f, w: newFindingWriter(f)}, nil
}

func (s *fileStore) add(f result.Finding) error {
	s.n++
	return s.w.write(&f)
}

func (s *fileStore) finish(complete func(int, *result.Finding) bool) (err error) {
	defer s.close()
	if err := s.w.flush(); err != nil {
		return err
	}
	if _, err := s.spill.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("diff: reading findings back: %w", err)
	}
	out, err := os.CreateTemp("", "reptest-findings-*.jsonl")
	if err != nil {
		return fmt.Errorf("diff: keeping findings: %w", err)
	}
	defer func() {
		if err = errors.Join(err, out.Close()); err != nil {
			os.Remove(out.Name())
		}
	}()
	w := newFindingWriter(out)
	br := bufio.NewReaderSize(s.spill, 64<<10)
	for at := 0; at < s.n; at++ {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("diff: reading findings back: %w", err)
		}
		var f result.Finding
		if err := json.Unmarshal(line, &f); err != nil {
			return fmt.Errorf("diff: reading findings back: %w", err)
		}
		if !complete(at, &f) {
			// Unchanged: the line as written is the line to write.
			if _, err := w.bw.Write(line); err != nil {
				return fmt.Errorf("diff: writing findings: %w", err)
			}
			continue
		}
		if err := w.write(&f); err != nil {
			return err
		}
	}
	if err := w.flush(); err != nil {
		return err
	}
	s.out = &FindingsFile{Path: out.Name(), Count: s.n}
	return nil
}

// close removes the file of findings as found.
func (s *fileStore) close() {
	s.spill.Close()
	os.Remove(s.spill.Name())
}

func (s *fileStore) findings() []result.Finding { return nil }

// findingWriter writes findings as JSON lines (WriteFindings).
type findingWriter struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

func newFindingWriter(w io.Writer) *findingWriter {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &findingWriter{bw, enc}
}

func (fw *findingWriter) write(f *result.Finding) error {
	if f.Req == nil {
		g := *f
		g.Req = []string{}
		f = &g
	}
	if err := fw.enc.Encode(f); err != nil {
		return fmt.Errorf("diff: writing findings: %w", err)
	}
	return nil
}

func (fw *findingWriter) flush() error {
	if err := fw.bw.Flush(); err != nil {
		return fmt.Errorf("diff: writing findings: %w", err)
	}
	return nil
}
