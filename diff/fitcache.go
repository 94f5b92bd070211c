package diff

import (
	"bytes"
	"container/heap"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/result"
)

// fitFunc fits the diagnosis of evidence from a start read of its bodies
// and questions: diagnose.FitFrom, or a stand-in that counts calls in
// tests.
type fitFunc func(context.Context, *diagnose.Evidence, *diagnose.Start) ([]result.Diagnosis, error)

// fitCached fits the diagnosis of ev, one parser at a time through the
// disk cache: a parser's diagnosis depends only on the bodies, the
// questions and its own column of verdicts (the reference's verdicts the
// fitter derives itself), so it is keyed by a digest of those and of the
// fitter's build (fitterIdentity). Only the parsers the cache does not
// hold are fitted, together, on the evidence of their columns alone; a
// second run over the same inputs fits nothing, and a run after one
// parser changed fits that parser, from the fitter's start (the
// reference's and the single misreadings' verdicts, which depend on the
// bodies and questions alone) kept in the cache too. Evidence with crawlers' requests, and
// any evidence when the build cannot be identified, is fitted whole and
// not cached.
func fitCached(ctx context.Context, disk *DiskCache, ev *diagnose.Evidence, fit fitFunc) ([]result.Diagnosis, error) {
	if disk == nil || len(ev.Requests) > 0 || fitterIdentity() == "" {
		return fit(ctx, ev, diagnose.NewStart(ev))
	}
	base := evidenceDigest(ev)
	out := make([]result.Diagnosis, len(ev.Parsers))
	keys := make([][sha256.Size]byte, len(ev.Parsers))
	var missing []int
	for i, name := range ev.Parsers {
		keys[i] = columnKey(base, ev, i)
		if data, ok := disk.get(keys[i]); ok && json.Unmarshal(data, &out[i]) == nil && out[i].Parser == name {
			continue
		}
		missing = append(missing, i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	sub := ev
	if len(missing) < len(ev.Parsers) {
		sub = columns(ev, missing)
	}
	start, _ := startOf(disk, base, sub)
	ds, err := fit(ctx, sub, start)
	if err != nil {
		return nil, err
	}
	for k, i := range missing {
		out[i] = ds[k]
		if data, err := json.Marshal(ds[k]); err == nil {
			disk.put(keys[i], data)
		}
	}
	return out, nil
}

// startOf returns the fitter's start for ev, whose digest is base, from
// the cache (true) or read afresh and stored; an entry that does not
// decode, or fits other evidence, is read again and replaced.
func startOf(disk *DiskCache, base [sha256.Size]byte, ev *diagnose.Evidence) (*diagnose.Start, bool) {
	key := digest("fit-start", string(base[:]))
	if data, ok := disk.get(key); ok {
		if s, err := diagnose.StartFrom(ev, data); err == nil {
			return s, true
		}
	}
	s := diagnose.NewStart(ev)
	if data, err := s.MarshalBinary(); err == nil {
		disk.put(key, data)
	}
	return s, false
}

// columns returns ev with the verdicts of the parsers cols only.
func columns(ev *diagnose.Evidence, cols []int) *diagnose.Evidence {
	sub := &diagnose.Evidence{Bodies: ev.Bodies, Questions: make([]diagnose.Question, len(ev.Questions))}
	for _, i := range cols {
		sub.Parsers = append(sub.Parsers, ev.Parsers[i])
	}
	for k, q := range ev.Questions {
		vs := make([]result.Verdict, len(cols))
		for j, i := range cols {
			if i < len(q.Verdicts) {
				vs[j] = q.Verdicts[i]
			}
		}
		q.Verdicts = vs
		sub.Questions[k] = q
	}
	return sub
}

// evidenceDigest digests what every parser's diagnosis is fitted on
// besides its verdicts: the bodies (with status, profile and source) and
// the questions, in order.
func evidenceDigest(ev *diagnose.Evidence) [sha256.Size]byte {
	d := newDigester()
	d.add(fitterIdentity())
	for _, b := range ev.Bodies {
		sum := sha256.Sum256(b.Robots)
		d.add(string(sum[:]))
		d.add(strconv.Itoa(b.Status))
		d.add(b.Profile)
		d.add(b.Source)
	}
	for _, q := range ev.Questions {
		d.add(strconv.Itoa(q.Body))
		d.add(q.Agent)
		d.add(q.URL)
		d.add(q.Key)
	}
	return d.sum()
}

// columnKey is the cache key of parser i's diagnosis on the evidence
// whose digest is base.
func columnKey(base [sha256.Size]byte, ev *diagnose.Evidence, i int) [sha256.Size]byte {
	col := make([]byte, 0, len(ev.Questions)*len("disallow\x00"))
	for _, q := range ev.Questions {
		if i < len(q.Verdicts) {
			col = append(col, q.Verdicts[i]...)
		}
		col = append(col, 0)
	}
	d := newDigester()
	d.add("diagnosis")
	d.add(string(base[:]))
	d.add(ev.Parsers[i])
	d.addBytes(col)
	return d.sum()
}

// fitterIdentity names the build of the fitter and its catalogue: the
// module's version for a release, else the Go build ID of this program
// (a digest of its inputs and of its content), else a digest of the
// whole program, so that a rebuilt reptest (a changed fitter or
// catalogue) never reads a diagnosis an older one stored; "" when none
// can be read. The build ID is read from the executable's headers, a
// few hundred bytes, where hashing the program would read all of it:
// a tenth of a run that finds everything in the cache.
var fitterIdentity = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		if v != "" && v != "(devel)" && !strings.HasSuffix(v, "+dirty") {
			return bi.Main.Path + "@" + v
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if id := goBuildID(exe); id != "" {
		return "buildid:" + id
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "exe:" + string(h.Sum(nil))
})

// goBuildID returns the Go build ID the linker wrote into the ELF
// program at path (its note ".note.go.buildid": owner "Go", type 4),
// or "" when it has none or is not ELF.
func goBuildID(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil || s.Size > 1<<12 {
		return ""
	}
	note, err := s.Data()
	if err != nil {
		return ""
	}
	return buildIDNote(note, f.ByteOrder)
}

// buildIDNote returns the build ID a Go build ID note holds, or "".
func buildIDNote(note []byte, order binary.ByteOrder) string {
	const goBuildIDType = 4
	if len(note) < 16 {
		return ""
	}
	nameSize, descSize, typ := order.Uint32(note), order.Uint32(note[4:]), order.Uint32(note[8:])
	if nameSize != 4 || typ != goBuildIDType || string(note[12:16]) != "Go\x00\x00" || uint64(descSize) > uint64(len(note)-16) {
		return ""
	}
	return string(note[16 : 16+descSize])
}

// DefaultEvidenceBytes bounds the evidence a run keeps for its diagnosis
// (Options.EvidenceBytes): the bodies, probes and verdicts of the files
// it is fitted on. About 4,000 Common Crawl-like responses fit in it; a
// larger run's diagnosis is fitted on a sample of its distinct bodies.
const DefaultEvidenceBytes = 64 << 20

// evidenceSample keeps the evidence of the files whose body digests are
// smallest, as many as fit in limit bytes, and drops the others': a
// uniform sample of the distinct bodies that depends neither on the
// order files finish in nor on the number of workers, so that the
// diagnosis of a run is the same from run to run. The evidence of the
// files it drops is let go as soon as they are collected (or when a
// smaller digest pushes them out), which keeps a run's memory flat
// however many inputs it reads.
type evidenceSample struct {
	limit, size int
	kept        sampleHeap
	cut         *[sha256.Size]byte // the smallest digest dropped, once one is
	dropped     int                // files whose evidence was dropped
}

type sampled struct {
	digest [sha256.Size]byte
	size   int
	idx    int // the job index
	r      *fileResult
}

// sampleHeap is a max-heap by digest.
type sampleHeap []sampled

func (h sampleHeap) Len() int           { return len(h) }
func (h sampleHeap) Less(i, j int) bool { return bytes.Compare(h[i].digest[:], h[j].digest[:]) > 0 }
func (h sampleHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sampleHeap) Push(x any)        { *h = append(*h, x.(sampled)) }
func (h *sampleHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// add keeps the evidence of r, the result of job idx, if it falls in the
// sample (always, with no limit), and drops what the sample no longer
// holds.
func (s *evidenceSample) add(idx int, r *fileResult) {
	if r.answers == nil {
		return
	}
	if s.limit < 0 {
		s.kept = append(s.kept, sampled{idx: idx, r: r})
		return
	}
	d := newDigester()
	d.add("evidence")
	d.add(r.body.Name)
	d.addBytes(r.body.Robots)
	x := sampled{digest: d.sum(), size: evidenceSize(r), idx: idx, r: r}
	if s.cut != nil && bytes.Compare(x.digest[:], s.cut[:]) >= 0 {
		dropEvidence(r)
		s.dropped++
		return
	}
	heap.Push(&s.kept, x)
	s.size += x.size
	for s.size > s.limit && len(s.kept) > 0 {
		out := heap.Pop(&s.kept).(sampled)
		s.size -= out.size
		cut := out.digest
		s.cut = &cut
		dropEvidence(out.r)
		s.dropped++
	}
}

// evidenceSize is about the memory r's evidence holds: its body, and
// per probe the Probe, its agent and URL, and the verdicts with their
// slice's header (a heap profile of a 10,000-response run found these
// the evidence's live memory).
func evidenceSize(r *fileResult) int {
	n := len(r.body.Robots) + len(r.body.Name)
	for k, pr := range r.asked {
		n += int(unsafe.Sizeof(pr)) + len(pr.Agent) + len(pr.URL) + int(unsafe.Sizeof([]result.Verdict{}))
		if k < len(r.answers) {
			n += int(unsafe.Sizeof(result.Verdict(""))) * len(r.answers[k])
		}
	}
	return n
}

// results returns the results whose evidence the sample keeps, in job
// order.
func (s *evidenceSample) results() []*fileResult {
	kept := slices.Clone(s.kept)
	slices.SortFunc(kept, func(a, b sampled) int { return a.idx - b.idx })
	out := make([]*fileResult, len(kept))
	for i, x := range kept {
		out[i] = x.r
	}
	return out
}

func dropEvidence(r *fileResult) {
	r.body, r.asked, r.answers = File{}, nil, nil
}
