package reference

import "time"

// AgentMatch says how much of a user-agent line's value is compared with the
// crawler's product token (requirement UA-7, an interpretation the RFC leaves
// open).
type AgentMatch int

const (
	// AgentWhole compares the whole value of the line, trimmed of white
	// space, with the product token. "User-agent: Googlebot/2.1" then names
	// no crawler whose token is "Googlebot". This is the RFC default: the
	// ABNF allows only a bare token (or "*") as the value.
	AgentWhole AgentMatch = iota
	// AgentLeadingToken compares the value's leading run of [a-zA-Z_-]
	// characters, as Google's parser does: "Googlebot/2.1" and
	// "Googlebot Images" both name "Googlebot".
	AgentLeadingToken
)

// AgentCompare says how the crawler's product token is compared with the
// token a user-agent line names (see AgentMatch). Every value but
// AgentEqual is a misreading (see Misreadings).
type AgentCompare int

const (
	// AgentEqual: the two are equal, ASCII case aside (UA-2): the RFC.
	AgentEqual AgentCompare = iota
	// AgentSubstring: either contains the other, ASCII case aside
	// ("User-agent: bot" names "Googlebot", and "User-agent: Googlebot-News"
	// names "Googlebot").
	AgentSubstring
	// AgentPrefix: the line's token starts the crawler's token, ASCII case
	// aside ("User-agent: Google" names "Googlebot").
	AgentPrefix
	// AgentFullHeader: the crawler compares its whole User-Agent header,
	// not its product token, with the line's value: a line names it only
	// when the value is that header, which the reference takes to be
	// UserAgentHeader(token).
	AgentFullHeader
	// AgentUnicodeFold: the two are equal under Unicode case folding
	// (strings.EqualFold): the Kelvin sign folds to "k", which the
	// ABNF's case-insensitivity, ASCII only, does not allow (UA-2).
	AgentUnicodeFold
	// AgentWithin: the line's token is within the crawler's token, ASCII
	// case aside ("User-agent: bot" names "Googlebot").
	AgentWithin
	// AgentLongestWithin: the line's token is within the crawler's token,
	// ASCII case aside, and of several such tokens only the longest
	// names it (the first in file order of equally long ones): with
	// "User-agent: bot" and "User-agent: foo", "foobot" reads the
	// "foo" group alone.
	AgentLongestWithin
)

// GroupChoice says which of several groups that name the same agent apply.
type GroupChoice int

const (
	// MergeGroups: all of them, merged into one (UA-3): the RFC.
	MergeGroups GroupChoice = iota
	// FirstGroup: only the first in file order.
	FirstGroup
	// LastGroup: only the last in file order.
	LastGroup
)

// OutagePolicy says what a Fetcher does once robots.txt has been unreachable
// for Options.OutageLimit or longer (requirement ACC-8, a MAY).
type OutagePolicy int

const (
	// OutageUnavailable treats the file as unavailable after a long outage:
	// every URL is allowed, cached copy or not.
	OutageUnavailable OutagePolicy = iota
	// OutageKeepCache keeps using the last good copy after a long outage,
	// and allows everything when there never was one (Google's documented
	// behaviour).
	OutageKeepCache
)

