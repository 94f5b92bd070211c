package accesslog

import (
	"slices"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/result"
)

// maxBins bounds the time bins an agent's timeline keeps: when a log
// spans more, the bins lengthen and merge (binLadder), so a timeline's
// memory does not grow with the log.
const maxBins = 2048

// maxFetchMarks bounds the robots.txt fetches a timeline marks one by
// one; later ones are counted in their bins only.
const maxFetchMarks = 500

// timeline aggregates an agent's requests over time: counts per tier
// in bins of binSeconds, the robots.txt fetches marked one by one (the
// first maxFetchMarks), for the audit page's timeline
// (result.AuditTimeline).
type timeline struct {
	binSeconds int64
	fetches    []result.FetchMark
	bins       map[int64]*result.TierCounts
}

func newTimeline() *timeline { return &timeline{binSeconds: 60, bins: map[int64]*result.TierCounts{}} }

// add counts a judged request in its bin.
func (tl *timeline) add(j crawl.Judgement) {
	r := j.Request
	if r.Span > time.Duration(tl.binSeconds)*time.Second {
		for tl.binSeconds < int64(r.Span/time.Second) {
			tl.coarsen()
		}
	}
	k := r.Time.Unix() / tl.binSeconds
	b := tl.bins[k]
	if b == nil {
		for len(tl.bins) >= maxBins {
			tl.coarsen()
			k = r.Time.Unix() / tl.binSeconds
		}
		if b = tl.bins[k]; b == nil {
			b = &result.TierCounts{}
			tl.bins[k] = b
		}
	}
	b.Add(string(j.Tier), r.N())
	if j.Tier == crawl.TierRobots && len(tl.fetches) < maxFetchMarks {
		tl.fetches = append(tl.fetches, result.FetchMark{Time: r.Time.UTC(), Status: r.Status, Version: j.Version})
	}
}

// binLadder are the bin lengths in seconds, each a multiple of the one
// before, so that bins merge whole and stay aligned to minutes, hours
// and days.
var binLadder = []int64{60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 4 * 86400, 8 * 86400, 16 * 86400, 32 * 86400}

// coarsen lengthens the bins to the next length of the ladder (or
// doubles them past its end), merging bins.
func (tl *timeline) coarsen() {
	next := tl.binSeconds * 2
	for _, l := range binLadder {
		if l > tl.binSeconds {
			next = l
			break
		}
	}
	old := tl.bins
	tl.bins = make(map[int64]*result.TierCounts, len(old)/2+1)
	for k, c := range old {
		nk := k * tl.binSeconds / next
		if m := tl.bins[nk]; m != nil {
			m.Merge(*c)
		} else {
			tl.bins[nk] = c
		}
	}
	tl.binSeconds = next
}

// finish lays the bins out in time order for the report.
func (tl *timeline) finish() *result.AuditTimeline {
	out := &result.AuditTimeline{BinSeconds: tl.binSeconds, Fetches: tl.fetches}
	for k, c := range tl.bins {
		out.Bins = append(out.Bins, result.TimeBin{Start: time.Unix(k*tl.binSeconds, 0).UTC(), TierCounts: *c})
	}
	slices.SortFunc(out.Bins, func(a, b result.TimeBin) int { return a.Start.Compare(b.Start) })
	return out
}
