package crawl_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/result"
)

// failing lists the checks a run did not pass, inconclusive ones aside:
// "case #check outcome REQ".
func failing(t *testing.T, results []result.Result) []string {
	t.Helper()
	var out []string
	for _, r := range results {
		switch {
		case r.Outcome == result.Pass:
		case r.Outcome == result.Skipped && (strings.HasPrefix(r.Detail, "inconclusive:") || strings.Contains(r.Detail, "timeline case") || strings.Contains(r.Detail, "held back")):
		default:
			out = append(out, fmt.Sprintf("%s #%d %s %s", r.Case, r.Check, r.Outcome, strings.Join(r.Req, ",")))
		}
	}
	slices.Sort(out)
	return out
}

// TestPortDropped pins the checks that a crawler which derives
// scheme://host/robots.txt (the port dropped) fails on the access and
// matching cases: only those of origins on other ports than the
// default, as on a real site; combined with first-match, its other
// mistakes show beside them, unchanged.
func TestPortDropped(t *testing.T) {
	needAddressLayout(t)
	cs := selectCases(t, "access/*", "matching/*")
	portDropped := []string{
		// http://a.test:8080 takes http://a.test's file: its own is
		// never fetched, and its checks follow the wrong file.
		"access/authority-separate-files #2 violation ACC-1",
		"access/authority-separate-files #3 violation ACC-1",
		"access/authority-separate-files #8 deviation ACC-10",
		"access/authority-separate-files #9 violation ACC-1",
	}
	firstMatch := []string{
		"matching/absolute-and-relative-urls #2 violation MATCH-1",
		"matching/absolute-and-relative-urls #3 violation MATCH-1",
		"matching/allow-and-disallow-both-apply #1 violation MATCH-1,MATCH-4",
		"matching/duplicate-rules #1 violation MATCH-8,MATCH-4",
		"matching/length-after-normalisation #0 note MATCH-10,PCT-2",
		"matching/length-counts-dollar #0 note MATCH-10,SPC-2",
		"matching/length-counts-star #0 note MATCH-10,SPC-1",
		"matching/longest-allow-inside-disallow #1 violation MATCH-4",
		"matching/nested-allow-disallow-levels #1 violation MATCH-4",
		"matching/nested-allow-disallow-levels #4 violation MATCH-4",
		"matching/query-string #2 violation MATCH-11",
		"matching/tie-allow-wins #0 deviation MATCH-5",
		"matching/tie-allow-wins #1 deviation MATCH-5",
		"matching/tie-different-patterns-same-length #0 deviation MATCH-5,SPC-1",
	}
	both := append(slices.Clone(portDropped), firstMatch...)
	slices.Sort(both)
	for _, tc := range []struct {
		mode string
		want []string
	}{
		{"port-dropped", portDropped},
		{"first-match", firstMatch},
		{"port-dropped,first-match", both},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			c := testCrawlerCmd(tc.mode)
			c.Jobs = 2
			results, _ := crawl.RunAll(context.Background(), cs, c, nil)
			if diff := cmp.Diff(tc.want, failing(t, results)); diff != "" {
				t.Errorf("failing checks (-want +got):\n%s", diff)
			}
		})
	}
}

// times matches what differs between two runs of one scenario: the
// offsets and clock times of a request timeline, and the socket
// addresses in the reference's own network errors.
var times = regexp.MustCompile(`\+\d+\.\d+s|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z|127\.\d+\.\d+\.\d+:\d+`)

// TestJobs checks that scenarios run at once give the results they give
// one at a time, for a crawler with three mistakes (so that passes and
// failures of every kind are compared).
func TestJobs(t *testing.T) {
	cs := selectCases(t, "access/*", "matching/*")
	for _, mode := range []string{"port-dropped,first-match,before-robots"} {
		t.Run(mode, func(t *testing.T) {
			var got [2][]result.Result
			for i, jobs := range []int{1, 4} {
				c := testCrawlerCmd(mode)
				c.Jobs = jobs
				results, runs := crawl.RunAll(context.Background(), cs, c, nil)
				if len(runs) == 0 {
					t.Fatal("no runs")
				}
				for k := range results {
					results[k].Detail = times.ReplaceAllString(results[k].Detail, "T")
					results[k].Trace = times.ReplaceAllString(results[k].Trace, "T")
				}
				got[i] = results
			}
			if diff := cmp.Diff(got[0], got[1]); diff != "" {
				t.Errorf("results of --jobs 1 (-) and --jobs 4 (+) differ:\n%s", diff)
			}
		})
	}
}