// Options holds every choice the RFC leaves to the implementer: each SHOULD,
// each MAY and each reading the text leaves open. The zero value is not
// meaningful; start from RFC or Google and change fields.
type Options struct {
	// Name identifies the option set in traces and reports.
	Name string

	// SkipBOM skips a UTF-8 byte order mark at the start of the body
	// (SYN-10). SkipPartialBOM also skips a leading prefix of one
	// (EF or EF BB), as Google's parser does.
	SkipBOM, SkipPartialBOM bool

	// MaxBytes is the parsing limit in bytes (LIM-1 requires at least
	// 500 KiB, LIM-2 recommends having one). Content past it is ignored,
	// and so is a line that the limit cuts in two. Zero means no limit.
	MaxBytes int
	// MaxLineBytes cuts each line to this many bytes before it is read,
	// as Google's parser does (2083*8-1). Zero means no cut (the RFC).
	MaxLineBytes int

	// GoogleKeys recognises record names as Google's parser does: by
	// prefix ("disallowed:" is a disallow line) and with its list of
	// frequent misspellings (OTH-2, G-TYPO).
	GoogleKeys bool
	// UserAgentTypo reads the record name "useragent" (any letter case,
	// no hyphen) as user-agent, and no other misspelling (OTH-2). It is
	// the one misspelling some parsers accept: GoogleKeys accepts it and
	// many more.
	UserAgentTypo bool
	// MissingColon accepts "Disallow /x", white space in place of the
	// colon, when the line has exactly two words (G-TYPO).
	MissingColon bool
	// GoogleSpace trims values of all ASCII white space (as Google's
	// parser does) rather than only the RFC's SP and HTAB.
	GoogleSpace bool

	// AgentMatch selects the reading of user-agent values (UA-7).
	AgentMatch AgentMatch
	// AnyAgent accepts any string as the crawler's agent, as Google's
	// parser does, rather than refusing one that is not a product token
	// with ErrInvalidToken (UA-1). The string is compared whole, without
	// regard to ASCII case, with the token each user-agent line names
	// (see AgentMatch): "Foo Bar" matches no "User-agent: Foo" line, and
	// the empty string matches a line whose value starts with no token
	// character ("User-agent: /x").
	AnyAgent bool
	// StarPrefix treats a user-agent value that starts with "*" and a
	// space ("* foo") as the "*" group, as Google's parser does.
	StarPrefix bool

	// NULEndsLine ends a line at its first NUL byte, and the URI's path
	// and query at theirs, as Google's parser does: it reads both as C
	// strings, so "Disallow: /a\x00b" is "Disallow: /a". The RFC reads NUL
	// as an octet like any other (default false).
	NULEndsLine bool

	// OrphanRulesApply makes allow and disallow lines that come before
	// the first user-agent line apply to every crawler. The RFC says they
	// SHOULD be ignored (SYN-8), which is the default (false).
	OrphanRulesApply bool

	// DisallowWinsTies lets a disallow rule win over an allow rule of the
	// same length. The RFC says allow SHOULD win (MATCH-5): default false.
	DisallowWinsTies bool
	// CaseInsensitivePaths compares paths without regard to ASCII case.
	// The RFC says matching SHOULD be case-sensitive (MATCH-2): default
	// false.
	CaseInsensitivePaths bool

	// NormalizeURI applies §2.2.2 percent-encoding normalisation to both
	// the URI and the rule paths (PCT-1, PCT-2, SPC-4): non-ASCII octets
	// and octets not allowed in a URI are encoded, encoded unreserved
	// octets are decoded, hex digits are upper-cased, and a literal "*" or
	// "$" in the URI compares equal to "%2A" / "%24" in a rule. Without it
	// only rule paths are touched (non-ASCII encoded, hex upper-cased) and
	// the URI is compared as given, as Google's parser does.
	NormalizeURI bool

	// SemicolonEndsHost ends the authority of a URI at a ";" as well as
	// at "/", "?" or "#", as Google's parser does when it looks for the
	// path. RFC 3986 §3.2 ends it at "/", "?" or "#" only: a ";" may stand
	// in the user information and in a host name.
	SemicolonEndsHost bool

	// SlashlessPatterns prefixes a "/" to a rule path that starts with
	// neither "/" nor "*" (PAT-1). The default compares such a pattern as
	// written, from the first octet of the path, so it never matches.
	SlashlessPatterns bool

	// ImplicitRobotsTxt allows "/robots.txt" whatever the rules say
	// (MATCH-7: RFC 9309 §2.2.2 states it, without a BCP 14 keyword).
	// Google's parser has no such rule.
	ImplicitRobotsTxt bool

	// IndexHTML makes "allow: /dir/index.html" (or index.htm...) also
	// allow "/dir/" (G-INDEX).
	IndexHTML bool

	// MaxRedirects is how many consecutive redirects a fetch follows
	// (ACC-3 asks for at least five). One more is treated as unavailable
	// (ACC-5).
	MaxRedirects int
	// MaxBodyBytes caps how much of a response body is read (LIM-2).
	// Zero means MaxBytes; both zero means no cap.
	MaxBodyBytes int
	// TooManyRequestsUnreachable treats status 429 as a server error
	// (disallow all) instead of as an ordinary 4xx (G-429).
	TooManyRequestsUnreachable bool

	// CacheTTL is how long a fetched file is used before it is fetched
	// again (CACHE-2: not more than 24 hours unless unreachable): a copy
	// exactly CacheTTL old is still used. Zero means no caching.
	CacheTTL time.Duration
	// OutageLimit is how long robots.txt may stay unreachable before
	// OutagePolicy applies (ACC-8; the RFC's example is 30 days). Zero
	// means never.
	OutageLimit time.Duration
	// OutagePolicy is what happens after OutageLimit.
	OutagePolicy OutagePolicy
	// OutageIgnoresCache makes an unreachable file disallow everything
	// until OutageLimit, even when a good copy is cached. §2.3.1.4 says a
	// crawler MUST assume complete disallow when the file is unreachable,
	// and offers "continue to use a cached copy" only after a long outage;
	// Google's crawler likewise stops on 5xx (G-5XX). Both option sets set
	// it. Without it the cached copy keeps applying during the outage,
	// which §2.4 permits ("unless the robots.txt file is unreachable").
	OutageIgnoresCache bool

	// UsageRules reads Content-Usage and Content-Signal lines as rules of
	// their group, as the aipref profile does (draft-ietf-aipref-attach-05
	// §3 adds them to the rule ABNF): like allow and disallow they end a
	// run of user-agent lines, so a user-agent line after one starts a new
	// group. RFC 9309 knows them only as other records (OTH-3), which
	// end nothing: default false. See AIPref and Robots.Usage.
	UsageRules bool

	Misread
}

