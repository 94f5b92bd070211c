package reference

import (
	"fmt"
	"slices"
	"strings"
)

// Misreading is a named deviation from RFC 9309 that real implementations
// make, as an executable variant of the reference: Apply sets the options
// that make the reference read robots.txt that way. Its ID is a public
// name (docs/FORMAT.md lists them) and never changes meaning.
//
// Misreadings of Kind "matching", "groups" and "syntax" change decisions
// on a robots.txt body; "access" ones change what a fetch outcome (a
// status, a network failure, a redirect) means, so they show in parsers
// that fetch and in crawlers. Misreadings of Kind "crawl" change no
// decision of the reference: they set options that only a crawler
// simulation reads (which robots.txt it uses for a URL, when and how it
// fetches it), so they apply to crawlers only.
type Misreading struct {
	// ID names the misreading: lower case words joined by "-".
	ID string `json:"id"`
	// Title says in one line, in plain words, what the misreading does.
	Title string `json:"title"`
	// RFC is the section of RFC 9309 the misreading breaks, such as
	// "2.2.2".
	RFC string `json:"rfc"`
	// Req lists the IDs of the requirements (corpus/requirements.yaml)
	// that the misreading breaks.
	Req []string `json:"req"`
	// Kind is "matching", "groups", "syntax", "access" or "crawl".
	Kind string `json:"kind"`
	// Apply sets the options that implement the misreading. It is not
	// part of the JSON form, which is that of docs/FORMAT.md §8.
	Apply func(*Options) `json:"-"`
}

// Misreading kinds.
const (
	KindMatching = "matching"
	KindGroups   = "groups"
	KindSyntax   = "syntax"
	KindAccess   = "access"
	KindCrawl    = "crawl"
)

// ForParsers reports whether the misreading can change a parser's
// verdict: every kind but "crawl".
func (m Misreading) ForParsers() bool { return m.Kind != KindCrawl }

// SmallParseLimit is the parsing limit of the misreading
// "small-size-limit": 64 KiB, below the 500 KiB RFC 9309 §2.5 requires.
const SmallParseLimit = 64 * 1024

// Misreadings returns the catalogue of misreadings, grouped by kind in a
// stable order. Each call returns a new slice; the caller may change it.
func Misreadings() []Misreading {
	var out []Misreading
	for _, list := range catalogue {
		for _, m := range list {
			m.Req = append([]string(nil), m.Req...)
			out = append(out, m)
		}
	}
	return out
}

// LookupMisreading returns the misreading called id.
func LookupMisreading(id string) (Misreading, bool) {
	for _, list := range catalogue {
		for _, m := range list {
			if m.ID == id {
				m.Req = append([]string(nil), m.Req...)
				return m, true
			}
		}
	}
	return Misreading{}, false
}

