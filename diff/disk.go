package diff

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// CacheVersion is the version of what DiskCache holds. It is raised
// whenever reptest asks parsers differently (requests, adapters) or
// records results differently (probes, minimisation, findings), so that
// an upgraded reptest does not read what an older one stored: each
// version keeps its entries in a folder of its own.
const CacheVersion = 4

// DefaultCacheBytes is the size a DiskCache is trimmed to when opened
// with a limit of 0.
const DefaultCacheBytes = 1 << 30

// entryMagic starts every entry, followed by the SHA-256 digest of the
// rest, the gzip-compressed data: an entry that does not check (a torn write, a disk error, a
// foreign file) is a miss, and the next put replaces it.
const entryMagic = "reptest-cache\n"

// DiskCache keeps what a differential run learnt for the next run over
// the same inputs: each parser's verdicts on a body's probes (keyed by
// the parser's name, version, runtime and options, the profile, the
// body's digest, the agent and the URL), and each file's result (keyed by
// all of those of the run's parsers and the run's options). Entries are
// files below Dir, written to a temporary file and renamed, so that runs
// sharing a cache never read half an entry. Its size is bounded: Trim
// removes the least recently used entries (by modification time, which a
// read renews) until the entries take at most the limit. It is safe for
// concurrent use, and by several processes at once.
type DiskCache struct {
	dir   string
	limit int64
	// written counts the bytes put since the last trim; past a quarter of
	// the limit, put trims, so that a long run stays bounded too.
	written  atomic.Int64
	trimming atomic.Bool
}

// OpenCache opens (creating it if need be) the cache in dir, of at most
// limit bytes (DefaultCacheBytes when 0).
func OpenCache(dir string, limit int64) (*DiskCache, error) {
	return openCache(dir, limit, CacheVersion)
}

// openCache opens the entries of one version of the cache in dir.
func openCache(dir string, limit int64, version int) (*DiskCache, error) {
	if limit <= 0 {
		limit = DefaultCacheBytes
	}
	c := &DiskCache{dir: filepath.Join(dir, "v"+strconv.Itoa(version)), limit: limit}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, fmt.Errorf("diff: cache: %w", err)
	}
	return c, nil
}

// Dir returns the folder of the cache's entries.
func (c *DiskCache) Dir() string { return c.dir }

func (c *DiskCache) path(key [sha256.Size]byte) string {
	h := hex.EncodeToString(key[:])
	return filepath.Join(c.dir, h[:2], h[2:])
}

// get returns the entry of key, or false when there is none that checks.
func (c *DiskCache) get(key [sha256.Size]byte) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	p := c.path(key)
	b, err := os.ReadFile(p)
	if err != nil || len(b) < len(entryMagic)+sha256.Size || !bytes.HasPrefix(b, []byte(entryMagic)) {
		return nil, false
	}
	sum, packed := b[len(entryMagic):len(entryMagic)+sha256.Size], b[len(entryMagic)+sha256.Size:]
	if got := sha256.Sum256(packed); !bytes.Equal(sum, got[:]) {
		return nil, false
	}
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	if zr == nil {
		zr = new(gzip.Reader)
	}
	defer gzipReaders.Put(zr)
	if zr.Reset(bytes.NewReader(packed)) != nil {
		return nil, false
	}
	data, ok := unpack(zr, packed)
	if !ok {
		return nil, false
	}
	now := time.Now()
	os.Chtimes(p, now, now) // recently used; a failure only ages it
	return data, true
}

// unpack reads the whole of zr, the gzip stream packed, into a slice of
// the size the stream's trailer states (the data's length modulo 2³²),
// allocated once: a run read from the cache unpacks an entry per file.
// ok is false when the data is longer than maxEntryBytes, is not the
// size stated, or does not check.
func unpack(zr *gzip.Reader, packed []byte) (data []byte, ok bool) {
	if len(packed) < 4 {
		return nil, false
	}
	size := binary.LittleEndian.Uint32(packed[len(packed)-4:])
	if size > maxEntryBytes {
		return nil, false
	}
	data = make([]byte, size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return nil, false
	}
	// The stream must end here; reading its end checks its CRC.
	var more [1]byte
	if n, err := zr.Read(more[:]); n != 0 || err != io.EOF {
		return nil, false
	}
	return data, true
}

// put stores data as the entry of key. A failure (a full disk, a
// read-only folder) leaves the cache as it was: it costs the next run a
// miss, never a wrong answer.
func (c *DiskCache) put(key [sha256.Size]byte, data []byte) {
	if c == nil {
		return
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	var packed bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&packed)
	zw.Write(data)
	zw.Close()
	gzipWriters.Put(zw)
	sum := sha256.Sum256(packed.Bytes())
	_, err = f.Write(slices.Concat([]byte(entryMagic), sum[:], packed.Bytes()))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return
	}
	if c.written.Add(int64(len(data))) > c.limit/4 && c.trimming.CompareAndSwap(false, true) {
		c.written.Store(0)
		c.Trim()
		c.trimming.Store(false)
	}
}

// Entries are compressed: the verdicts and findings of a crawl's bodies
// take a tenth of the room. A gzip.Writer costs a megabyte to make, so
// they are reused.
var gzipWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return w }}

// gzipReaders are reused as the writers are: a reader's window is 32
// KiB to make, and a run read from the cache opens an entry per file.
var gzipReaders sync.Pool

// maxEntryBytes bounds what one entry may unpack to.
const maxEntryBytes = 256 << 20

// staleTemp is the age past which a temporary file is taken for the
// leftover of a run that died while writing.
const staleTemp = time.Hour

// Trim removes the least recently used entries until the others take at
// most the cache's limit, and temporary files older than an hour.
// Entries another run removes at the same time are no error.
func (c *DiskCache) Trim() error {
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var entries []entry
	var total int64
	err := filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > staleTemp {
				os.Remove(path)
			}
			return nil
		}
		entries = append(entries, entry{path, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if err != nil {
		return fmt.Errorf("diff: trimming the cache: %w", err)
	}
	slices.SortFunc(entries, func(a, b entry) int { return a.used.Compare(b.used) })
	for _, e := range entries {
		if total <= c.limit {
			break
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
		}
	}
	return nil
}
