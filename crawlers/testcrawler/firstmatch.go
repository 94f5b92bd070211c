package main

import (
	"github.com/reptest/reptest/reference"
)

// firstMatch decides u by the first rule of the agent's group that
// matches, in file order: the mistake of taking the first match for the
// longest (MATCH-4). Each rule is tried alone, in a file of its own, so
// that the reference does the matching.
func firstMatch(rb *reference.Robots, agent, u string) bool {
	d, err := rb.Decide(agent, u)
	if err != nil || d.Reason != reference.RuleMatched && d.Reason != reference.NoMatchingRule {
		return err == nil && d.Allowed
	}
	for _, l := range groupRules(rb, d.GroupLines) {
		one := reference.ParseString("User-agent: *\n"+l.Key+": "+l.Value+"\n", reference.RFC())
		od, err := one.Decide(agent, u)
		if err == nil && od.Reason == reference.RuleMatched {
			return l.Kind == reference.Allow
		}
	}
	return true
}

// groupRules returns the allow and disallow lines of the groups whose
// user-agent lines are uaLines, in file order.
func groupRules(rb *reference.Robots, uaLines []int) []reference.Line {
	want := map[int]bool{}
	for _, n := range uaLines {
		want[n] = true
	}
	var out []reference.Line
	in, afterRule := false, false
	for _, l := range rb.Lines() {
		switch l.Kind {
		case reference.UserAgent:
			if afterRule {
				in = false
			}
			afterRule = false
			in = in || want[l.Number]
		case reference.Allow, reference.Disallow:
			afterRule = true
			if in {
				out = append(out, l)
			}
		}
	}
	return out
}
