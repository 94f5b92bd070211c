package accesslog

import (
	"slices"
	"time"

	"github.com/reptest/reptest/crawl"
)

// maxBins bounds the time bins an agent's timeline keeps: when a log
// spans more, the bins lengthen and merge (binLadder), so a timeline's
// memory does not grow with the log.
const maxBins = 2048

// maxFetchMarks bounds the robots.txt fetches a timeline marks one by
// one; later ones are counted in their bins only.
const maxFetchMarks = 500

// Timeline is an agent's requests over time, aggregated: counts per tier
// in bins of BinSeconds, the robots.txt fetches marked one by one (the
// first maxFetchMarks), for the audit page's timeline.
type Timeline struct {
	BinSeconds int64       `json:"bin_seconds"`
	Bins       []TimeBin   `json:"bins"`
	Fetches    []FetchMark `json:"robots_fetches"`
	bins       map[int64]*TierCounts
}

// TimeBin is one bin of a timeline: its start and its counts.
type TimeBin struct {
	Start time.Time `json:"start"`
	TierCounts
}

// FetchMark is one robots.txt fetch: when, the answer, the version.
type FetchMark struct {
	Time    time.Time `json:"time"`
	Status  int       `json:"status"`
	Version string    `json:"version"`
}

// VersionMark is when a robots.txt version came into force.
type VersionMark struct {
	Label string    `json:"label"`
	From  time.Time `json:"from,omitzero"`
}

func newTimeline() *Timeline { return &Timeline{BinSeconds: 60, bins: map[int64]*TierCounts{}} }

// add counts a judged request in its bin.
func (tl *Timeline) add(j crawl.Judgement) {
	r := j.Request
	if r.Span > time.Duration(tl.BinSeconds)*time.Second {
		for tl.BinSeconds < int64(r.Span/time.Second) {
			tl.coarsen()
		}
	}
	k := r.Time.Unix() / tl.BinSeconds
	b := tl.bins[k]
	if b == nil {
		for len(tl.bins) >= maxBins {
			tl.coarsen()
			k = r.Time.Unix() / tl.BinSeconds
		}
		if b = tl.bins[k]; b == nil {
			b = &TierCounts{}
			tl.bins[k] = b
		}
	}
	b.add(j.Tier, r.N())
	if j.Tier == crawl.TierRobots && len(tl.Fetches) < maxFetchMarks {
		tl.Fetches = append(tl.Fetches, FetchMark{Time: r.Time.UTC(), Status: r.Status, Version: j.Version})
	}
}

// binLadder are the bin lengths in seconds, each a multiple of the one
// before, so that bins merge whole and stay aligned to minutes, hours
// and days.
var binLadder = []int64{60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 4 * 86400, 8 * 86400, 16 * 86400, 32 * 86400}

// coarsen lengthens the bins to the next length of the ladder (or
// doubles them past its end), merging bins.
func (tl *Timeline) coarsen() {
	next := tl.BinSeconds * 2
	for _, l := range binLadder {
		if l > tl.BinSeconds {
			next = l
			break
		}
	}
	old := tl.bins
	tl.bins = make(map[int64]*TierCounts, len(old)/2+1)
	for k, c := range old {
		nk := k * tl.BinSeconds / next
		if m := tl.bins[nk]; m != nil {
			m.merge(c)
		} else {
			tl.bins[nk] = c
		}
	}
	tl.BinSeconds = next
}

// finish lays the bins out in time order for the report.
func (tl *Timeline) finish() {
	tl.Bins = tl.Bins[:0]
	for k, c := range tl.bins {
		tl.Bins = append(tl.Bins, TimeBin{Start: time.Unix(k*tl.BinSeconds, 0).UTC(), TierCounts: *c})
	}
	slices.SortFunc(tl.Bins, func(a, b TimeBin) int { return a.Start.Compare(b.Start) })
}

func (tc *TierCounts) merge(o *TierCounts) {
	tc.Requests += o.Requests
	tc.Robots += o.Robots
	tc.Allowed += o.Allowed
	tc.Grace += o.Grace
	tc.Uncertain += o.Uncertain
	tc.Violations += o.Violations
}
