package crawl

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// changesIn returns the versions of origin that come into force in
// (from, until): a fetch or request in that bucket may have met any.
func (g *Grader) changesIn(origin string, from, until time.Time) []Version {
	vs := g.versions[origin]
	if len(vs) == 0 {
		vs = g.versions[""]
	}
	var out []Version
	for _, v := range vs {
		if v.From.After(from) && v.From.Before(until) {
			out = append(out, v)
		}
	}
	return out
}

// maxBucketCases bounds the cases a bucket is judged in.
const maxBucketCases = 64

// judgeBucket judges a bucket of requests (j.Request.Span), or a request
// after a robots.txt fetch of a bucket: in every case
// of when in the bucket they came (its start, each change of robots.txt in
// it, its end), whether they came before or after a robots.txt fetch in
// the same bucket, and which version a fetch in a bucket read. When all
// cases agree that is the tier; otherwise the tier is uncertain and Why
// says what the bucket cannot tell.
func (g *Grader) judgeBucket(j Judgement, st *fetchState) Judgement {
	r := j.Request
	end := r.Time.Add(r.Span)
	instants := []time.Time{r.Time}
	for _, v := range g.changesIn(j.Origin, r.Time, end) {
		instants = append(instants, v.From)
	}
	if r.Span > 0 {
		instants = append(instants, end.Add(-time.Nanosecond))
	}
	states := []*fetchState{st}
	var reasons []string
	if st.prev != nil && !st.at.After(r.Time.Add(r.Span)) && st.until.After(r.Time) {
		states = append(states, st.prev)
	}
	var cases []Judgement
	for _, s := range states {
		for _, c := range copies(s) {
			for _, t := range instants {
				if len(cases) >= maxBucketCases {
					break
				}
				cj := j
				cj.Request.Time = t
				cur, known := g.versionAt(j.Origin, t)
				g.judgeAt(&cj, c, cur, known)
				cases = append(cases, cj)
			}
		}
	}
	first := cases[0]
	first.Request = r
	agree := true
	for _, c := range cases[1:] {
		if c.Tier != first.Tier || c.Req != first.Req {
			agree = false
		}
	}
	if agree {
		return first
	}
	switch {
	case len(states) > 1 && r.Span > 0:
		reasons = append(reasons, fmt.Sprintf("the bucket %s also holds a robots.txt fetch, and the requests may have come before or after it", bucketText(r.Time, end)))
	case len(states) > 1:
		reasons = append(reasons, fmt.Sprintf("it came inside the bucket %s of a robots.txt fetch, which may have been before or after it", bucketText(st.at, st.until)))
	}
	for _, s := range states {
		if len(s.alts) > 0 {
			reasons = append(reasons, fmt.Sprintf("the robots.txt fetch in the bucket %s may have read %s", bucketText(s.at, s.until), versionList(s)))
		}
	}
	if len(instants) > 2 {
		reasons = append(reasons, fmt.Sprintf("robots.txt changed inside the bucket %s", bucketText(r.Time, end)))
	}
	first.Tier, first.Req = TierUncertain, ""
	for _, c := range cases {
		if c.Tier == TierViolation && !slices.Contains(first.Could, c.Req) {
			first.Could = append(first.Could, c.Req)
		}
	}
	first.Why = "the bucket's requests could be " + outcomes(cases) + ": " + strings.Join(reasons, "; ")
	return first
}

// copies returns the states a fetch in a bucket may have left: one per
// version it may have read.
func copies(st *fetchState) []*fetchState {
	out := []*fetchState{st}
	for _, v := range st.alts {
		c := *st
		c.res, c.label, c.alts = v.res, v.Label, nil
		out = append(out, &c)
	}
	return out
}

// versionList names the versions a fetch in a bucket may have read.
func versionList(st *fetchState) string {
	names := []string{st.label}
	for _, v := range st.alts {
		names = append(names, v.Label)
	}
	return strings.Join(names, " or ")
}

// outcomes lists the distinct tiers of a bucket's cases: "grace (CACHE-2)
// or violation (ACC-2)".
func outcomes(cases []Judgement) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cases {
		o := string(c.Tier)
		if c.Req != "" && c.Tier != TierAllowed {
			o += " (" + c.Req + ")"
		}
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " or ")
}

// bucketText writes a bucket as "2026-10-06 13:00–14:00 UTC".
func bucketText(from, until time.Time) string {
	from, until = from.UTC(), until.UTC()
	if from.YearDay() == until.YearDay() || until.Sub(from) <= 24*time.Hour && until.Hour() == 0 && until.Minute() == 0 {
		return from.Format("2006-01-02 15:04") + "–" + until.Format("15:04") + " UTC"
	}
	return from.Format("2006-01-02 15:04") + "–" + until.Format("2006-01-02 15:04") + " UTC"
}
