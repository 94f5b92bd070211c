package diff

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash"
	"io"
	"slices"
	"strconv"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// digest returns the SHA-256 digest of the parts, each preceded by its
// length so that no two lists of parts share one.
func digest(parts ...string) [sha256.Size]byte {
	d := newDigester()
	for _, s := range parts {
		d.add(s)
	}
	return d.sum()
}

// digester hashes a list of parts as digest does, added one at a time.
type digester struct{ d *digesting }

// digesting is a digester's state: the parts are gathered in buf and
// hashed a chunk at a time, as hashing many short parts one by one costs
// more than the copy.
type digesting struct {
	h   hash.Hash
	buf []byte
}

func newDigester() digester { return digester{&digesting{h: sha256.New()}} }

// add hashes one part, preceded by its length.
func (d digester) add(s string) {
	const chunk = 32 << 10
	d.d.buf = binary.BigEndian.AppendUint64(d.d.buf, uint64(len(s)))
	if len(d.d.buf)+len(s) > chunk {
		d.d.h.Write(d.d.buf)
		d.d.buf = d.d.buf[:0]
		io.WriteString(d.d.h, s)
		return
	}
	d.d.buf = append(d.d.buf, s...)
}

// addBytes is add for a part held as bytes, which it does not copy.
func (d digester) addBytes(b []byte) {
	d.d.buf = binary.BigEndian.AppendUint64(d.d.buf, uint64(len(b)))
	d.d.h.Write(d.d.buf)
	d.d.buf = d.d.buf[:0]
	d.d.h.Write(b)
}

func (d digester) sum() [sha256.Size]byte {
	var k [sha256.Size]byte
	d.d.h.Write(d.d.buf)
	d.d.h.Sum(k[:0])
	return k
}

// setIdentities records what identifies each parser's answers in the
// disk cache: its name, version and runtime, and what identities (the
// run's Options.Identities) say of it.
func (p *panel) setIdentities(identities map[string]string) {
	p.ids = make([]string, len(p.parsers))
	for i, q := range p.parsers {
		info := q.Info()
		k := digest(info.Name, info.Version, info.Runtime, identities[info.Name])
		p.ids[i] = string(k[:])
	}
}

// storedVerdict is one answer in a DiskCache entry of verdicts.
type storedVerdict struct {
	Agent   string         `json:"a"`
	URL     string         `json:"u"`
	Verdict result.Verdict `json:"v"`
}

// verdictsKey is the key of parser i's verdicts on the probes of b.
func (p *panel) verdictsKey(i int, b *body) [sha256.Size]byte {
	return digest("verdicts", p.ids[i], b.profile, string(b.sum[:]))
}

// storedVerdicts returns parser i's verdicts on questions about b that
// the disk cache holds.
func (p *panel) storedVerdicts(i int, b *body) map[cases.Question]result.Verdict {
	data, ok := p.disk.get(p.verdictsKey(i, b))
	if !ok {
		return nil
	}
	var list []storedVerdict
	if json.Unmarshal(data, &list) != nil {
		return nil
	}
	m := make(map[cases.Question]result.Verdict, len(list))
	for _, s := range list {
		if verdictOf(s.Verdict) == s.Verdict && s.Verdict != VerdictError {
			m[cases.Question{Agent: s.Agent, URL: s.URL}] = s.Verdict
		}
	}
	return m
}

// storeVerdicts adds parser i's verdicts in column i of vs, on qs, to
// what the disk cache held (had), unless it held them all. Errors are
// not stored.
func (p *panel) storeVerdicts(i int, b *body, had map[cases.Question]result.Verdict, qs []cases.Question, vs [][]result.Verdict) {
	list := make([]storedVerdict, 0, len(had)+len(qs))
	for q, v := range had {
		list = append(list, storedVerdict{q.Agent, q.URL, v})
	}
	for k, q := range qs {
		if _, ok := had[q]; ok || vs[k][i] == VerdictError {
			continue
		}
		list = append(list, storedVerdict{q.Agent, q.URL, vs[k][i]})
	}
	if len(list) == len(had) {
		return
	}
	if data, err := json.Marshal(list); err == nil {
		p.disk.put(p.verdictsKey(i, b), data)
	}
}

// resultKey is the key of the result of comparing f with the panel's
// parsers under opts; ok is false for a file the cache does not keep
// results of (one with probes of its own).
func (p *panel) resultKey(f *File, opts *Options) (key [sha256.Size]byte, ok bool) {
	if p.disk == nil || f.Probes != nil {
		return key, false
	}
	parts := []string{"result", f.Profile, strconv.FormatBool(opts.NoMinimize),
		strconv.Itoa(opts.MaxProbes), strconv.Itoa(opts.ProbeBytes), strconv.Itoa(opts.MaxTests)}
	parts = append(parts, p.ids...)
	sum := sha256.Sum256(f.Robots)
	return digest(append(parts, string(sum[:]))...), true
}

// compareCached is compareFile, with the result read from the disk
// cache when it holds it, and stored there when it does not. A result
// in which a parser answered with an error is not stored.
func (p *panel) compareCached(ctx context.Context, f *File, idx int, opts *Options) *fileResult {
	if f.Profile == "" {
		withProfile := *f
		withProfile.Profile = opts.Profile
		f = &withProfile
	}
	key, ok := p.resultKey(f, opts)
	if !ok {
		return compareFile(ctx, p, f, idx, opts)
	}
	if data, hit := p.disk.get(key); hit {
		if r, ok := decodeResult(data, f, len(p.names)); ok {
			r.rank = rankOf(f, idx)
			return r
		}
	}
	r := compareFile(ctx, p, f, idx, opts)
	if ctx.Err() != nil || slices.ContainsFunc(r.findings, func(fd result.Finding) bool {
		for _, v := range fd.Verdicts {
			if v == VerdictError {
				return true
			}
		}
		return false
	}) {
		return r
	}
	if data, err := encodeResult(r, f.Name); err == nil {
		p.disk.put(key, data)
	}
	return r
}
