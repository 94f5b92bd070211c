package diff

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/reptest/reptest/result"
)

// A file's result is stored in a DiskCache entry in a compact binary
// form of its own, written and read field by field: a second run reads
// one entry per file, and a general encoding's reflection (gob's, or
// JSON's) was most of that run's cost. All numbers are varints; a string
// or a list is its length, then its contents. In order:
//
//	probes, disagreements; the pairs' counts
//	the areas, by name: probes, agreed, apart per parser
//	the verdicts given, each once
//	the agents asked, each once; then per probe its agent's index
//	and its URL
//	the answers, probe by probe and parser by parser: each verdict's
//	index in the verdicts given
//	the classes: class, agent, URL, the parsers' verdicts (indexes),
//	probes, lines
//	the findings not of a class, gob-encoded (none when minimising,
//	since a result with a parser's error is not stored)
//
// The file's own name is left out of the findings' sources, so that
// another input with the same body reads the entry as its own.

// encodeResult returns the stored form of r, the result of the file
// named name.
func encodeResult(r *fileResult, name string) ([]byte, error) {
	var w entryWriter
	w.uint(r.probes)
	w.uint(r.disagreements)
	w.ints(r.pairs)
	w.areas(r.areas.by)
	verdicts := newTable[result.Verdict]()
	for _, vs := range r.answers {
		for _, v := range vs {
			verdicts.add(v)
		}
	}
	for _, c := range r.classes {
		for _, v := range c.w.vs {
			verdicts.add(v)
		}
	}
	if len(verdicts.list) > math.MaxUint8+1 {
		return nil, fmt.Errorf("diff: %d different verdicts are too many to store", len(verdicts.list))
	}
	w.uint(len(verdicts.list))
	for _, v := range verdicts.list {
		w.str(string(v))
	}
	w.probes(r.asked)
	w.answers(r.answers, verdicts)
	w.uint(len(r.classes))
	for _, c := range r.classes {
		w.str(c.w.class)
		w.str(c.w.in.Agent)
		w.str(c.w.in.URL)
		w.uint(len(c.w.vs))
		for _, v := range c.w.vs {
			w.uint(verdicts.index[v])
		}
		w.uint(c.w.probes)
		w.ints(c.w.lines)
	}
	return w.findings(r.findings, name)
}

// areas writes the areas' counts, by name.
func (w *entryWriter) areas(by map[string]*areaCount) {
	w.uint(len(by))
	for _, area := range slices.Sorted(maps.Keys(by)) {
		a := by[area]
		w.str(area)
		w.uint(a.probes)
		w.uint(a.agreed)
		w.ints(a.apart)
	}
}

// probes writes the agents asked, each once, then each probe's agent (by
// its place among them) and URL.
func (w *entryWriter) probes(asked []Probe) {
	agents := newTable[string]()
	for _, pr := range asked {
		agents.add(pr.Agent)
	}
	w.uint(len(agents.list))
	for _, a := range agents.list {
		w.str(a)
	}
	w.uint(len(asked))
	for _, pr := range asked {
		w.uint(agents.index[pr.Agent])
		w.str(pr.URL)
	}
}

// answers writes the answers as one string of verdicts' places, a byte
// each (encodeResult checks that they fit).
func (w *entryWriter) answers(answers [][]result.Verdict, verdicts *table[result.Verdict]) {
	n := 0
	for _, vs := range answers {
		n += len(vs)
	}
	w.uint(n)
	for _, vs := range answers {
		for _, v := range vs {
			w.b = append(w.b, byte(verdicts.index[v]))
		}
	}
}

