package diff

import (
	"slices"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// Tags returns the requirement IDs (corpus/requirements.yaml) that an input points
// to, from the reference's reading of it under the input's profile and
// from the verdicts (which may be nil). The mapping is small and coarse;
// it names what a reviewer should look at, not a proof of which rule a
// parser broke:
//
//	a parser answered reject                       SYN-9
//	the agent is not a product token               UA-1
//	reference: /robots.txt is always allowed       MATCH-7
//	reference: no group applies                    UA-5
//	reference: the "*" group applies               UA-4
//	reference: a named group applies, "*" exists   UA-6
//	the agent is named in two or more groups       UA-3
//	a user-agent value names the agent in another case   UA-2
//	a user-agent value is not a token or "*"       UA-7, G-UA
//	a rule pattern holds "*"                       SPC-1
//	a rule pattern ends in "$" / has "$" inside    SPC-2 / SPC-3
//	"%2A"/"%24" in a rule, "*"/"$" in the URL      SPC-4
//	non-ASCII or unsafe octets, or a "%" that starts no escape (rule or URL)   PCT-1
//	an escape of an unreserved or reserved octet   PCT-2
//	lower-case hex in a rule's escape, or in a URL's escape of a reserved octet   PCT-3
//	a pattern not starting with "/" or "*"         PAT-1
//	an empty pattern                               PAT-2
//	two matching rules, allow and disallow, equal length   MATCH-5
//	two matching rules, allow and disallow, unequal        MATCH-4
//	a rule matches only when case is ignored       MATCH-2
//	a rule matches the path only past its first octet      MATCH-3
//	a rule's match depends on the URL's query      MATCH-11
//	an allow of ".../index.htm..."                 G-INDEX
//	record name in unusual case                    SYN-1
//	white space before a name or the colon         SYN-2
//	a CR line end                                  SYN-3
//	a "#" comment                                  SYN-4
//	a blank line inside a group                    SYN-5
//	more than one group                            SYN-6
//	a last group without rules                     SYN-7
//	a rule before the first user-agent line        SYN-8
//	a line the reference cannot parse              SYN-9
//	a (partial) byte order mark                    SYN-10
//	other records (sitemap, crawl-delay, ...)      OTH-3
//	a misspelt record name or missing colon        OTH-2, G-TYPO
//	a body past 500 KiB                            LIM-1
//
// When none applies: MATCH-6 if no rule matched, MATCH-9 if a plain rule
// decided, MATCH-1 otherwise. The result is sorted and never empty.
func Tags(in Input, verdicts map[string]cases.Verdict) []string {
	set := make(map[string]bool)
	for _, v := range verdicts {
		if v == cases.Reject {
			set["SYN-9"] = true
		}
	}
	opts, _ := reference.OptionsFor(in.Profile)
	r := reference.Parse(in.Robots, opts)
	d, err := r.Decide(in.Agent, in.URL)
	if err != nil {
		set["UA-1"] = true
		return sortedKeys(set)
	}
	switch d.Reason {
	case reference.RobotsTxt:
		set["MATCH-7"] = true
	case reference.NoGroup:
		set["UA-5"] = true
	}
	switch {
	case d.Group == "*":
		set["UA-4"] = true
	case d.Group != "" && r.HasStarGroup():
		set["UA-6"] = true
	}

	body := string(in.Robots)
	if strings.HasPrefix(body, "\xEF") {
		set["SYN-10"] = true
	}
	if strings.IndexByte(body, '\r') >= 0 {
		set["SYN-3"] = true
	}
	if strings.IndexByte(body, '#') >= 0 {
		set["SYN-4"] = true
	}
	if len(body) > reference.KiB500 {
		set["LIM-1"] = true
	}
	tagLines(set, in, r, opts)

	pq := reference.PathQuery(in.URL)
	tagEncoding(set, pq, true)
	if d.Reason == reference.RuleMatched && len(set) == 0 {
		if strings.ContainsAny(d.Rule.Pattern, "*$%") {
			set["MATCH-1"] = true
		} else {
			set["MATCH-9"] = true
		}
	}
	if len(set) == 0 {
		if d.Reason == reference.NoMatchingRule {
			set["MATCH-6"] = true
		} else {
			set["MATCH-1"] = true
		}
	}
	return sortedKeys(set)
}

// parseFor parses the input's body under its profile's options.
func parseFor(in Input) *reference.Robots {
	opts, _ := reference.OptionsFor(in.Profile)
	return reference.Parse(in.Robots, opts)
}

// tagLines tags the syntax of the file and its rules.
func tagLines(set map[string]bool, in Input, r *reference.Robots, opts reference.Options) {
	lines := r.Lines()
	raw := splitLines(string(in.Robots))
	other := reference.Google()
	if opts.GoogleKeys {
		other = reference.RFC()
	}
	otherKinds := make(map[int]reference.LineKind)
	for _, l := range reference.Parse(in.Robots, other).Lines() {
		otherKinds[l.Number] = l.Kind
	}

	type rl struct {
		allow   bool
		pattern string
		group   int
	}
	var groupNames []map[string]bool // names (lower case, "*") of each group
	var rules []rl
	groups := 0
	lastWasRule := false
	groupHasRules := false
	sawUA := false
	pendingBlank := false
	prevSignificant := reference.Blank
	agentGroups := 0
	countedThisGroup := false
	for _, l := range lines {
		ok := l.Kind == reference.UserAgent || l.Kind == reference.Allow || l.Kind == reference.Disallow
		ko, seen := otherKinds[l.Number]
		if seen && ko != l.Kind && (ko == reference.UserAgent || ko == reference.Allow || ko == reference.Disallow ||
			l.Kind == reference.UserAgent || l.Kind == reference.Allow || l.Kind == reference.Disallow) {
			set["OTH-2"] = true
			set["G-TYPO"] = true
		}
		if ok {
			if k := l.Key; k != "User-agent" && k != "user-agent" && k != "Allow" && k != "allow" && k != "Disallow" && k != "disallow" {
				set["SYN-1"] = true
			}
			if n := l.Number - 1; n < len(raw) {
				text, _ := cutEOL(raw[n])
				if strings.HasPrefix(text, " ") || strings.HasPrefix(text, "\t") {
					set["SYN-2"] = true
				}
				if c := strings.IndexByte(text, ':'); c > 0 && (text[c-1] == ' ' || text[c-1] == '\t') {
					set["SYN-2"] = true
				}
			}
			if pendingBlank && prevSignificant != reference.Blank && !(prevSignificant != reference.UserAgent && l.Kind == reference.UserAgent) {
				set["SYN-5"] = true
			}
			pendingBlank = false
			prevSignificant = l.Kind
		}
		switch l.Kind {
		case reference.Blank, reference.Comment:
			pendingBlank = true
		case reference.Invalid:
			set["SYN-9"] = true
		case reference.Other:
			set["OTH-3"] = true
		case reference.UserAgent:
			if !sawUA || lastWasRule {
				groups++
				groupNames = append(groupNames, make(map[string]bool))
				groupHasRules = false
				countedThisGroup = false
			}
			sawUA = true
			lastWasRule = false
			v := l.Value
			name := strings.ToLower(agentName(v, opts))
			if v == "*" {
				name = "*"
			}
			groupNames[len(groupNames)-1][name] = true
			if v != "*" && !reference.IsProductToken(v) {
				set["UA-7"] = true
				set["G-UA"] = true
			}
			if strings.EqualFold(v, in.Agent) && v != in.Agent {
				set["UA-2"] = true
			}
			if name := agentName(v, opts); strings.EqualFold(name, in.Agent) && !countedThisGroup {
				agentGroups++
				countedThisGroup = true
			}
		case reference.Allow, reference.Disallow:
			if !sawUA {
				set["SYN-8"] = true
			}
			lastWasRule = true
			groupHasRules = true
			rules = append(rules, rl{l.Kind == reference.Allow, l.Value, groups - 1})
		}
	}
	if groups > 1 {
		set["SYN-6"] = true
	}
	if sawUA && !groupHasRules {
		set["SYN-7"] = true
	}
	if agentGroups > 1 {
		set["UA-3"] = true
	}

	pq := reference.PathQuery(in.URL)
	noQuery, _, hasQuery := strings.Cut(pq, "?")
	type match struct {
		allow  bool
		length int
		group  int
	}
	// together reports whether two groups' rules can be compared: the same
	// group, or groups that share a name (merged, UA-3).
	together := func(a, b int) bool {
		if a == b {
			return true
		}
		if a < 0 || b < 0 {
			return false
		}
		for n := range groupNames[a] {
			if groupNames[b][n] {
				return true
			}
		}
		return false
	}
	var matched []match
	for _, ru := range rules {
		p := ru.pattern
		switch {
		case p == "":
			set["PAT-2"] = true
		case p[0] != '/' && p[0] != '*':
			set["PAT-1"] = true
		}
		if strings.Contains(p, "*") {
			set["SPC-1"] = true
		}
		if body, ok := strings.CutSuffix(p, "$"); ok {
			set["SPC-2"] = true
			if strings.Contains(body, "$") {
				set["SPC-3"] = true
			}
		} else if strings.Contains(p, "$") {
			set["SPC-3"] = true
		}
		if ru.allow && strings.Contains(p, "/index.htm") {
			set["G-INDEX"] = true
		}
		tagEncoding(set, p, false)
		ok, length := ruleMatches(opts, in.Agent, ru.allow, p, in.URL)
		if ok {
			matched = append(matched, match{ru.allow, length, ru.group})
		} else {
			if lok, _ := ruleMatches(opts, in.Agent, ru.allow, strings.ToLower(p), ProbeHost+strings.ToLower(pq)); lok {
				set["MATCH-2"] = true
			}
			lit := p
			if i := strings.IndexAny(lit, "*$"); i >= 0 {
				lit = lit[:i]
			}
			if len(lit) > 1 && strings.Contains(pq[1:], lit) {
				set["MATCH-3"] = true
			}
		}
		if hasQuery {
			if qok, _ := ruleMatches(opts, in.Agent, ru.allow, p, ProbeHost+noQuery); qok != ok {
				set["MATCH-11"] = true
			}
		}
	}
	for i, a := range matched {
		for _, b := range matched[i+1:] {
			if a.allow != b.allow && together(a.group, b.group) {
				if a.length == b.length {
					set["MATCH-5"] = true
				} else {
					set["MATCH-4"] = true
				}
			}
		}
	}
}

// ruleMatches reports whether a single rule matches url for agent under
// opts, and the rule's length, by asking the reference about a file that
// holds only that rule.
func ruleMatches(opts reference.Options, agent string, allow bool, pattern, url string) (bool, int) {
	key := "Disallow"
	if allow {
		key = "Allow"
	}
	r := reference.ParseString("User-agent: "+agent+"\n"+key+": "+pattern+"\n", opts)
	d, err := r.Decide(agent, url)
	if err != nil || d.Reason != reference.RuleMatched {
		return false, 0
	}
	return true, d.Rule.Length
}

// agentName is the name a user-agent value gives its group under opts.
func agentName(v string, opts reference.Options) string {
	if opts.AgentMatch == reference.AgentLeadingToken {
		i := 0
		for i < len(v) && reference.IsProductToken(string(v[i])) {
			i++
		}
		return v[:i]
	}
	return v
}

// tagEncoding tags the percent-encoding features of a rule path or a URI's
// path and query. Lower-case hex digits count for PCT-3 only where they
// matter to a parser that compares escapes as written: in a rule, or in a
// URI escape of a reserved octet (an unreserved one is decoded, PCT-2).
func tagEncoding(set map[string]bool, s string, uri bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80 || c <= 0x20 || c == 0x7F || strings.IndexByte("\"<>\\^`{|}", c) >= 0:
			set["PCT-1"] = true
		case uri && (c == '*' || c == '$'):
			set["SPC-4"] = true
		case c == '%' && i+2 < len(s) && isHexByte(s[i+1]) && isHexByte(s[i+2]):
			v := hexVal(s[i+1])<<4 | hexVal(s[i+2])
			switch {
			case !uri && (v == '*' || v == '$'):
				set["SPC-4"] = true
			default:
				set["PCT-2"] = true
			}
			unreserved := 'a' <= v && v <= 'z' || 'A' <= v && v <= 'Z' || '0' <= v && v <= '9' || v == '-' || v == '.' || v == '_' || v == '~'
			if (isLowerHex(s[i+1]) || isLowerHex(s[i+2])) && (!uri || !unreserved) {
				set["PCT-3"] = true
			}
			i += 2
		case c == '%':
			set["PCT-1"] = true // a "%" that starts no escape stands for "%25"
		}
	}
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func sortedKeys(set map[string]bool) []string {
	s := make([]string, 0, len(set))
	for k := range set {
		s = append(s, k)
	}
	slices.Sort(s)
	return s
}

