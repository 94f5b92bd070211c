package warc

import (
	"bytes"
	"errors"
	"io"
	"net/textproto"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type rec struct {
	Type, URI, Block string
}

func write(t *testing.T, compress bool, recs []rec) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b, compress)
	for _, r := range recs {
		h := textproto.MIMEHeader{}
		h.Set("WARC-Type", r.Type)
		h.Set("WARC-Target-URI", r.URI)
		if err := w.Write(h, []byte(r.Block)); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func readAll(name string, data []byte) ([]rec, error) {
	r, err := NewReader(name, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []rec
	for {
		x, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		b, err := io.ReadAll(x.Block)
		if err != nil {
			return out, err
		}
		out = append(out, rec{x.Type(), x.TargetURI(), string(b)})
	}
}

func TestRoundTrip(t *testing.T) {
	recs := []rec{
		{"warcinfo", "", "software: test\r\n"},
		{"request", "http://a.test/robots.txt", "GET /robots.txt HTTP/1.1\r\nHost: a.test\r\n\r\n"},
		{"response", "http://a.test/robots.txt", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /\n"},
		{"response", "http://b.test/robots.txt", ""},
	}
	for _, compress := range []bool{false, true} {
		got, err := readAll("t.warc", write(t, compress, recs))
		if err != nil {
			t.Fatalf("compress %v: %v", compress, err)
		}
		if diff := cmp.Diff(recs, got); diff != "" {
			t.Errorf("compress %v (-want +got):\n%s", compress, diff)
		}
	}
}

// TestSkipsUnreadBlocks reads only the headers: Next skips the blocks.
func TestSkipsUnreadBlocks(t *testing.T) {
	data := write(t, true, []rec{{"response", "http://a.test/", strings.Repeat("x", 300<<10)}, {"response", "http://b.test/", "y"}})
	r, err := NewReader("t.warc.gz", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for {
		x, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		uris = append(uris, x.TargetURI())
	}
	if diff := cmp.Diff([]string{"http://a.test/", "http://b.test/"}, uris); diff != "" {
		t.Error(diff)
	}
}

func TestMalformed(t *testing.T) {
	good := string(write(t, false, []rec{{"response", "http://a.test/", "HTTP/1.1 200 OK\r\n\r\nbody"}}))
	gz := write(t, true, []rec{{"response", "http://a.test/", "HTTP/1.1 200 OK\r\n\r\nbody"}})
	tests := []struct {
		name, data, want string
	}{
		{"not warc", "GET / HTTP/1.1\r\n\r\n", `record 1: "GET / HTTP/1.1" is not a WARC version line`},
		{"no length", "WARC/1.0\r\nWARC-Type: response\r\n\r\n", `record 1: Content-Length "" is not a length`},
		{"negative length", "WARC/1.0\r\nContent-Length: -3\r\n\r\n", `Content-Length "-3" is not a length`},
		{"short block", "WARC/1.0\r\nContent-Length: 100\r\n\r\nabc", "record 1: the file ends 97 bytes into its block"},
		{"long length", strings.Replace(good, "Content-Length: 23", "Content-Length: 20", 1), "record 1: after the block"},
		{"header cut", "WARC/1.0\r\nWARC-Type: resp", "record 1: header: unexpected EOF"},
		{"field without name", "WARC/1.0\r\n: x\r\n\r\n", "has no field name"},
		{"long line", "WARC/1.0\r\nX: " + strings.Repeat("a", MaxLine+10), "a line longer than"},
		{"many fields", "WARC/1.0\r\n" + strings.Repeat("X: y\r\n", MaxFields+1) + "\r\n", "more than 256 header fields"},
		{"truncated gzip", string(gz[:len(gz)-12]), "unexpected EOF"},
		{"second record garbage", good + "junk\r\n", `record 2: "junk" is not a WARC version line`},
	}
	for _, tt := range tests {
		_, err := readAll("bad.warc", []byte(tt.data))
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "warc: bad.warc: ") {
			t.Errorf("%s: error %q, want it to name the file and say %q", tt.name, err, tt.want)
		}
		if tt.name == "truncated gzip" && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s: %v does not wrap io.ErrUnexpectedEOF", tt.name, err)
		}
	}
}