// Misread holds the options that implement misreadings: deviations from
// RFC 9309 that real implementations make (see Misreadings, which names
// each, and WithMisreadings, which applies them). RFC and Google set none
// of them. The crawl options (Port, Scheme, RobotsAfterPage,
// RobotsOtherAgent) change no decision on a file: they tell a crawler
// simulation what to do wrong.
type Misread struct {
	// FirstMatch lets the first matching rule in file order decide, not
	// the longest (MATCH-4).
	FirstMatch bool
	// IgnoreAllow reads allow lines as records the protocol does not
	// define, as parsers of the 1994 draft do: only disallow rules count
	// (MATCH-1), and an allow line no longer ends a run of user-agent
	// lines.
	IgnoreAllow bool
	// LengthWithoutWildcards counts neither "*" nor a final "$" in a
	// rule's length for longest match (MATCH-10).
	LengthWithoutWildcards bool
	// LiteralStar reads "*" in a rule as the octet "*" (SPC-1).
	LiteralStar bool
	// LiteralDollar reads a final "$" in a rule as the octet "$" (SPC-2).
	LiteralDollar bool
	// WildcardUnanchored lets a rule that holds "*" or ends in "$" match
	// anywhere in the path, as a regular expression searched for rather
	// than matched at the start (MATCH-3).
	WildcardUnanchored bool
	// RawPaths compares rule paths and the URI as bytes: no
	// percent-encoding is added, removed or upper-cased (PCT-1, PCT-2).
	// It takes precedence over NormalizeURI.
	RawPaths bool
	// DecodeAllEscapes also decodes escapes of reserved characters, so
	// that "/a%2Fb" is "/a/b" (PCT-3). It applies with NormalizeURI.
	DecodeAllEscapes bool
	// IgnoreQuery matches rules against the URI's path alone, without its
	// query (MATCH-11).
	IgnoreQuery bool
	// RulesUnanchored lets every rule match anywhere in the path, as a
	// regular expression searched for (MATCH-3); WildcardUnanchored does
	// so only for rules with "*" or "$".
	RulesUnanchored bool
	// UnicodeSpace trims Unicode white space (no-break space, the
	// U+2000 spaces, U+3000…) around names and values as well, as
	// JavaScript's String.trim does (SYN-2). It applies with GoogleSpace.
	UnicodeSpace bool

	// GroupChoice says which of the groups that name an agent apply
	// (UA-3); it applies to the "*" groups too.
	GroupChoice GroupChoice
	// StarMergedIntoNamed adds the rules of the "*" groups to those of
	// the groups that name the agent (UA-4).
	StarMergedIntoNamed bool
	// StarGroupForAll makes every agent read the "*" groups, whatever
	// groups name it (UA-4).
	StarGroupForAll bool
	// EmptyGroupIgnored ignores a group without rules, so that its
	// crawler falls back to the "*" group (SYN-7, UA-6).
	EmptyGroupIgnored bool
	// AgentCompare says how the crawler's token is compared with a
	// user-agent line's (UA-2, UA-7).
	AgentCompare AgentCompare
	// BlankLineEndsGroup ends a group at a blank line, as the 1994 draft
	// did: rules after it, before the next user-agent line, are ignored
	// (SYN-5).
	BlankLineEndsGroup bool
	// AgentLinesApart makes every user-agent line start a group of its
	// own, so that of consecutive user-agent lines only the last gets the
	// rules after them; the others name groups without rules (SYN-6).
	AgentLinesApart bool
	// RecordsSplitAgents ends a run of user-agent lines at any other
	// record (Sitemap, Crawl-delay, an unknown name): a user-agent line
	// after it starts a new group, though the RFC keeps such records out
	// of groups (OTH-3).
	RecordsSplitAgents bool
	// CrawlDelaySplitsAgents ends a run of user-agent lines at a
	// Crawl-delay record only: a user-agent line after it starts a new
	// group (OTH-3). Other records leave the run alone.
	CrawlDelaySplitsAgents bool

	// LFOnly ends lines at LF only: a CR alone ends none, and a CR before
	// LF is dropped (SYN-3).
	LFOnly bool

	// ServerErrorAllows reads a 5xx response as unavailable, allow all,
	// rather than unreachable (ACC-7).
	ServerErrorAllows bool
	// UnreachableAllows reads a network failure (no response, reset,
	// timeout, cut body) as unavailable, allow all (ACC-7).
	UnreachableAllows bool
	// ClientErrorDisallows reads a 4xx response as unreachable, disallow
	// all, rather than unavailable (ACC-6).
	ClientErrorDisallows bool

	// PortIgnored: a crawler shares one robots.txt among all ports of a
	// host (ACC-1). Crawlers only.
	PortIgnored bool
	// SchemeIgnored: a crawler shares one robots.txt between http and
	// https of a host (ACC-1). Crawlers only.
	SchemeIgnored bool
	// RobotsAfterPage: a crawler fetches the first page of an origin
	// before its robots.txt. Crawlers only.
	RobotsAfterPage bool
	// RobotsOtherAgent: a crawler fetches robots.txt with another
	// User-Agent header than its pages. Crawlers only.
	RobotsOtherAgent bool
}

