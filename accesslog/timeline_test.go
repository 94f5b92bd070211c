package accesslog_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// A timeline keeps at most a bounded number of bins whatever the log's
// span, aligned to whole minutes, hours or days, and loses no request.
func TestTimelineBounded(t *testing.T) {
	versions := []crawl.Version{{Status: 200, Body: []byte("User-agent: *\nDisallow: /x/\n"), Label: "v"}}
	a := accesslog.NewAuditor(versions, accesslog.Options{Reference: reference.RFC()})
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const n = 200_000
	for i := 0; i < n; i++ {
		u := "/a"
		if i%10 == 0 {
			u = "/x/b"
		}
		// A year of requests, every 158 seconds or so.
		a.Add(crawl.Request{Time: start.Add(time.Duration(i) * (365 * 24 * time.Hour / n)), Method: "GET", URL: u, UserAgent: "FooBot", Status: 200})
	}
	rep := a.Report()
	tl := rep.Agents[0].Timeline
	if len(tl.Bins) > 2048 || tl.BinSeconds%3600 != 0 {
		t.Errorf("%d bins of %d s; want at most 2048, of whole hours", len(tl.Bins), tl.BinSeconds)
	}
	var sum result.TierCounts
	for _, b := range tl.Bins {
		if b.Start.Unix()%tl.BinSeconds != 0 {
			t.Fatalf("bin at %s is not aligned to %d s", b.Start, tl.BinSeconds)
		}
		sum.Requests += b.Requests
		sum.Violations += b.Violations
	}
	if sum.Requests != n || sum.Violations != n/10 {
		t.Errorf("bins hold %d requests, %d violations; want %d, %d", sum.Requests, sum.Violations, n, n/10)
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Fatal(err)
	}
}
