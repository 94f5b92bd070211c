package accesslog_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
)

// An audit streams a log through an Auditor and reports per agent.
func ExampleAuditor() {
	log := `66.249.66.1 - - [06/Oct/2026:01:00:00 +0000] "GET /robots.txt HTTP/1.1" 503 0 "-" "Googlebot/2.1"
66.249.66.1 - - [06/Oct/2026:01:00:05 +0000] "GET /shop HTTP/1.1" 200 512 "-" "Googlebot/2.1"
`
	versions := []crawl.Version{{Status: 200, Body: []byte("User-agent: Googlebot\nAllow: /\n"), Label: "robots.txt"}}
	a := accesslog.NewAuditor(versions, accesslog.Options{Grace: 24 * time.Hour, Reference: reference.RFC()})
	sc := accesslog.NewScanner(strings.NewReader(log), "access.log", accesslog.Format{})
	for sc.Scan() {
		a.Add(sc.Request())
	}
	for _, ar := range a.Report(sc).Agents {
		fmt.Fprintf(os.Stdout, "%s: %d requests, %d violations %v\n", ar.Agent, ar.Requests, ar.Violations, ar.ByReq)
	}
	// Output:
	// googlebot: 2 requests, 1 violations map[ACC-7:1]
}

// Rotated logs, compressed or not, are read as one log in time order.
func ExampleMerge() {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`66.249.66.1 - - [06/Oct/2026:01:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 80 "-" "Googlebot/2.1"` + "\n"))
	zw.Close()
	current := `66.249.66.1 - - [06/Oct/2026:02:00:00 +0000] "GET /shop HTTP/1.1" 200 512 "-" "Googlebot/2.1"` + "\n"
	var scanners []*accesslog.Scanner
	for name, data := range map[string][]byte{"access.log.1.gz": gz.Bytes(), "access.log": []byte(current)} {
		r, kind, err := accesslog.Decompress(bytes.NewReader(data))
		if err != nil {
			panic(err)
		}
		defer r.Close()
		if kind != "" {
			fmt.Println(name, "is", kind)
		}
		scanners = append(scanners, accesslog.NewScanner(r, name, accesslog.Format{}))
	}
	m := accesslog.Merge(scanners...)
	for m.Scan() {
		fmt.Println(m.Request().Time.Format("15:04"), m.Request().URL, m.Request().Source)
	}
	// Output:
	// access.log.1.gz is gzip
	// 01:00 /robots.txt access.log.1.gz:1
	// 02:00 /shop access.log:1
}

// Published address ranges tell a bot from one that only claims its name.
func ExampleRanges() {
	var rs accesslog.Ranges
	err := rs.Add(strings.NewReader(`{"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}`), "googlebot.json")
	if err != nil {
		panic(err)
	}
	for _, addr := range []string{"66.249.64.9", "2001:4860:4801:10::7", "203.0.113.9"} {
		label, ok := rs.Lookup(addr)
		fmt.Println(addr, ok, label)
	}
	// Output:
	// 66.249.64.9 true googlebot.json
	// 2001:4860:4801:10::7 true googlebot.json
	// 203.0.113.9 false
}
