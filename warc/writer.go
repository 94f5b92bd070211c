package warc

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"net/textproto"
	"slices"
	"strconv"
)

// Writer writes WARC/1.0 records, each as a gzip member of its own when
// compressed, as crawlers write them. It is used to make test files and
// samples.
type Writer struct {
	w        io.Writer
	compress bool
	gz       *gzip.Writer // reused: a new one costs about a megabyte
}

// NewWriter returns a writer to w; compress writes one gzip member per
// record.
func NewWriter(w io.Writer, compress bool) *Writer { return &Writer{w: w, compress: compress} }

// Write writes one record: the version line, the header fields in sorted
// order with Content-Length set to the block's length, and the block.
func (wr *Writer) Write(header textproto.MIMEHeader, block []byte) error {
	out := wr.w
	var gz *gzip.Writer
	if wr.compress {
		if wr.gz == nil {
			wr.gz = gzip.NewWriter(wr.w)
		} else {
			wr.gz.Reset(wr.w)
		}
		gz = wr.gz
		out = gz
	}
	bw := bufio.NewWriter(out)
	bw.WriteString("WARC/1.0\r\n")
	h := textproto.MIMEHeader{}
	for k, v := range header {
		h[textproto.CanonicalMIMEHeaderKey(k)] = v
	}
	h.Set("Content-Length", strconv.Itoa(len(block)))
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			fmt.Fprintf(bw, "%s: %s\r\n", k, v)
		}
	}
	bw.WriteString("\r\n")
	bw.Write(block)
	bw.WriteString("\r\n\r\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	if gz != nil {
		return gz.Close()
	}
	return nil
}
