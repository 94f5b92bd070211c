package diff

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/reptest/reptest/result"
)

// A class of disagreements is what pendingKey says of one, with the
// file's profile: the verdicts and the reference's cause (causeKey: the
// decision and the shape of the question). A run that
// minimises minimises one example of each class, not one per file: once
// every file is compared, the disagreement of the class's file of
// smallest rank (the digest of its profile and body, then its place in
// the run), so that the example depends neither on the order in which
// workers finish nor on the disk cache. Every file of the class is a
// source of its finding, and its probes are counted there. Minimising
// keeps the class (goal), so no two classes share an example, and
// merging reports keeps one finding per class (result.Merge).
//
// The kind of probe is not part of the class, though it once grouped a
// file's disagreements: an example cannot keep it (it is how a question
// was derived, not a property of the input), and classes that differed
// in it alone minimised to the same input half of the time on the
// real-world files. The question's shape, which an example can keep,
// stands in for it.

// rank orders the files of a run for choosing examples.
type rank struct {
	sum [sha256.Size]byte // of the profile and body
	idx int               // the file's place in the run, for bodies compared twice
}

// rankOf returns the rank of f, the run's file idx (f's profile set).
func rankOf(f *File, idx int) rank {
	h := sha256.New()
	h.Write([]byte(f.Profile))
	h.Write([]byte{0})
	h.Write(f.Robots)
	r := rank{idx: idx}
	h.Sum(r.sum[:0])
	return r
}

func (r rank) less(o rank) bool {
	if c := bytes.Compare(r.sum[:], o.sum[:]); c != 0 {
		return c < 0
	}
	return cmp.Less(r.idx, o.idx)
}

// classed is a file's disagreement of one class: as found, and its
// minimised finding when the file minimised it (exampleTable.every).
type classed struct {
	w       pending
	example *result.Finding
}

// exampleTable is what a run knows of its minimisations.
type exampleTable struct {
	// every has every disagreement minimised as its file is compared,
	// to show (in tests) that the findings are the same as when each
	// class is minimised once.
	every bool
	// minimised counts the minimisations of the run.
	minimised atomic.Int64
}

// minimiseClasses has the workers minimise the example of every class
// that lacks one, the largest bodies first, and returns when they have
// or ctx is done: the classes of one file go to one worker together, so
// that the candidates their minimisations share are asked once (the
// verdict cache). The classes' files are all compared: fo is not
// changed but by the examples.
func minimiseClasses(ctx context.Context, fo *folder, todo chan<- []*classPlace, stage func(string)) {
	defer close(todo)
	byFile := make(map[int][]*classPlace) // by the smallest file's place in the run
	n := 0
	for _, cp := range fo.classAt {
		if cp.example == nil {
			byFile[cp.rank.idx] = append(byFile[cp.rank.idx], cp)
			n++
		}
	}
	if n == 0 {
		return
	}
	if stage != nil {
		stage("minimising " + strconv.Itoa(n) + " classes of disagreements")
	}
	files := slices.Collect(maps.Values(byFile))
	for _, cps := range files {
		slices.SortFunc(cps, func(a, b *classPlace) int { return cmp.Compare(a.place, b.place) })
	}
	slices.SortFunc(files, func(a, b []*classPlace) int {
		return cmp.Or(cmp.Compare(len(b[0].w.in.Robots), len(a[0].w.in.Robots)), cmp.Compare(a[0].place, b[0].place))
	})
	for _, cps := range files {
		select {
		case todo <- cps:
		case <-ctx.Done():
			return
		}
	}
}

// example sets cp's example: the minimised finding of the disagreement
// of its smallest file, from the disk cache when it holds it.
func (p *panel) example(ctx context.Context, cp *classPlace, opts *Options) {
	key, cached := p.exampleKey(cp, opts)
	if cached {
		if data, hit := p.disk.get(key); hit {
			var fd result.Finding
			if json.Unmarshal(data, &fd) == nil && fd.Signature != "" {
				cp.example = &fd
				return
			}
		}
	}
	fd := p.resolve(ctx, cp.name, cp.w, opts, newReading(cp.w.in.Robots))
	cp.example = &fd
	if !cached || ctx.Err() != nil {
		return
	}
	// Only the input and what the parsers and the reference say of
	// it: the sources are the run's.
	fd.Sources, fd.SourceLines, fd.Probes = nil, nil, 0
	if data, err := json.Marshal(fd); err == nil {
		p.disk.put(key, data)
	}
}

// exampleKey is the key of the example minimised from cp's disagreement
// by the panel's parsers under opts; ok is false without a disk cache.
func (p *panel) exampleKey(cp *classPlace, opts *Options) (key [sha256.Size]byte, ok bool) {
	if p.disk == nil {
		return key, false
	}
	in := &cp.w.in
	parts := []string{"example", cp.w.class, in.Profile, in.Agent, in.URL, strconv.Itoa(opts.MaxTests)}
	for _, v := range cp.w.vs {
		parts = append(parts, string(v))
	}
	parts = append(parts, p.ids...)
	sum := sha256.Sum256(in.Robots)
	return digest(append(parts, string(sum[:]))...), true
}
