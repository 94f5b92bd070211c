package result

import (
	"fmt"
	"slices"
)

// Summarize counts the results of the parser that base names and judges
// it (Summary.Judge); of base it keeps the name, version and runtime. A parser that was given checks but skipped all of them,
// or all of those of one level, is marked NotRun with the reason, and so
// does not conform: a result is never better than what ran. A parser with
// no result at all was not run either.
func Summarize(base Summary, results []Result, strict bool) Summary {
	s := Summary{Name: base.Name, Version: base.Version, Runtime: base.Runtime}
	name := s.Name
	type count struct {
		checks, skipped int
		why             string // the first skipped check's detail
	}
	levels := map[Level]*count{}
	var order []Level
	for _, r := range results {
		if r.Parser != name {
			continue
		}
		s.Add(r.Outcome)
		c := levels[r.Level]
		if c == nil {
			c = &count{}
			levels[r.Level] = c
			order = append(order, r.Level)
		}
		c.checks++
		if r.Outcome == Skipped {
			c.skipped++
			if c.why == "" {
				c.why = r.Detail
			}
		}
	}
	slices.SortFunc(order, func(a, b Level) int { return a.Rank() - b.Rank() })
	switch {
	case s.Checks == 0:
		s.NotRun = "no check was run"
	case s.Skipped == s.Checks:
		s.NotRun = fmt.Sprintf("%s skipped%s", every(s.Checks, ""), because(levels[order[0]].why))
	default:
		for _, lv := range order {
			if c := levels[lv]; c.skipped == c.checks {
				s.NotRun = fmt.Sprintf("%s skipped%s", every(c.checks, levelName(lv)+" "), because(c.why))
				break
			}
		}
	}
	s.Judge(strict)
	return s
}

// every says "all 3 MUST checks were" or "the one MUST check was".
func every(n int, level string) string {
	if n == 1 {
		return "the one " + level + "check was"
	}
	return fmt.Sprintf("all %d %schecks were", n, level)
}

// because formats a skip reason as the end of a sentence.
func because(why string) string {
	if why == "" {
		return ""
	}
	return ": " + why
}

// levelName names a level in running text: "MUST", "interpretation".
func levelName(lv Level) string {
	if lv == "" {
		return "unlevelled"
	}
	return string(lv)
}