// ParseLimit is the parsing limit of both option sets, in bytes: 500
// kibibytes, the least RFC 9309 §2.5 allows a crawler (LIM-1).
const ParseLimit = 500 * 1024

// KiB500 is ParseLimit under its former name.
//
// Deprecated: use ParseLimit, which says what the number is.
const KiB500 = ParseLimit

// googleMaxLine is the longest line Google's parser reads, in bytes.
const googleMaxLine = 2083*8 - 1

// RFC returns the options that follow RFC 9309 and take the RFC's
// recommendation wherever it offers a choice.
func RFC() Options {
	return Options{
		Name:               "rfc9309",
		SkipBOM:            true,
		SkipPartialBOM:     true,
		MaxBytes:           ParseLimit,
		AgentMatch:         AgentWhole,
		NormalizeURI:       true,
		ImplicitRobotsTxt:  true,
		MaxRedirects:       5,
		CacheTTL:           24 * time.Hour,
		OutageLimit:        30 * 24 * time.Hour,
		OutagePolicy:       OutageUnavailable,
		OutageIgnoresCache: true,
	}
}

// Google returns the options that follow the documented behaviour of
// Google's crawler and its open-source parser (the G-* requirements):
// the user-agent value cut to its leading [a-zA-Z_-] run, misspelt record
// names and a missing colon accepted, "index.html" allowing its directory,
// 429 treated as a server error, lines cut at 16,663 bytes, content past
// 500 KiB ignored, the URI compared as given, and a 5xx outage disallowing
// everything for 30 days before the last good copy is used again.
func Google() Options {
	return Options{
		Name:                       "google",
		SkipBOM:                    true,
		SkipPartialBOM:             true,
		MaxBytes:                   ParseLimit,
		MaxLineBytes:               googleMaxLine,
		GoogleKeys:                 true,
		MissingColon:               true,
		GoogleSpace:                true,
		AgentMatch:                 AgentLeadingToken,
		StarPrefix:                 true,
		AnyAgent:                   true,
		NULEndsLine:                true,
		IndexHTML:                  true,
		SemicolonEndsHost:          true,
		MaxRedirects:               5,
		TooManyRequestsUnreachable: true,
		CacheTTL:                   24 * time.Hour,
		OutageLimit:                30 * 24 * time.Hour,
		OutagePolicy:               OutageKeepCache,
		OutageIgnoresCache:         true,
	}
}

// bodyCap is the number of body bytes a fetch keeps.
func (o *Options) bodyCap() int {
	if o.MaxBodyBytes > 0 {
		return o.MaxBodyBytes
	}
	return o.MaxBytes
}

// OptionsFor returns the option set of a case profile: Google for
// "google", AIPref for "aipref", RFC for "rfc9309". ok is false for any other name.
func OptionsFor(profile string) (opts Options, ok bool) {
	switch profile {
	case "rfc9309":
		return RFC(), true
	case "google":
		return Google(), true
	case "aipref":
		return AIPref(), true
	}
	return RFC(), false
}
