package crawl_test

import (
	"context"
	"slices"
	"testing"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/report"
)

// TestBrokenCrawlersDiagnosed runs the test crawler's broken modes: each
// is diagnosed as its misreading, and the obeying crawler as none.
func TestBrokenCrawlersDiagnosed(t *testing.T) {
	cs := selectCases(t, "access/status-*", "matching/*",
		"access/authority-*", "matching/longest*", "matching/first-match*")
	for _, tc := range []struct {
		mode string
		want string // "" for none
	}{
		{"obey", ""},
		{"before-robots", "robots-after-page"},
		{"ignore-ports", "port-ignored"},
		{"5xx-allow", "5xx-allows"},
		{"first-match", "first-match"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			results, runs := crawl.RunAll(context.Background(), cs, testCrawlerCmd(tc.mode), nil)
			ds, err := diagnose.Fit(context.Background(), crawl.Evidence(runs, results, tc.mode))
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != 1 {
				t.Fatalf("%d diagnoses, want 1", len(ds))
			}
			got := ds[0].IDs()
			var want []string
			if tc.want != "" {
				want = []string{tc.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s diagnosed as %v, want %v: %s", tc.mode, got, want, report.DiagnosisLine(ds[0]))
			}
		})
	}
}
