package accesslog_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"
	"github.com/reptest/reptest/accesslog"
)

// A log reads the same plain, gzip-, bzip2- or zstd-compressed: the
// format is told by the magic bytes, not by a name.
func TestDecompress(t *testing.T) {
	plain, err := os.ReadFile("testdata/access.log")
	if err != nil {
		t.Fatal(err)
	}
	bz, err := os.ReadFile("testdata/access.log.bz2") // bzip2 -9; the standard library only reads bzip2
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	var zs bytes.Buffer
	enc, _ := zstd.NewWriter(&zs)
	enc.Write(plain)
	enc.Close()
	for _, tc := range []struct {
		kind string
		data []byte
	}{{"", plain}, {"gzip", gz.Bytes()}, {"bzip2", bz}, {"zstd", zs.Bytes()}, {"", []byte("BZ")}, {"", nil}} {
		r, kind, err := accesslog.Decompress(bytes.NewReader(tc.data))
		if err != nil {
			t.Errorf("%q: %v", tc.kind, err)
			continue
		}
		got, err := io.ReadAll(r)
		r.Close()
		want := plain
		if len(tc.data) < 4 {
			want = tc.data
		}
		if kind != tc.kind || err != nil || !bytes.Equal(got, want) {
			t.Errorf("%q: kind %q, err %v, text differs: %v", tc.kind, kind, err, cmp.Diff(string(want), string(got)))
		}
	}
}

// A compressed log cut short or corrupt is a read error, not a quiet end.
func TestDecompressCorrupt(t *testing.T) {
	plain, _ := os.ReadFile("testdata/access.log")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	cut := gz.Bytes()[:gz.Len()/2]
	r, _, err := accesslog.Decompress(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	sc := accesslog.NewScanner(r, "cut.gz", accesslog.Format{})
	for sc.Scan() {
	}
	if err := sc.Err(); err == nil || !strings.Contains(err.Error(), "cut.gz:1: the gzip data is cut short or damaged: unexpected EOF") {
		t.Errorf("a gzip log cut in half read to the end with error %v (%d lines)", err, sc.Lines())
	}
}
