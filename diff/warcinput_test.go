package diff

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
	"github.com/reptest/reptest/warc"
)

// response is one HTTP response to put in a WARC file.
type response struct {
	uri, head, body string
}

func (r response) http() string {
	return "HTTP/1.1 " + r.head + "\r\n\r\n" + r.body
}

// writeWARC writes a WARC file of a request and a response record per
// response, with a warcinfo record first.
func writeWARC(t *testing.T, path string, compress bool, rs []response) {
	t.Helper()
	var b bytes.Buffer
	w := warc.NewWriter(&b, compress)
	rec := func(typ, uri, ct, block string) {
		h := textproto.MIMEHeader{}
		h.Set("WARC-Type", typ)
		if uri != "" {
			h.Set("WARC-Target-URI", uri)
		}
		h.Set("Content-Type", ct)
		if err := w.Write(h, []byte(block)); err != nil {
			t.Fatal(err)
		}
	}
	rec("warcinfo", "", "application/warc-fields", "software: reptest test\r\n")
	for _, r := range rs {
		rec("request", r.uri, "application/http; msgtype=request", "GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n")
		rec("response", r.uri, "application/http; msgtype=response", r.http())
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gzipped(s string) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

func TestReadWARCClassifies(t *testing.T) {
	dir := t.TempDir()
	plain := "User-agent: *\nDisallow: /a\n"
	rs := []response{
		{"http://a.test/robots.txt", "200 OK\r\nContent-Type: text/plain", plain},
		{"http://b.test/robots.txt", "200 OK\r\nContent-Type: text/plain; charset=utf-8", plain}, // a duplicate
		{"http://c.test/robots.txt", "200 OK\r\nContent-Type: text/html", "<html>not found</html>"},
		{"http://d.test/robots.txt", "301 Moved\r\nLocation: https://d.test/robots.txt", ""},
		{"http://e.test/robots.txt", "404 Not Found", "gone"},
		{"http://f.test/robots.txt", "503 Busy", ""},
		{"http://g.test/robots.txt", "200 OK\r\nContent-Encoding: gzip", gzipped("User-agent: *\nDisallow: /g\n")},
		{"http://h.test/robots.txt", "200 OK\r\nTransfer-Encoding: chunked", "1b\r\nUser-agent: *\nDisallow: /h\n\r\n0\r\n\r\n"},
		{"http://i.test/robots.txt", "200 OK\r\nContent-Encoding: br", "???"},
		{"http://j.test/robots.txt", "200 OK", strings.Repeat("#", MaxFileBytes+1)},
		{"http://k.test/robots.txt", "garbage", ""},
	}
	path := filepath.Join(dir, "a.warc.gz")
	writeWARC(t, path, true, rs)
	var got []string
	var st WARCStats
	err := readWARC(path, make(map[[32]byte]bool), &st, func(f File) bool {
		got = append(got, f.Name+" "+string(f.Robots))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"http://a.test/robots.txt (" + path + "#3) " + plain,
		"http://b.test/robots.txt (" + path + "#5) " + plain, // counted a duplicate; the run lists it in a's findings
		"http://c.test/robots.txt (" + path + "#7) <html>not found</html>",
		"http://g.test/robots.txt (" + path + "#15) User-agent: *\nDisallow: /g\n",
		"http://h.test/robots.txt (" + path + "#17) User-agent: *\nDisallow: /h\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	wantSt := WARCStats{Files: 1, Records: 23, Responses: 11, Success: 5, Redirect: 1, Unavailable: 1, Unreachable: 1, NotText: 1, Duplicates: 1, Unreadable: 3}
	if diff := cmp.Diff(wantSt, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
}

func TestInputsErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.warc")
	os.WriteFile(bad, []byte("WARC/1.0\r\nContent-Length: 99\r\n\r\nshort"), 0o644)
	listing := filepath.Join(dir, "robotstxt.paths")
	os.WriteFile(listing, []byte("# a listing\nbad.warc\nnot-a-warc.txt\n"), 0o644)
	var in Inputs
	if err := in.AddPath(listing); err == nil || !strings.Contains(err.Error(), "robotstxt.paths:3") {
		t.Errorf("listing with a bad line: %v", err)
	}
	in = Inputs{}
	if err := in.AddPath(bad); err != nil {
		t.Fatal(err)
	}
	_, err := in.Run(context.Background(), cases.Shard{}, func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), refGoogle()}, nil
	}, Options{})
	if err == nil || !strings.Contains(err.Error(), "bad.warc: record 1") {
		t.Errorf("malformed WARC: %v", err)
	}
}

// TestShardedWARCMergesToUnsharded writes a set of WARC files of
// generated bodies, compares them whole and in four shards, and checks
// that the merged shards are the unsharded report.
func TestShardedWARCMergesToUnsharded(t *testing.T) {
	dir := t.TempDir()
	gen := Generate(9, 48)
	var listing strings.Builder
	for w := 0; w < 6; w++ {
		var rs []response
		for i := w * 8; i < (w+1)*8; i++ {
			rs = append(rs, response{fmt.Sprintf("http://h%d.test/robots.txt", i), "200 OK\r\nContent-Type: text/plain", string(gen[i].Robots)})
		}
		rs = append(rs, rs[0], response{"http://x.test/robots.txt", "404 Not Found", ""}) // a duplicate, a 404
		name := fmt.Sprintf("seg%d.warc.gz", w)
		writeWARC(t, filepath.Join(dir, name), w%2 == 0, rs)
		listing.WriteString(name + "\n")
	}
	paths := filepath.Join(dir, "robotstxt.paths")
	if err := os.WriteFile(paths, []byte(listing.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	factory := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), refGoogle(), &naive{name: "naive"}}, nil
	}
	runShard := func(sh cases.Shard) *result.Document {
		var in Inputs
		if err := in.AddPath(paths); err != nil {
			t.Fatal(err)
		}
		doc, err := in.Run(context.Background(), sh, factory, Options{MaxProbes: 40, Run: &result.RunInfo{}})
		if err != nil {
			t.Fatal(err)
		}
		// Through the JSON form, as shards are merged.
		var b bytes.Buffer
		if err := doc.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		back, err := result.ReadJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		return back
	}
	table, err := cases.RequirementTable()
	if err != nil {
		t.Fatal(err)
	}
	whole, err := result.Merge(table, runShard(cases.Shard{}))
	if err != nil {
		t.Fatal(err)
	}
	var parts []*result.Document
	for k := 1; k <= 4; k++ {
		parts = append(parts, runShard(cases.Shard{K: k, N: 4}))
	}
	merged, err := result.Merge(table, parts...)
	if err != nil {
		t.Fatal(err)
	}
	// The runs differ (how many reports each was made from); the results
	// must not.
	// A merge adds the shards' diagnoses rather than fitting again
	// (docs/FORMAT.md §9): the departures add up, the rest may differ.
	if diff := cmp.Diff(whole, merged, cmpopts.IgnoreFields(result.Document{}, "Run", "Diagnosis")); diff != "" {
		t.Fatalf("merged shards differ from the whole run (-whole +merged):\n%s", diff)
	}
	for i, d := range whole.Diagnosis {
		if got := merged.Diagnosis[i]; got.Parser != d.Parser || got.Departures != d.Departures {
			t.Errorf("merged diagnosis of %s: %d departures, the whole run's %s: %d", got.Parser, got.Departures, d.Parser, d.Departures)
		}
	}
	if merged.Run.Merged != 4 {
		t.Errorf("merged run made from %d reports, want 4", merged.Run.Merged)
	}
	if whole.Summary.Files != 48 || len(whole.Findings) == 0 {
		t.Errorf("whole run: %d files, %d findings", whole.Summary.Files, len(whole.Findings))
	}
	// The per-area counts add up as the other counts do (compared above),
	// and every probe is in an area.
	inAreas := 0
	for _, a := range whole.Summary.Areas {
		inAreas += a.Probes
	}
	if inAreas != whole.Summary.Probes {
		t.Errorf("whole run: %d probes, %d in areas", whole.Summary.Probes, inAreas)
	}
}

// An input that is no regular file (a device, a pipe: Stat gives no
// size) is read up to MaxFileBytes, not until it ends (for /dev/zero,
// never): a pipe that sends more is an error, one that sends a body is
// read whole.
func TestInputsNotRegular(t *testing.T) {
	const body = "User-agent: *\nDisallow: /x\n"
	for _, tt := range []struct {
		name, send string
		ok         bool
	}{
		{"a body", body, true},
		{"too much", strings.Repeat("#", MaxFileBytes+1), false},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.WriteString(tt.send) // fails once the reader is closed
			w.Close()
		}()
		var in Inputs
		err = in.AddPath(fmt.Sprintf("/proc/self/fd/%d", r.Fd()))
		r.Close()
		switch {
		case tt.ok && (err != nil || len(in.Files) != 1 || string(in.Files[0].Robots) != body):
			t.Errorf("%s: %v, %d files; want the body sent", tt.name, err, len(in.Files))
		case !tt.ok && (err == nil || !strings.Contains(err.Error(), "more than")):
			t.Errorf("%s: %v; want an error saying it is too large", tt.name, err)
		}
	}
}
