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
// (MATCH-7). To match many rules against one URL, use a RuleMatcher.
func MatchRule(opts Options, allow bool, pattern, url string) (length int, ok bool) {
	var buf [512]byte
	return matchAlone(&opts, allow, pattern, opts.appendPath(buf[:0], url))
}

// RuleMatcher matches single rules against one URL as MatchRule does,
// normalising the URL once.
type RuleMatcher struct {
	opts Options
	path []byte
}

// NewRuleMatcher returns a matcher of url under opts.
func NewRuleMatcher(opts Options, url string) *RuleMatcher {
	return &RuleMatcher{opts: opts, path: opts.appendPath(nil, url)}
}

// Match is MatchRule(opts, allow, pattern, url) for the matcher's options
// and URL.
func (m *RuleMatcher) Match(allow bool, pattern string) (length int, ok bool) {
	return matchAlone(&m.opts, allow, pattern, m.path)
}

// matchAlone is MatchRule of a normalised path.
func matchAlone(o *Options, allow bool, pattern string, path []byte) (int, bool) {
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
