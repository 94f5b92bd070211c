package accesslog_test

import (
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
