package accesslog

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// maxZstdWindow bounds the memory a zstd log may ask for (its window);
// zstd's own tool writes windows of at most 8 MiB unless told --long.
const maxZstdWindow = 128 << 20

// compressions are the formats Decompress knows, by magic bytes.
var compressions = []struct {
	name  string
	magic []byte
}{
	{"gzip", []byte{0x1f, 0x8b}},
	{"bzip2", []byte("BZh")},
	{"zstd", []byte{0x28, 0xb5, 0x2f, 0xfd}},
}

// Decompress returns a reader of the log r holds: decompressed when it
// starts with the magic bytes of gzip, bzip2 or zstd, whatever its name
// (rotated logs are access.log.2.gz, or have lost their suffix), else r's
// bytes as they are. kind names the compression ("" for none). Closing
// the reader frees the decoder; it does not close r.
func Decompress(r io.Reader) (rc io.ReadCloser, kind string, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4) // a short log is shorter than any magic: plain
	for _, c := range compressions {
		if !bytes.HasPrefix(head, c.magic) {
			continue
		}
		switch c.name {
		case "gzip":
			zr, err := gzip.NewReader(br)
			if err != nil {
				// gzip's errors start "gzip: " already.
				return nil, c.name, fmt.Errorf("starts as gzip, but: %w", err)
			}
			return damaged{zr, zr, c.name}, c.name, nil
		case "bzip2":
			return damaged{bzip2.NewReader(br), io.NopCloser(br), c.name}, c.name, nil
		case "zstd":
			zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow))
			if err != nil {
				return nil, c.name, fmt.Errorf("zstd: %w", err)
			}
			return damaged{zr, zstdCloser{zr}, c.name}, c.name, nil
		}
	}
	return io.NopCloser(br), "", nil
}

// zstdCloser frees a zstd decoder's goroutines on Close.
type zstdCloser struct{ *zstd.Decoder }

func (z zstdCloser) Close() error { z.Decoder.Close(); return nil }

// damaged names the compression in a decoder's read errors: a rotated
// log cut short says "unexpected EOF", which alone reads as a bug.
type damaged struct {
	r    io.Reader
	c    io.Closer
	kind string
}

func (d damaged) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("the %s data is cut short or damaged: %w", d.kind, err)
	}
	return n, err
}

func (d damaged) Close() error { return d.c.Close() }