// primaryOrder ranks requirement IDs from the most telling about a
// disagreement to the least: the context a finding is set in (which group
// applied, how many groups there are) comes last.
const primaryOrder = " SYN-9 MATCH-7 MATCH-5 PCT-3 PCT-2 PCT-1 SPC-4 SPC-3 SPC-2 SPC-1 MATCH-4 MATCH-11 MATCH-2 MATCH-3" +
	" PAT-1 G-INDEX OTH-2 G-TYPO UA-7 G-UA UA-3 UA-2 UA-1 SYN-10 SYN-3 SYN-8 SYN-2 SYN-1 SYN-4 SYN-5 PAT-2 LIM-1" +
	" OTH-3 SYN-7 SYN-6 UA-6 UA-5 UA-4 MATCH-6 MATCH-9 MATCH-1 "

// Primary returns the most telling of a finding's requirement IDs, by a
// fixed ranking that puts what decided over where it happened: SYN-9
// (a rejected file), MATCH-7, a tie (MATCH-5), the percent-encoding and special-character
// requirements, longest match, then syntax, then group selection. IDs the
// ranking does not know come last, in sorted order.
func Primary(req []string) string {
	best, rank := "", len(primaryOrder)+1
	for _, id := range req {
		r := strings.Index(primaryOrder, " "+id+" ")
		if r < 0 {
			r = len(primaryOrder)
		}
		if r < rank || r == rank && id < best {
			best, rank = id, r
		}
	}
	return best
}