// MisreadingIDs returns the IDs of the catalogue, in its order.
func MisreadingIDs() []string {
	ms := Misreadings()
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

// WithMisreadings returns base with the misreadings ids applied in order,
// named base.Name followed by "+id" for each. An id the catalogue does not
// hold gives an error that names it and lists the valid ones; so do two
// ids that Conflict.
func WithMisreadings(base Options, ids ...string) (Options, error) {
	o := base
	for i, id := range ids {
		m, ok := LookupMisreading(id)
		if !ok {
			return base, fmt.Errorf("reference: unknown misreading %q (known: %s)", id, strings.Join(MisreadingIDs(), ", "))
		}
		for _, prev := range ids[:i] {
			if Conflict(prev, id) {
				return base, fmt.Errorf("reference: misreadings %s and %s cannot be combined: one decides what the other does, or makes it moot", prev, id)
			}
		}
		m.Apply(&o)
		o.Name += "+" + id
	}
	return o, nil
}

// Conflict reports whether two misreadings cannot be combined: they are
// the same, they set the same choice two ways (substring-agent and
// prefix-agent), or one makes the other moot (with first-match, which rule
// is longer never matters, so length-without-wildcards changes nothing).
// A combination without conflicts reads files otherwise than each of its
// parts alone.
func Conflict(a, b string) bool {
	if a == b {
		return true
	}
	for _, set := range conflicts {
		if slices.Contains(set, a) && slices.Contains(set, b) {
			return true
		}
	}
	return false
}

// conflicts holds sets of misreadings of which no two can be combined.
var conflicts = [][]string{
	{"substring-agent", "prefix-agent", "full-ua-string", "unicode-case-fold", "star-group-for-all", "longest-agent-within", "agent-within"},
	{"key-typos-accepted", "useragent-accepted"},
	{"agents-not-grouped", "records-split-agents", "crawl-delay-splits-agents"},
	{"no-group-merge-first", "no-group-merge-last"},
	{"star-group-for-all", "star-merged-into-named", "empty-group-ignored"},
	{"first-match", "tie-disallow", "allow-ignored"},
	{"first-match", "length-without-wildcards", "allow-ignored"},
	{"tie-disallow", "allow-ignored"},
	{"bom-not-skipped", "unicode-spaces-trimmed"},
	{"no-wildcards", "wildcard-unanchored", "rules-unanchored"},
	{"no-percent-normalisation", "url-not-normalised", "decode-all-escapes"},
	{"no-size-limit", "small-size-limit"},
}

// catalogue holds the misreadings by kind, in the order Misreadings
// gives them. It is never changed: Misreadings and LookupMisreading copy.
var catalogue = [][]Misreading{matchingMisreadings, groupMisreadings, syntaxMisreadings, accessMisreadings, crawlMisreadings}

var matchingMisreadings = []Misreading{
	{"first-match", "The first matching rule in file order wins, not the longest", "2.2.2", []string{"MATCH-4", "EX-5.2"}, KindMatching,
		func(o *Options) { o.FirstMatch = true }},
	{"allow-ignored", "Allow lines are ignored: only Disallow rules count", "2.2.2", []string{"MATCH-1"}, KindMatching,
		func(o *Options) { o.IgnoreAllow = true }},
	{"tie-disallow", "Between an allow and a disallow rule of equal length, disallow wins", "2.2.2", []string{"MATCH-5"}, KindMatching,
		func(o *Options) { o.DisallowWinsTies = true }},
	{"length-without-wildcards", "A rule's length for longest match counts neither '*' nor a final '$'", "2.2.2", []string{"MATCH-10", "G-LEN"}, KindMatching,
		func(o *Options) { o.LengthWithoutWildcards = true }},
	{"no-wildcards", "'*' in a rule is a literal character, not a wildcard", "2.2.3", []string{"SPC-1"}, KindMatching,
		func(o *Options) { o.LiteralStar = true }},
	{"no-end-anchor", "A final '$' in a rule is a literal character, not the end of the URL", "2.2.3", []string{"SPC-2"}, KindMatching,
		func(o *Options) { o.LiteralDollar = true }},
	{"wildcard-unanchored", "A rule with '*' or '$' may match anywhere in the path, not only from its start", "2.2.2", []string{"MATCH-3"}, KindMatching,
		func(o *Options) { o.WildcardUnanchored = true }},
	{"rules-unanchored", "Every rule may match anywhere in the path, not only from its start", "2.2.2", []string{"MATCH-3"}, KindMatching,
		func(o *Options) { o.RulesUnanchored = true }},
	{"slash-added", "A rule path without a leading '/' is read as if it had one", "2.2.2", []string{"PAT-1"}, KindMatching,
		func(o *Options) { o.SlashlessPatterns = true }},
	{"case-insensitive-paths", "Paths are compared without regard to letter case", "2.2.2", []string{"MATCH-2"}, KindMatching,
		func(o *Options) { o.CaseInsensitivePaths = true }},
	{"no-percent-normalisation", "Percent escapes are compared as bytes: '%7E' is not '~', non-ASCII is not encoded", "2.2.2", []string{"PCT-1", "PCT-2", "PCT-3"}, KindMatching,
		func(o *Options) { o.RawPaths, o.NormalizeURI = true, false }},
	{"url-not-normalised", "The URL is compared as given: '%41' is not 'A'; only a rule's non-ASCII is encoded", "2.2.2", []string{"PCT-2"}, KindMatching,
		func(o *Options) { o.NormalizeURI, o.RawPaths = false, false }},
	{"decode-all-escapes", "Escapes of reserved characters are decoded too: '/a%2Fb' is '/a/b'", "2.2.2", []string{"PCT-2"}, KindMatching,
		func(o *Options) { o.DecodeAllEscapes, o.NormalizeURI, o.RawPaths = true, true, false }},
	{"query-ignored", "Rules are matched against the path alone, without the query", "2.2.2", []string{"MATCH-11"}, KindMatching,
		func(o *Options) { o.IgnoreQuery = true }},
	{"robots-txt-not-exempt", "/robots.txt itself can be disallowed", "2.2.2", []string{"MATCH-7"}, KindMatching,
		func(o *Options) { o.ImplicitRobotsTxt = false }},
}

var groupMisreadings = []Misreading{
	{"no-group-merge-first", "Of several groups naming the crawler, only the first counts", "2.2.1", []string{"UA-3"}, KindGroups,
		func(o *Options) { o.GroupChoice = FirstGroup }},
	{"no-group-merge-last", "Of several groups naming the crawler, only the last counts", "2.2.1", []string{"UA-3"}, KindGroups,
		func(o *Options) { o.GroupChoice = LastGroup }},
	{"star-merged-into-named", "The '*' group's rules also apply to a crawler that has a group of its own", "2.2.1", []string{"UA-6"}, KindGroups,
		func(o *Options) { o.StarMergedIntoNamed = true }},
	{"star-group-for-all", "Every crawler reads the '*' group, even one a group names", "2.2.1", []string{"UA-4", "UA-6"}, KindGroups,
		func(o *Options) { o.StarGroupForAll = true }},
	{"substring-agent", "A user-agent line names the crawler when either token contains the other", "2.2.1", []string{"UA-2"}, KindGroups,
		func(o *Options) { o.AgentCompare = AgentSubstring }},
	{"prefix-agent", "A user-agent line names every crawler whose token starts with it", "2.2.1", []string{"UA-2"}, KindGroups,
		func(o *Options) { o.AgentCompare = AgentPrefix }},
	{"agent-within", "A user-agent line names every crawler whose token contains it", "2.2.1", []string{"UA-2"}, KindGroups,
		func(o *Options) { o.AgentCompare = AgentWithin }},
	{"longest-agent-within", "A user-agent line names every crawler whose token contains it, and only the longest such line counts", "2.2.1", []string{"UA-2", "UA-3"}, KindGroups,
		func(o *Options) { o.AgentCompare = AgentLongestWithin }},
	{"unicode-case-fold", "User-agent names are compared with Unicode case folding: the Kelvin sign is 'k'", "2.2.1", []string{"UA-2"}, KindGroups,
		func(o *Options) { o.AgentCompare = AgentUnicodeFold }},
	{"empty-group-ignored", "A group without rules is ignored: its crawler falls back to the '*' group", "2.1", []string{"SYN-7", "UA-6"}, KindGroups,
		func(o *Options) { o.EmptyGroupIgnored = true }},
	{"full-ua-string", "The whole User-Agent header is compared with user-agent lines, not the product token", "2.2.1", []string{"UA-2", "UA-7"}, KindGroups,
		func(o *Options) { o.AgentCompare = AgentFullHeader }},
	{"blank-line-ends-group", "A blank line ends a group: the rules after it are ignored", "2.2", []string{"SYN-5"}, KindGroups,
		func(o *Options) { o.BlankLineEndsGroup = true }},
	{"agents-not-grouped", "Each user-agent line starts a group of its own: of consecutive ones only the last gets the rules", "2.1", []string{"SYN-6"}, KindGroups,
		func(o *Options) { o.AgentLinesApart = true }},
	{"records-split-agents", "A Sitemap, Crawl-delay or any other record between user-agent lines starts a new group", "2.2.4", []string{"OTH-3", "SYN-6"}, KindGroups,
		func(o *Options) { o.RecordsSplitAgents = true }},
	{"crawl-delay-splits-agents", "A Crawl-delay line between user-agent lines starts a new group; other records do not", "2.2.4", []string{"OTH-3", "SYN-6"}, KindGroups,
		func(o *Options) { o.CrawlDelaySplitsAgents = true }},
	{"orphan-rules-apply", "Rules before the first user-agent line apply to every crawler", "2.1", []string{"SYN-8"}, KindGroups,
		func(o *Options) { o.OrphanRulesApply = true }},
}

var syntaxMisreadings = []Misreading{
	{"bom-not-skipped", "A UTF-8 byte order mark spoils the first line", "2.2", []string{"SYN-10"}, KindSyntax,
		func(o *Options) { o.SkipBOM, o.SkipPartialBOM = false, false }},
	{"unicode-spaces-trimmed", "Any white space around names and values is trimmed, Unicode spaces included, not only space and tab", "2.2", []string{"SYN-2"}, KindSyntax,
		func(o *Options) { o.GoogleSpace, o.UnicodeSpace = true, true }},
	{"key-typos-accepted", "Misspelt keys are read as user-agent, allow or disallow: 'useragent', 'disalow', 'Disallowed'", "2.2.4", []string{"OTH-2", "G-TYPO"}, KindSyntax,
		func(o *Options) { o.GoogleKeys = true }},
	{"useragent-accepted", "'useragent', without the hyphen, is read as user-agent; no other misspelling is", "2.2.4", []string{"OTH-2"}, KindSyntax,
		func(o *Options) { o.UserAgentTypo = true }},
	{"missing-colon-accepted", "A line without a colon is read as a record when white space parts name and value: 'Disallow /x'", "2.2", []string{"SYN-9", "G-TYPO"}, KindSyntax,
		func(o *Options) { o.MissingColon = true }},
	{"cr-line-endings-ignored", "A CR alone does not end a line: only LF and CRLF do", "2.2", []string{"SYN-3"}, KindSyntax,
		func(o *Options) { o.LFOnly = true }},
	{"no-size-limit", "The whole file is parsed, however large", "2.5", []string{"LIM-2"}, KindSyntax,
		func(o *Options) { o.MaxBytes, o.MaxBodyBytes = 0, 0 }},
	{"small-size-limit", "Only the first 64 KiB are parsed, not 500 KiB", "2.5", []string{"LIM-1"}, KindSyntax,
		func(o *Options) { o.MaxBytes, o.MaxBodyBytes = SmallParseLimit, 0 }},
}

var accessMisreadings = []Misreading{
	{"5xx-allows", "A server error (5xx) for robots.txt is read as allow all", "2.3.1.4", []string{"ACC-7"}, KindAccess,
		func(o *Options) { o.ServerErrorAllows = true }},
	{"unreachable-allows", "A network failure (reset, timeout, cut body) is read as allow all", "2.3.1.4", []string{"ACC-7"}, KindAccess,
		func(o *Options) { o.UnreachableAllows = true }},
	{"4xx-disallows", "A client error (4xx) for robots.txt is read as disallow all", "2.3.1.3", []string{"ACC-6"}, KindAccess,
		func(o *Options) { o.ClientErrorDisallows = true }},
	{"redirects-not-followed", "A redirect for robots.txt is not followed: the file is unavailable, allow all", "2.3.1.2", []string{"ACC-3", "ACC-4"}, KindAccess,
		func(o *Options) { o.MaxRedirects = 0 }},
}

var crawlMisreadings = []Misreading{
	{"port-ignored", "One robots.txt per host: the port is ignored", "2.3", []string{"ACC-1"}, KindCrawl,
		func(o *Options) { o.PortIgnored = true }},
	{"scheme-ignored", "One robots.txt for http and https of a host: the scheme is ignored", "2.3", []string{"ACC-1"}, KindCrawl,
		func(o *Options) { o.SchemeIgnored = true }},
	{"robots-after-page", "robots.txt is fetched after the first page of an origin, not before", "2.3.1.1", []string{"ACC-10"}, KindCrawl,
		func(o *Options) { o.RobotsAfterPage = true }},
	{"robots-other-agent", "robots.txt is fetched with another User-Agent header than the pages", "2.2.1", []string{"ACC-2"}, KindCrawl,
		func(o *Options) { o.RobotsOtherAgent = true }},
}

// UserAgentHeader is the User-Agent header the reference takes a crawler
// with the product token to send, for the misreading "full-ua-string": the
// form RFC 9309 §2.2.1 gives as an example, "Mozilla/5.0 (compatible;
// ExampleBot/0.1; https://www.example.com/bot.html)", without the URL.
func UserAgentHeader(token string) string {
	return "Mozilla/5.0 (compatible; " + token + "/1.0)"
}
