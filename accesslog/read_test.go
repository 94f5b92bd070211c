package accesslog_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
)

func scanAll(t *testing.T, log string, f accesslog.Format) ([]crawl.Request, *accesslog.Scanner) {
	t.Helper()
	sc := accesslog.NewScanner(strings.NewReader(log), "log", f)
	var out []crawl.Request
	for sc.Scan() {
		out = append(out, sc.Request())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out, sc
}

func TestCombined(t *testing.T) {
	log := `127.0.0.1 - frank [10/Oct/2026:13:55:36 -0700] "GET /a%20b?q=1 HTTP/1.0" 200 2326 "http://x/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav) \"quoted\""
127.0.0.1 - - [10/Oct/2026:13:55:37 -0700] "HEAD /robots.txt HTTP/1.1" 503 -
`
	got, sc := scanAll(t, log, accesslog.Format{})
	want := []crawl.Request{
		{Time: time.Date(2026, 10, 10, 20, 55, 36, 0, time.UTC), Method: "GET", URL: "/a%20b?q=1", Status: 200,
			UserAgent: `Mozilla/4.08 [en] (Win98; I ;Nav) "quoted"`, Client: "127.0.0.1", Source: "log:1"},
		{Time: time.Date(2026, 10, 10, 20, 55, 37, 0, time.UTC), Method: "HEAD", URL: "/robots.txt", Status: 503, Client: "127.0.0.1", Source: "log:2"},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if sc.Malformed() != 0 || sc.Lines() != 2 {
		t.Errorf("malformed %d lines %d", sc.Malformed(), sc.Lines())
	}
}

func TestMalformedLines(t *testing.T) {
	long := strings.Repeat("x", accesslog.MaxLine+10)
	for _, tc := range []struct {
		name, log string
		f         accesslog.Format
		want      []string
	}{
		{"combined", "junk\n" +
			`h - - [10/Oct/2026:13:55:36 +0000] "GET" 200 1 "-" "ua"` + "\n" +
			`h - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" abc 1 "-" "ua"` + "\n" +
			`h - - [99/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 200 1 "-" "ua"` + "\n" +
			`h - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 200 1 "-" "ua` + "\n" +
			long + "\n" +
			`h - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 200 1 "-" "ua"` + "\n",
			accesslog.Format{},
			[]string{
				"log:1: no [time] field",
				`log:2: request "GET": want METHOD URL [PROTOCOL]`,
				`log:3: status "abc" is not a number from 100 to 999`,
				`log:4: time "99/Oct/2026:13:55:36 +0000": want 02/Jan/2006:15:04:05 -0700`,
				"log:5: user agent: unterminated quote",
				fmt.Sprintf("log:6: line longer than %d bytes", accesslog.MaxLine),
			}},
		{"json", "{\n" + `{"time": "yesterday", "url": "/"}` + "\n" + `{"time": 1760000000}` + "\n" +
			`{"time": "2026-10-06T00:00:00Z", "url": "/", "status": "x"}` + "\n" + `{"time": 1760000000, "url": "/"}` + "\n",
			accesslog.Format{JSON: true, Fields: accesslog.JSONFields},
			[]string{
				"log:1: not a JSON object: unexpected end of JSON input",
				`log:2: time: "yesterday" is neither RFC 3339 nor a Unix time`,
				`log:3: no "url" field`,
				`log:4: status "x" is not a number`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, sc := scanAll(t, tc.log, tc.f)
			var msgs []string
			for _, e := range sc.Errors() {
				msgs = append(msgs, e.Error())
			}
			if diff := cmp.Diff(tc.want, msgs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if sc.Malformed() != len(tc.want) || len(got) != 1 {
				t.Errorf("malformed %d, requests %d; want %d and 1", sc.Malformed(), len(got), len(tc.want))
			}
		})
	}
}

func TestCloudflare(t *testing.T) {
	log := `{"EdgeStartTimestamp":"2026-10-06T01:02:03Z","ClientRequestMethod":"GET","ClientRequestHost":"example.com","ClientRequestURI":"/go/x","ClientRequestUserAgent":"Googlebot/2.1","EdgeResponseStatus":200,"VerifiedBotCategory":"Search Engine Crawler"}
{"EdgeStartTimestamp":1760000000000000000,"ClientRequestMethod":"GET","ClientRequestURI":"/","ClientRequestUserAgent":"Googlebot/2.1","EdgeResponseStatus":200,"VerifiedBotCategory":""}
`
	got, _ := scanAll(t, log, accesslog.Format{JSON: true, Fields: accesslog.CloudflareFields})
	if len(got) != 2 || got[0].Verified != "Search Engine Crawler" || got[1].Verified != "" || got[0].URL != "/go/x" || got[0].Status != 200 ||
		!got[1].Time.Equal(time.Unix(1760000000, 0)) {
		t.Errorf("got %+v", got)
	}
	f, err := accesslog.ParseFields("url=path,verified=bot", accesslog.JSONFields)
	if err != nil || f.URL != "path" || f.Verified != "bot" || f.Time != "time" {
		t.Errorf("ParseFields: %+v, %v", f, err)
	}
	if _, err := accesslog.ParseFields("color=red", accesslog.JSONFields); err == nil {
		t.Error("ParseFields accepted an unknown key")
	}
}

func TestGitVersions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (Debian package git)")
	}
	dir := t.TempDir()
	run := func(date string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("", "init", "-q")
	file := filepath.Join(dir, "robots.txt")
	os.WriteFile(file, []byte("User-agent: *\nDisallow: /a\n"), 0o644)
	run("2026-10-01T00:00:00Z", "add", "robots.txt")
	run("2026-10-01T00:00:00Z", "commit", "-q", "-m", "one")
	os.WriteFile(file, []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	run("2026-10-05T12:00:00Z", "commit", "-q", "-am", "two")
	vs, err := accesslog.GitVersions(context.Background(), dir+":robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	g := crawl.NewGrader(vs, crawl.Options{Reference: reference.RFC()})
	for _, tc := range []struct {
		at   time.Time
		url  string
		want crawl.Tier
	}{
		{time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC), "/a", crawl.TierViolation},
		{time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC), "/b", crawl.TierAllowed},
		{time.Date(2026, 10, 6, 0, 0, 0, 0, time.UTC), "/a", crawl.TierAllowed},
		{time.Date(2026, 10, 6, 0, 0, 0, 0, time.UTC), "/b", crawl.TierViolation},
	} {
		if j := g.Judge(crawl.Request{Time: tc.at, Method: "GET", URL: tc.url, UserAgent: "bot"}); j.Tier != tc.want {
			t.Errorf("%s at %s: %s (%s); want %s", tc.url, tc.at, j.Tier, j.Why, tc.want)
		}
	}
	if _, err := accesslog.GitVersions(context.Background(), dir+":missing.txt"); err == nil || !strings.Contains(err.Error(), "no commit touches missing.txt") {
		t.Errorf("missing file: %v", err)
	}
}

// genLog is an endless-looking log of size bytes, generated as it is read.
type genLog struct {
	left int64
	n    int
	buf  []byte
}

func (g *genLog) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	if len(g.buf) == 0 {
		g.n++
		ua := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
		path := fmt.Sprintf("/go/page-%d", g.n)
		if g.n%1000 == 0 {
			path = "/robots.txt"
		}
		switch {
		case g.n%7 == 0:
			ua = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"
		case g.n%5 == 0:
			ua = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
		}
		t := time.Date(2026, 10, 6, 0, 0, 0, 0, time.UTC).Add(time.Duration(g.n) * time.Second)
		// 256 addresses: clients (User-Agent and address) are bounded, as
		// a site's bots are; the log is not.
		g.buf = fmt.Appendf(nil, "66.249.66.%d - - [%s] \"GET %s HTTP/1.1\" 200 512 \"-\" \"%s\"\n", g.n%256, t.Format("02/Jan/2006:15:04:05 -0700"), path, ua)
	}
	k := copy(p, g.buf)
	g.buf = g.buf[k:]
	g.left -= int64(k)
	return k, nil
}

// BenchmarkAudit streams a generated log through the scanner and the
// auditor, writes every judged request as a JSON line (to a counter: the
// writer's memory, not the disk's speed, is measured), and reports the
// heap in use after the first 200,000 lines and its peak after that: flat
// memory means the two stay close whatever the size. AUDIT_BENCH_BYTES
// sets the size (default 64 MiB; the README's figure is for 1 GiB).
func BenchmarkAudit(b *testing.B) {
	size := int64(64 << 20)
	if s := os.Getenv("AUDIT_BENCH_BYTES"); s != "" {
		fmt.Sscan(s, &size)
	}
	versions := []crawl.Version{{Status: 200, Body: []byte(before), Label: "before"}}
	b.SetBytes(size)
	var early, peak uint64
	var out countWriter
	for i := 0; i < b.N; i++ {
		sc := accesslog.NewScanner(&genLog{left: size}, "gen.log", accesslog.Format{})
		a := accesslog.NewAuditor(versions, accesslog.Options{Grace: 24 * time.Hour, Reference: reference.RFC()})
		rw := accesslog.NewRecordWriter(&out)
		for sc.Scan() {
			if j := a.Add(sc.Request()); j.Agent != "" {
				rw.Write(accesslog.Record(j))
			}
			if sc.Lines()%200000 == 0 {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if early == 0 {
					early = ms.HeapInuse
				}
				peak = max(peak, ms.HeapInuse)
			}
		}
		if err := rw.Flush(); err != nil {
			b.Fatal(err)
		}
		a.Report(sc)
	}
	b.ReportMetric(float64(early)/(1<<20), "heap-at-200k-lines-MiB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(out.n)/float64(b.N)/(1<<20), "jsonl-MiB/op")
}

// countWriter counts what is written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