// findings ends the entry with the findings, gob-encoded, their own
// file named "" in their sources.
func (w *entryWriter) findings(fs []result.Finding, name string) ([]byte, error) {
	if len(fs) == 0 {
		w.str("")
		return w.b, nil
	}
	stored := make([]result.Finding, len(fs))
	for k, fd := range fs {
		fd.Sources = []string{""}
		if lines, ok := fd.SourceLines[name]; ok {
			fd.SourceLines = map[string][]int{"": lines}
		}
		stored[k] = fd
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(stored); err != nil {
		return nil, fmt.Errorf("diff: storing findings: %w", err)
	}
	w.str(b.String())
	return w.b, nil
}

// decodeResult reads a stored result as the result of file f, compared
// by n parsers; ok is false when it does not fit.
func decodeResult(data []byte, f *File, n int) (*fileResult, bool) {
	rd := entryReader{b: data}
	r := &fileResult{probes: rd.uint(), disagreements: rd.uint(), pairs: rd.ints(),
		body: File{Name: f.Name, Robots: f.Robots, Profile: f.Profile}}
	if len(r.pairs) != n*(n-1)/2 {
		return nil, false
	}
	for range rd.count() {
		area, a := rd.str(), &areaCount{probes: rd.uint(), agreed: rd.uint(), apart: rd.ints()}
		if len(a.apart) != n {
			return nil, false
		}
		if r.areas.by == nil {
			r.areas.by = make(map[string]*areaCount)
		}
		r.areas.by[area] = a
	}
	verdicts := make([]result.Verdict, rd.count())
	for k := range verdicts {
		verdicts[k] = result.Verdict(rd.str())
	}
	agents := make([]string, rd.count())
	for k := range agents {
		agents[k] = rd.str()
	}
	r.asked = make([]Probe, rd.count())
	for k := range r.asked {
		r.asked[k] = Probe{Agent: pick(&rd, agents), URL: rd.str()}
	}
	if !r.readAnswers(&rd, verdicts, n) || !r.readClasses(&rd, verdicts, f, n) || !r.readFindings(&rd, f.Name) {
		return nil, false
	}
	return r, rd.err == nil && len(rd.b) == 0
}

// readAnswers reads the parsers' answers to r.asked.
func (r *fileResult) readAnswers(rd *entryReader, verdicts []result.Verdict, n int) bool {
	codes := rd.raw()
	if rd.err != nil || len(codes) != len(r.asked)*n {
		return false
	}
	all := make([]result.Verdict, len(codes))
	for k := range all {
		c := int(codes[k])
		if c >= len(verdicts) {
			return false
		}
		all[k] = verdicts[c]
	}
	r.answers = make([][]result.Verdict, len(r.asked))
	for k := range r.answers {
		r.answers[k] = all[k*n : (k+1)*n : (k+1)*n]
	}
	return true
}

// readClasses reads r's disagreements to minimise, those of file f.
func (r *fileResult) readClasses(rd *entryReader, verdicts []result.Verdict, f *File, n int) bool {
	for range rd.count() {
		class, agent, url := rd.str(), rd.str(), rd.str()
		vs := make([]result.Verdict, rd.count())
		for k := range vs {
			vs[k] = pick(rd, verdicts)
		}
		probes, lines := rd.uint(), rd.ints()
		if rd.err != nil || len(vs) != n || probes < 1 {
			return false
		}
		in := result.Input{Robots: f.Robots, Agent: agent, URL: url, Profile: f.Profile}
		r.classes = append(r.classes, classed{w: pending{class: class, in: in, vs: vs, probes: probes, lines: lines}})
	}
	return rd.err == nil
}

// readFindings reads r's findings not of a class, as found in the file
// named name.
func (r *fileResult) readFindings(rd *entryReader, name string) bool {
	blob := rd.raw()
	if rd.err != nil || len(blob) == 0 {
		return rd.err == nil
	}
	if gob.NewDecoder(bytes.NewReader(blob)).Decode(&r.findings) != nil {
		return false
	}
	for k := range r.findings {
		fd := &r.findings[k]
		fd.Sources = []string{name}
		if lines, ok := fd.SourceLines[""]; ok {
			fd.SourceLines = map[string][]int{name: lines}
		}
	}
	return true
}

// table numbers the distinct values of a list in the order they first
// come.
type table[T comparable] struct {
	index map[T]int
	list  []T
}

func newTable[T comparable]() *table[T] { return &table[T]{index: map[T]int{}} }

func (t *table[T]) add(v T) {
	if _, ok := t.index[v]; !ok {
		t.index[v] = len(t.list)
		t.list = append(t.list, v)
	}
}

// entryWriter appends the stored form of a result.
type entryWriter struct{ b []byte }

func (w *entryWriter) uint(v int) { w.b = binary.AppendUvarint(w.b, uint64(v)) }

func (w *entryWriter) str(s string) {
	w.uint(len(s))
	w.b = append(w.b, s...)
}

func (w *entryWriter) ints(vs []int) {
	w.uint(len(vs))
	for _, v := range vs {
		w.b = binary.AppendVarint(w.b, int64(v))
	}
}

// entryReader reads what an entryWriter wrote. Its first error sticks:
// every read after it returns zero values, and err says what went wrong.
// A count is never more than the bytes left, so that a damaged entry
// cannot make it allocate more than the entry's size.
type entryReader struct {
	b   []byte
	err error
}

var errEntry = errors.New("diff: a stored result does not read")

func (rd *entryReader) uint() int {
	v, k := binary.Uvarint(rd.b)
	if rd.err != nil || k <= 0 || v > math.MaxInt32 {
		rd.err = errEntry
		return 0
	}
	rd.b = rd.b[k:]
	return int(v)
}

// count reads the length of a list, at most the bytes left.
func (rd *entryReader) count() int {
	n := rd.uint()
	if n > len(rd.b) {
		rd.err = errEntry
		return 0
	}
	return n
}

func (rd *entryReader) str() string { return string(rd.raw()) }

// raw reads a string as the bytes of the entry that hold it, not copied.
func (rd *entryReader) raw() []byte {
	n := rd.count()
	if rd.err != nil {
		return nil
	}
	b := rd.b[:n:n]
	rd.b = rd.b[n:]
	return b
}

// ints reads a list of numbers; nil when it is empty, as it was before
// it was stored.
func (rd *entryReader) ints() []int {
	n := rd.count()
	if n == 0 {
		return nil
	}
	vs := make([]int, n)
	for k := range vs {
		v, n := binary.Varint(rd.b)
		if rd.err != nil || n <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
			rd.err = errEntry
			return nil
		}
		rd.b = rd.b[n:]
		vs[k] = int(v)
	}
	return vs
}

// pick reads an index into list and returns its element.
func pick[T any](rd *entryReader, list []T) (v T) {
	i := rd.uint()
	if rd.err != nil || i >= len(list) {
		rd.err = errEntry
		return v
	}
	return list[i]
}
