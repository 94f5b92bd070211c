package reference

// MatchRule reports whether one allow (or disallow) rule whose path is
// pattern, alone in the group that applies, decides url under opts, and
// the rule's length for longest match: what
//
//	ParseString("User-agent: a\nAllow: "+pattern+"\n", opts).Decide("a", url)
//
// reports as Reason RuleMatched and Rule.Length, without parsing a file,
// for the options of a profile (OptionsFor): misreadings that change
// which lines are rules or which group applies are not modelled.
// pattern is a rule's path as a parsed file holds it (RuleRef.Pattern):
// trimmed, without comment, line end or NUL. With Options.IndexHTML an
// allow of ".../index.htm..." also matches its directory (G-INDEX);
// "/robots.txt" matches nothing when Options.ImplicitRobotsTxt allows it
// (MATCH-7).
func MatchRule(opts Options, allow bool, pattern, url string) (length int, ok bool) {
	o := &opts
	var buf [512]byte
	path := o.appendPath(buf[:0], url)
	if o.ImplicitRobotsTxt && isRobotsTxtPath(path) {
		return 0, false
	}
	var b best
	var scratch [scratchLen]byte
	b.consider(o, candidate{raw: pattern, line: 2, allow: allow}, path, scratch[:])
	if !b.found {
		return 0, false
	}
	return int(b.length), true
}
