package crawl_test

import (
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
)

// Buckets are judged in every case they leave open: a bucket that no
// change or fetch splits keeps its tier; one that straddles a change of
// robots.txt that matters is uncertain, with the reason.
func TestGradeBuckets(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 10, 6, h, m, 0, 0, time.UTC) }
	versions := []crawl.Version{
		{Status: 200, Body: []byte("User-agent: *\nAllow: /\n"), Label: "open"},
		{From: at(13, 31), Status: 200, Body: []byte("User-agent: *\nDisallow: /x/\n"), Label: "closed"},
	}
	for _, tc := range []struct {
		name  string
		reqs  []crawl.Request
		tier  crawl.Tier
		why   string
		could []string
	}{
		{"before the change", []crawl.Request{{Time: at(12, 0), Span: time.Hour, URL: "/x/a", Count: 5}}, crawl.TierAllowed, "", nil},
		{"straddles the change", []crawl.Request{{Time: at(13, 0), Span: time.Hour, URL: "/x/a", Count: 5}}, crawl.TierUncertain, "robots.txt changed inside the bucket 2026-10-06 13:00–14:00 UTC", nil},
		{"a path no version disallows", []crawl.Request{{Time: at(13, 0), Span: time.Hour, URL: "/y", Count: 5}}, crawl.TierAllowed, "", nil},
		{"after a 503 in the same bucket", []crawl.Request{
			{Time: at(10, 0), Span: time.Hour, URL: "/robots.txt", Status: 503},
			{Time: at(10, 0), Span: time.Hour, URL: "/y", Count: 2}}, crawl.TierUncertain,
			"the bucket 2026-10-06 10:00–11:00 UTC also holds a robots.txt fetch", []string{"ACC-7"}},
		{"a request at an instant after a fetch in a bucket that straddles the change", []crawl.Request{
			{Time: at(13, 0), Span: time.Hour, URL: "/robots.txt"},
			{Time: at(15, 0), URL: "/x/a"}}, crawl.TierUncertain,
			"the robots.txt fetch in the bucket 2026-10-06 13:00–14:00 UTC may have read open or closed", []string{"ACC-2"}},
		{"a request at an instant inside the bucket of a 503", []crawl.Request{
			{Time: at(10, 0), Span: time.Hour, URL: "/robots.txt", Status: 503},
			{Time: at(10, 30), URL: "/y"}}, crawl.TierUncertain, "it came inside the bucket 2026-10-06 10:00–11:00 UTC of a robots.txt fetch", []string{"ACC-7"}},
		{"a minute bucket after the fetch", []crawl.Request{
			{Time: at(10, 0), Span: time.Minute, URL: "/robots.txt", Status: 503},
			{Time: at(10, 1), Span: time.Minute, URL: "/y"}}, crawl.TierViolation, "", nil},
	} {
		g := crawl.NewGrader(versions, crawl.Options{Reference: reference.RFC(), Grace: 24 * time.Hour})
		var j crawl.Judgement
		for _, r := range tc.reqs {
			r.Method, r.UserAgent = "GET", "FooBot"
			if r.Status == 0 {
				r.Status = 200
			}
			j = g.Judge(r)
		}
		if j.Tier != tc.tier || !strings.Contains(j.Why, tc.why) || strings.Join(j.Could, ",") != strings.Join(tc.could, ",") {
			t.Errorf("%s: %s %q could %v; want %s, %q, %v", tc.name, j.Tier, j.Why, j.Could, tc.tier, tc.why, tc.could)
		}
	}
}
