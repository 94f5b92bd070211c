package diff

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

func cacheKey(s string) [32]byte { return digest("test", s) }

// TestDiskCacheConcurrentWriters has two caches on one folder (two runs)
// write different entries under the same keys at once, and checks that
// every read sees one writer's entry whole, never a mix or a torn one.
func TestDiskCacheConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	var bad atomic.Int64
	for w := 0; w < 2; w++ {
		c, err := OpenCache(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := bytes.Repeat([]byte{byte('a' + w)}, 64<<10)
			for n := 0; n < 200; n++ {
				k := cacheKey(fmt.Sprint(n % 5))
				c.put(k, mine)
				got, ok := c.get(k)
				if ok && !bytes.Equal(got, mine) && !bytes.Equal(got, bytes.Repeat([]byte{byte('a' + 1 - w)}, 64<<10)) {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if bad.Load() > 0 {
		t.Errorf("%d reads saw a mixed entry", bad.Load())
	}
	temps, _ := filepath.Glob(filepath.Join(dir, "*", "*", ".tmp-*"))
	if len(temps) > 0 {
		t.Errorf("temporary files left: %v", temps)
	}
}

// TestDiskCacheCorruptEntries checks that a truncated, altered or foreign
// entry is a miss, and that a put replaces it.
func TestDiskCacheCorruptEntries(t *testing.T) {
	c, err := OpenCache(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(`{"probes": 3}`)
	for _, tc := range []struct {
		name  string
		spoil func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-3] }},
		{"header only", func(b []byte) []byte { return b[:len(entryMagic)+5] }},
		{"a byte changed", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }},
		{"empty", func([]byte) []byte { return nil }},
		{"foreign", func([]byte) []byte { return []byte("not an entry of ours, but long enough to hold a digest") }},
	} {
		k := cacheKey(tc.name)
		c.put(k, data)
		p := c.path(k)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, tc.spoil(b), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.get(k); ok {
			t.Errorf("%s: read %q", tc.name, got)
		}
		c.put(k, data)
		if got, ok := c.get(k); !ok || !bytes.Equal(got, data) {
			t.Errorf("%s: after a put, read %q, %v", tc.name, got, ok)
		}
	}
}

// TestUnpack checks that an entry's stream is read whole only when it is
// the size its trailer states and checks: a stream whose trailer was
// altered, or that goes on past its end, is a miss.
func TestUnpack(t *testing.T) {
	data := bytes.Repeat([]byte("Disallow: /private\n"), 100)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	good := b.Bytes()
	withSize := func(n uint32) []byte {
		p := slices.Clone(good)
		binary.LittleEndian.PutUint32(p[len(p)-4:], n)
		return p
	}
	for _, tc := range []struct {
		name   string
		packed []byte
		ok     bool
	}{
		{"whole", good, true},
		{"trailer states less", withSize(uint32(len(data) - 1)), false},
		{"trailer states more", withSize(uint32(len(data) + 1)), false},
		{"trailer states more than an entry may hold", withSize(maxEntryBytes + 1), false},
		{"a second stream after it", slices.Concat(good, good), false},
		{"bytes after it", slices.Concat(good, []byte("tail")), false},
	} {
		zr, err := gzip.NewReader(bytes.NewReader(tc.packed))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, ok := unpack(zr, tc.packed)
		if ok != tc.ok || ok && !bytes.Equal(got, data) {
			t.Errorf("%s: unpack = %d bytes, %v; want %v", tc.name, len(got), ok, tc.ok)
		}
	}
}

