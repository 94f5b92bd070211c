package diff

import (
	"slices"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// areaCounts counts one file's probes per area of index, parsers by
// their place in the run's panel.
type areaCounts struct {
	index *result.AreaIndex
	by    map[string]*areaCount
}

type areaCount struct {
	probes, agreed int
	apart          []int
}

// add counts a probe, with the parsers' verdicts vs, in the area of its
// requirement (Probe.Req); robots returns the file as the reference
// reads it, for a tie. A probe whose requirement has no area is counted
// nowhere.
func (c *areaCounts) add(pr Probe, vs []result.Verdict, robots func() *reference.Robots) {
	area := c.index.AreaOf(pr.Req)
	if area == "" {
		return
	}
	if c.by == nil {
		c.by = make(map[string]*areaCount)
	}
	a := c.by[area]
	if a == nil {
		a = &areaCount{apart: make([]int, len(vs))}
		c.by[area] = a
	}
	a.probes++
	if !slices.ContainsFunc(vs, func(v result.Verdict) bool { return v != vs[0] }) {
		a.agreed++
		return
	}
	side, ok := majority(vs, func() result.Verdict { return referenceVerdict(robots(), pr) })
	for i, v := range vs {
		if !ok || v != side {
			a.apart[i]++
		}
	}
}

// referenceVerdict returns the reference's verdict on a probe of the file
// robots, or "" when it gives none (an agent that is not a token).
func referenceVerdict(robots *reference.Robots, pr Probe) result.Verdict {
	allowed, err := robots.Allowed(pr.Agent, pr.URL)
	if err != nil {
		return ""
	}
	return result.VerdictOf(allowed)
}

// majority returns the verdict most parsers gave. When several verdicts
// are given equally often, it is the reference's verdict (ref) if that is
// one of them; otherwise there is no majority and ok is false.
func majority(vs []result.Verdict, ref func() result.Verdict) (side result.Verdict, ok bool) {
	count := make(map[result.Verdict]int)
	most := 0
	for _, v := range vs {
		count[v]++
		most = max(most, count[v])
	}
	var tied []result.Verdict
	for v, n := range count {
		if n == most {
			tied = append(tied, v)
		}
	}
	if len(tied) == 1 {
		return tied[0], true
	}
	r := ref()
	return r, r != "" && slices.Contains(tied, r)
}

// areasOf returns one file's area counts, for the parsers names.
func areasOf(names []string, r *fileResult) []result.AreaStat {
	var out []result.AreaStat
	for area, c := range r.areas.by {
		apart := make(map[string]int)
		for i, n := range c.apart {
			if n > 0 {
				apart[names[i]] = n
			}
		}
		out = append(out, result.AreaStat{Area: area, Probes: c.probes, Agreed: c.agreed, Apart: apart})
	}
	return out
}
