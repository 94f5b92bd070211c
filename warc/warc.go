// Package warc reads WARC files (ISO 28500, WARC/1.0 and WARC/1.1) record
// by record, plain or gzip-compressed, without holding more than one
// record's header in memory: a record's block is a reader over the
// stream, and whatever the caller leaves of it is skipped.
//
// A compressed WARC file is a series of gzip members, usually one per
// record; the standard library's gzip reader reads such a series as one
// stream, which is all a sequential reader needs.
package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
)

// Limits on a record's header, so that a malformed file costs bounded
// memory: no line may be longer than MaxLine, no header have more than
// MaxFields fields.
const (
	MaxLine   = 64 << 10
	MaxFields = 256
)

// Record is one WARC record. Block reads its content block and is valid
// until the next call of Next.
type Record struct {
	// Version is the record's version line, e.g. "WARC/1.0".
	Version string
	// Header holds the named fields, keys in canonical form
	// ("Warc-Type", "Content-Length").
	Header textproto.MIMEHeader
	// Number is the record's position in the file, from 1.
	Number int
	// ContentLength is the length of Block.
	ContentLength int64
	Block         io.Reader
}

// Type returns the WARC-Type field ("response", "request", ...).
func (r *Record) Type() string { return r.Header.Get("WARC-Type") }

// TargetURI returns the WARC-Target-URI field, without the angle brackets
// WARC/1.0 writers sometimes put around it.
func (r *Record) TargetURI() string {
	return strings.TrimSuffix(strings.TrimPrefix(r.Header.Get("WARC-Target-URI"), "<"), ">")
}

// Reader reads the records of one WARC file in order.
type Reader struct {
	name  string
	br    *bufio.Reader
	gz    *gzip.Reader
	block *io.LimitedReader // the current record's block, or nil
	n     int
}

// NewReader returns a reader of the WARC file r, named name in errors. A
// gzip-compressed file is recognised by its first bytes, whatever its
// name.
func NewReader(name string, r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	rd := &Reader{name: name, br: br}
	magic, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("warc: %s: %w", name, err)
	}
	if bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("warc: %s: %w", name, err)
		}
		rd.gz = gz
		rd.br = bufio.NewReaderSize(gz, 64<<10)
	}
	return rd, nil
}

// Next returns the next record, or io.EOF after the last one. It first
// skips what is left of the previous record's block.
func (r *Reader) Next() (*Record, error) {
	if r.block != nil {
		if _, err := io.Copy(io.Discard, r.block); err != nil {
			return nil, r.errorf("record %d: reading its block: %w", r.n, err)
		}
		if r.block.N > 0 {
			return nil, r.errorf("record %d: the file ends %d bytes into its block", r.n, r.block.N)
		}
		r.block = nil
		if err := r.endBlock(); err != nil {
			return nil, r.errorf("record %d: %w", r.n, err)
		}
	}
	// Tolerate blank lines between records.
	var line string
	for {
		l, err := r.line()
		if err == io.EOF && l == "" {
			return nil, io.EOF
		}
		if err != nil {
			return nil, r.errorf("record %d: %w", r.n+1, err)
		}
		if l != "" {
			line = l
			break
		}
	}
	r.n++
	if !strings.HasPrefix(line, "WARC/") {
		return nil, r.errorf("record %d: %q is not a WARC version line", r.n, clip(line))
	}
	rec := &Record{Version: line, Header: textproto.MIMEHeader{}, Number: r.n}
	for fields := 0; ; fields++ {
		l, err := r.line()
		if err != nil {
			return nil, r.errorf("record %d: header: %w", r.n, unexpected(err))
		}
		if l == "" {
			break
		}
		if fields == MaxFields {
			return nil, r.errorf("record %d: more than %d header fields", r.n, MaxFields)
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, r.errorf("record %d: header line %q has no field name", r.n, clip(l))
		}
		rec.Header.Add(textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(k)), strings.TrimSpace(v))
	}
	cl := rec.Header.Get("Content-Length")
	n, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || n < 0 {
		return nil, r.errorf("record %d: Content-Length %q is not a length", r.n, clip(cl))
	}
	rec.ContentLength = n
	r.block = &io.LimitedReader{R: r.br, N: n}
	rec.Block = r.block
	return rec, nil
}

// Close releases the gzip reader; it does not close the underlying file.
func (r *Reader) Close() error {
	if r.gz != nil {
		return r.gz.Close()
	}
	return nil
}

// line reads one line without its CRLF (or LF), at most MaxLine bytes.
func (r *Reader) line() (string, error) {
	var b []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > MaxLine {
			return "", fmt.Errorf("a line longer than %d bytes", MaxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(b) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return string(b), err
		}
		return strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), nil
	}
}

// endBlock reads the two line ends that follow a block (LF is taken for
// CRLF); a file may end without them.
func (r *Reader) endBlock() error {
	for i := 0; i < 2; i++ {
		l, err := r.line()
		switch {
		case err == io.EOF && l == "":
			return nil
		case err != nil:
			return fmt.Errorf("after the block: %w", err)
		case l != "":
			return fmt.Errorf("after the block: %q where the record should end (a wrong Content-Length?)", clip(l))
		}
	}
	return nil
}

func (r *Reader) errorf(format string, a ...any) error {
	return fmt.Errorf("warc: %s: "+format, append([]any{r.name}, a...)...)
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