// TestDiskCacheVersion checks that entries of one cache version are not
// read by another.
func TestDiskCacheVersion(t *testing.T) {
	dir := t.TempDir()
	v1, err := openCache(dir, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := openCache(dir, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	k := cacheKey("x")
	v1.put(k, []byte("old"))
	if got, ok := v2.get(k); ok {
		t.Errorf("version 2 read version 1's %q", got)
	}
	if _, ok := v1.get(k); !ok {
		t.Error("version 1 lost its entry")
	}
}

// TestDiskCacheBounded fills a cache past its limit and checks that a trim
// brings it under the limit, removing the least recently used entries
// first (a read makes an entry recent), and a dead run's old temporary
// files.
func TestDiskCacheBounded(t *testing.T) {
	const limit = 20 << 10
	c, err := OpenCache(t.TempDir(), limit)
	if err != nil {
		t.Fatal(err)
	}
	c.written.Store(-1 << 40) // no trims while filling
	// Random bytes, which compression does not shrink.
	entry := make([]byte, 1000)
	for i := range entry {
		entry[i] = byte(rand.N(256))
	}
	old := time.Now().Add(-time.Hour)
	for n := 0; n < 60; n++ {
		k := cacheKey(fmt.Sprint(n))
		c.put(k, entry)
		at := old.Add(time.Duration(n) * time.Second)
		os.Chtimes(c.path(k), at, at)
	}
	c.get(cacheKey("0")) // the oldest, used again
	stale := filepath.Join(filepath.Dir(c.path(cacheKey("1"))), ".tmp-dead")
	os.WriteFile(stale, entry, 0o644)
	os.Chtimes(stale, old.Add(-time.Hour), old.Add(-time.Hour))
	if err := c.Trim(); err != nil {
		t.Fatal(err)
	}
	var total int64
	filepath.WalkDir(c.Dir(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, _ := d.Info()
			total += info.Size()
		}
		return nil
	})
	if total > limit {
		t.Errorf("%d bytes after trimming to %d", total, limit)
	}
	for _, tc := range []struct {
		key  string
		kept bool
	}{{"0", true}, {"1", false}, {"30", false}, {"59", true}, {"50", true}} {
		if _, ok := c.get(cacheKey(tc.key)); ok != tc.kept {
			t.Errorf("entry %s kept: %v, want %v", tc.key, ok, tc.kept)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("an hour-old temporary file was left")
	}
}

// TestRunCached runs files with a cache three times: the second run asks
// the parsers nothing; a third, in which one parser's identity changed,
// asks only that parser about the probes. All reports are the one of a
// run without cache. Two runs at once on one cache give it too.
func TestRunCached(t *testing.T) {
	files := Generate(11, 16)
	dir := t.TempDir()
	type counts struct{ a, b atomic.Int64 }
	run := func(cache bool, ids map[string]string, noMin bool, c *counts) *result.Document {
		mk := func(context.Context) ([]cases.Parser, error) {
			return []cases.Parser{ref(), &naive{name: "a", calls: &c.a}, &batching{naive: naive{name: "b", calls: &c.b}, batches: new(atomic.Int64), questions: new(atomic.Int64)}}, nil
		}
		opts := Options{Workers: 2, MaxProbes: 60, NoMinimize: noMin, Identities: ids}
		if cache {
			var err error
			if opts.Cache, err = OpenCache(dir, 0); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := Run(context.Background(), files, mk, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	for _, noMin := range []bool{true, false} {
		var plain, first, second, changed counts
		want := run(false, nil, noMin, &plain)
		for _, r := range []struct {
			name string
			ids  map[string]string
			c    *counts
		}{{"first", nil, &first}, {"second", nil, &second}, {"b changed", map[string]string{"b": "--strict"}, &changed}} {
			if diff := cmp.Diff(want, run(true, r.ids, noMin, r.c)); diff != "" {
				t.Fatalf("no-minimize %v, %s cached run differs (-uncached +cached):\n%s", noMin, r.name, diff)
			}
		}
		if first.a.Load() == 0 || second.a.Load() != 0 || second.b.Load() != 0 {
			t.Errorf("no-minimize %v: parser a asked %d times in the first run, %d in the second; b %d in the second", noMin, first.a.Load(), second.a.Load(), second.b.Load())
		}
		if changed.b.Load() == 0 || noMin && changed.a.Load() != 0 {
			t.Errorf("no-minimize %v: after b changed, a asked %d times, b %d", noMin, changed.a.Load(), changed.b.Load())
		}
	}
	var wg sync.WaitGroup
	reps := make([]*result.Document, 2)
	var c counts
	for i := range reps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i] = run(true, map[string]string{"a": fmt.Sprint("shared", i%1)}, false, &c)
		}()
	}
	wg.Wait()
	want := run(false, nil, false, &c)
	for i, rep := range reps {
		if diff := cmp.Diff(want, rep); diff != "" {
			t.Errorf("concurrent run %d differs (-uncached +cached):\n%s", i, diff)
		}
	}
}
