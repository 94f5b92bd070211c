package fuzz

import (
	"bytes"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
	"github.com/temoto/robotstxt"
)

// This file lists the known classes of disagreement between the reference
// and the peers of FuzzDifferential. Each class is a predicate over the
// input, as narrow as the peer's behaviour allows, with a doc comment that
// names the requirement (corpus/requirements.yaml) and the peer's behaviour behind
// it. TestKnownClasses holds a witness for each: an input on which the
// peer disagrees and the predicate fires.

// grobotClasses are the known disagreements of github.com/jimsmart/grobotstxt
// v1.0.3 with the reference under reference.Google().
var grobotClasses = []knownClass{
	{"grobotstxt/url-parse-failure", grobotURLParseFailure},
	{"grobotstxt/url-reencoding", grobotURLReencoding},
	{"grobotstxt/path-of-relative-uri", grobotRelativeURIPath},
	{"grobotstxt/agent-token-chars", grobotAgentTokenChars},
	{"grobotstxt/star-space-byte", grobotStarSpaceByte},
	{"grobotstxt/extra-typo", grobotExtraTypo},
	{"grobotstxt/lowercase-hex", grobotLowercaseHex},
	{"grobotstxt/unicode-space", grobotUnicodeSpace},
	{"grobotstxt/no-parse-limit", grobotNoParseLimit},
	{"grobotstxt/nul-is-an-octet", grobotNULOctet},
}

// temotoClasses are the known disagreements of github.com/temoto/robotstxt
// v1.1.2 with the reference under reference.RFC().
var temotoClasses = []knownClass{
	{"temoto/reject-rule-before-user-agent", temotoRejectOrphanRule},
	{"temoto/reject-crawl-delay", temotoRejectCrawlDelay},
	{"temoto/no-implicit-robots-txt", temotoRobotsTxt},
	{"temoto/partial-bom", temotoPartialBOM},
	{"temoto/invalid-utf8", temotoInvalidUTF8},
	{"temoto/word-pairs", temotoWordPairs},
	{"temoto/record-name", temotoRecordName},
	{"temoto/record-value", temotoRecordValue},
	{"temoto/agent-prefix-match", temotoAgentPrefix},
	{"temoto/unicode-case-folding", temotoUnicodeFolding},
	{"temoto/rule-less-group", temotoRulelessGroup},
	{"temoto/crawl-delay-ends-group", temotoCrawlDelayEndsGroup},
	{"temoto/no-parse-limit", temotoNoParseLimit},
	{"temoto/slash-prepended", temotoSlashPrefix},
	{"temoto/trailing-star-trimmed", temotoTrailingStar},
	{"temoto/dollar-anywhere", temotoDollarAnywhere},
	{"temoto/unanchored-wildcard", temotoUnanchoredWildcard},
	{"temoto/no-percent-normalisation", temotoPercentEncoding},
	{"temoto/longest-match-and-ties", temotoConflict},
}

// ---- grobotstxt ----

// grobotURLParseFailure: grobotstxt's AgentAllowed returns false (disallow)
// for any URL that net/url.Parse refuses, such as one with a bad escape
// ("/%zz") or a control octet; the reference reads the path of any string
// (MATCH-1, MATCH-11).
//
// Corpus cases: google/url-stray-percent.
func grobotURLParseFailure(d *divergence) bool {
	_, err := url.Parse(d.url)
	return err != nil && d.got == result.Disallow
}

// grobotURLReencoding: grobotstxt matches the URL as net/url re-writes it
// (u.String()), which percent-encodes raw spaces, non-ASCII octets and
// other octets; Google's parser, and the reference's Google options,
// compare the URI as given (PCT-1, G-*). The predicate holds when the
// reference, given the re-written URL, agrees with grobotstxt.
//
// Corpus cases: google/url-compared-as-given, encoding/non-ascii-rule-raw.
func grobotURLReencoding(d *divergence) bool {
	u, err := url.Parse(d.url)
	if err != nil {
		return false
	}
	s := u.String()
	return s != d.url && d.refDecide(d.body, d.opts, s) == d.got
}

// grobotRelativeURIPath: for a URI without a scheme, Google's parser (and
// grobotstxt, which ports it) takes everything before the first "/", "?"
// or ";" for an authority: "x" has the path "/", "a/b" the path "/b" and
// "h?q" the path "/?q". reference.PathQuery reads such a URI as a relative
// path ("/x", "/a/b", "/h?q") under both option sets (MATCH-11). Corpus
// checks resolve URLs against the case's host, so no case can show this;
// it concerns callers of the library with relative URIs. The predicate
// holds when the reference, given grobotstxt's path, agrees with it.
//
// Corpus cases: none possible; fuzz finding testdata/fuzz/FuzzDifferential/7a9ea43b114fa986.
func grobotRelativeURIPath(d *divergence) bool {
	u, err := url.Parse(d.url)
	if err != nil {
		return false
	}
	p := googlePathQuery(u.String())
	return p != reference.PathQuery(d.url) && d.refDecide(d.body, d.opts, "http://example.com"+p) == d.got
}

// googlePathQuery returns the path, parameters and query of uri as Google's
// parser finds them: after a leading "//" or a "scheme://" (when no "/",
// "?" or ";" comes before it), the path starts at the first "/", "?" or
// ";" and ends at "#"; with no such octet it is "/".
func googlePathQuery(uri string) string {
	start := 0
	if strings.HasPrefix(uri, "//") {
		start = 2
	}
	after := func(set string, from int) int {
		if i := strings.IndexAny(uri[from:], set); i >= 0 {
			return from + i
		}
		return -1
	}
	from := start
	if i := strings.Index(uri[start:], "://"); i >= 0 {
		if early := after("/?;", start); early < 0 || early > start+i {
			from = start + i + 3
		}
	}
	pathStart := after("/?;", from)
	if pathStart < 0 {
		return "/"
	}
	end := len(uri)
	if hash := strings.IndexByte(uri[start:], '#'); hash >= 0 {
		if start+hash < pathStart {
			return "/"
		}
		end = start + hash
	}
	if uri[pathStart] != '/' {
		return "/" + uri[pathStart:end]
	}
	return uri[pathStart:end]
}

// grobotAgentTokenChars: grobotstxt cuts a user-agent value at the first
// octet that is not one of its RFC 7231 token characters, so digits and
// "#$%'*+.^`|~" stay in the name ("FooBot.1" does not name FooBot);
// Google's parser and the reference cut at the first octet outside
// [a-zA-Z_-] (UA-7, G-UA).
//
// Corpus cases: google/ua-digits-end-the-token.
func grobotAgentTokenChars(d *divergence) bool {
	for _, l := range d.refLines() {
		if l.Kind != reference.UserAgent {
			continue
		}
		lead := leadingRun(l.Value, isTokenOctet)
		if strings.EqualFold(lead, d.agent) && leadingRun(l.Value, isGrobotAgentOctet) != lead {
			return true
		}
	}
	return false
}

// grobotStarSpaceByte: grobotstxt takes a user-agent value of "*" followed
// by a white-space character as the "*" group, testing the octet after
// "*" with unicode.IsSpace(rune(octet)), so the single octets 0x85 and 0xA0
// count as space; Google's parser and the reference test ASCII white space
// (UA-4, G-UA).
//
// Corpus cases: google/ua-star-then-nbsp.
func grobotStarSpaceByte(d *divergence) bool {
	for _, l := range d.refLines() {
		if l.Kind == reference.UserAgent && len(l.Value) >= 2 && l.Value[0] == '*' && (l.Value[1] == 0x85 || l.Value[1] == 0xA0) {
			return true
		}
	}
	return false
}

// grobotExtraTypo: grobotstxt accepts "diaslow" as a misspelling of
// "disallow"; Google's parser, whose list of accepted misspellings the
// reference's Google options follow, does not (OTH-2, G-TYPO).
//
// Corpus cases: google/typo-outside-the-list.
func grobotExtraTypo(d *divergence) bool {
	for _, l := range d.refLines() {
		if l.Kind == reference.Other && len(l.Key) >= len("diaslow") && strings.EqualFold(l.Key[:len("diaslow")], "diaslow") {
			return true
		}
	}
	return false
}

// grobotLowercaseHex: to upper-case the hex digits of an escape in a rule,
// grobotstxt clears bit 0x20 of both digits, which also turns a decimal
// digit into a control octet ("%2f" becomes "%\x12F"), so a rule holding
// any lower-case escape matches differently (PCT-3).
//
// Corpus cases: google/url-hex-case-in-rule, encoding/hex-case-rule-lower.
func grobotLowercaseHex(d *divergence) bool {
	for _, l := range d.refLines() {
		if l.Kind != reference.Allow && l.Kind != reference.Disallow {
			continue
		}
		v := l.Value
		for i := 0; i+2 < len(v); i++ {
			if v[i] == '%' && isHexOctet(v[i+1]) && isHexOctet(v[i+2]) &&
				('a' <= v[i+1] && v[i+1] <= 'f' || 'a' <= v[i+2] && v[i+2] <= 'f') {
				return true
			}
		}
	}
	return false
}

// grobotUnicodeSpace: grobotstxt trims lines, record names and values with
// strings.TrimSpace, which also removes non-ASCII white space (U+0085,
// U+00A0, U+2000..., U+3000); Google's parser, and the reference's Google
// options, trim ASCII white space only (SYN-2).
//
// Corpus cases: syntax/unicode-spaces-are-not-ws.
func grobotUnicodeSpace(d *divergence) bool {
	for _, line := range reference.SplitLines(string(d.body)) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		parts := []string{line}
		if i := strings.IndexByte(line, ':'); i >= 0 {
			parts = append(parts, line[:i], line[i+1:])
		}
		for _, p := range parts {
			if strings.TrimSpace(p) != strings.Trim(p, " \t\n\v\f\r") {
				return true
			}
		}
	}
	return false
}

// grobotNoParseLimit: grobotstxt reads the whole body; the reference, as
// Google does, ignores content past 500 KiB (LIM-1, LIM-2, G-SIZE). The
// predicate holds when the reference without a limit agrees.
//
// Corpus cases: google/size-rule-past-500kib-ignored.
func grobotNoParseLimit(d *divergence) bool {
	if len(d.body) <= reference.KiB500 {
		return false
	}
	o := d.opts
	o.MaxBytes = 0
	return d.refDecide(d.body, o, d.url) == d.got
}

// grobotNULOctet: grobotstxt reads a NUL byte as an octet like any other;
// Google's parser reads each line, and the URL's path, as a C string, so a
// NUL ends them, as the reference's Google options do (NULEndsLine). The
// predicate holds when the reference, reading NUL as an octet, agrees,
// given the URL as is or as grobotstxt reads it (url-reencoding,
// path-of-relative-uri): a NUL and a re-encoded URL can show together.
//
// Corpus cases: google/nul-ends-a-rule, google/nul-ends-a-user-agent-value;
// fuzz finding FuzzDifferential/feb3664622b4f62c (NUL, non-ASCII path,
// relative URI).
func grobotNULOctet(d *divergence) bool {
	if !strings.Contains(string(d.body), "\x00") && !strings.Contains(d.url, "\x00") {
		return false
	}
	o := d.opts
	o.NULEndsLine = false
	if d.refDecide(d.body, o, d.url) == d.got {
		return true
	}
	u, err := url.Parse(d.url)
	return err == nil && d.refDecide(d.body, o, "http://example.com"+googlePathQuery(u.String())) == d.got
}

// ---- temoto/robotstxt ----

// temotoParseErrors returns the errors temoto's parser gave when it
// refused the file. The adapter answers only "reject"; why is asked of
// the library itself, as a reader of its documentation would.
func temotoParseErrors(d *divergence) []error {
	if d.got != result.Reject {
		return nil
	}
	var pe *robotstxt.ParseError
	if _, err := robotstxt.FromBytes(d.body); !errors.As(err, &pe) {
		return nil
	}
	return pe.Errs
}

// temotoRejectOrphanRule: temoto refuses the whole file when an allow or
// disallow line comes before the first user-agent line; the RFC ignores
// such a line and keeps the others (SYN-8, SYN-9).
//
// Corpus cases: syntax/rules-before-first-agent.
func temotoRejectOrphanRule(d *divergence) bool {
	for _, err := range temotoParseErrors(d) {
		if msg := err.Error(); strings.Contains(msg, "llow before User-agent") {
			return true
		}
	}
	return false
}

// temotoRejectCrawlDelay: temoto refuses the whole file for a Crawl-delay
// line that is not a non-negative number or that comes before the first
// user-agent line; the RFC ignores records it does not define and keeps
// the rules (SYN-9, OTH-3).
//
// Corpus cases: google/crawl-delay-malformed-value.
func temotoRejectCrawlDelay(d *divergence) bool {
	for _, err := range temotoParseErrors(d) {
		var ne *strconv.NumError
		if errors.As(err, &ne) || strings.Contains(err.Error(), "Crawl-delay") {
			return true
		}
	}
	return false
}

// temotoRobotsTxt: temoto applies the rules to "/robots.txt", which the
// RFC always allows (MATCH-7).
//
// Corpus cases: matching/robots-txt-implicitly-allowed.
func temotoRobotsTxt(d *divergence) bool {
	dec, err := reference.Parse(d.body, d.opts).Decide(d.agent, d.url)
	return err == nil && dec.Reason == reference.RobotsTxt
}

// temotoPartialBOM: temoto skips a whole UTF-8 byte order mark only; the
// reference also skips a leading part of one (EF, or EF BB), as Google's
// parser does, so the first line still counts (SYN-10).
//
// Corpus cases: syntax/bom-partial-ef.
func temotoPartialBOM(d *divergence) bool {
	b := d.body
	return len(b) > 0 && b[0] == 0xEF && !(len(b) >= 3 && b[1] == 0xBB && b[2] == 0xBF)
}

// temotoInvalidUTF8: temoto decodes the file as UTF-8 and replaces each
// invalid octet of a record with U+FFFD, which changes user-agent names
// and rule paths; the RFC compares octets (SYN-9, PCT-1).
//
// Corpus cases: encoding/invalid-utf8-in-rule.
func temotoInvalidUTF8(d *divergence) bool {
	for _, l := range d.temotoLines() {
		if l.kind != "" && l.kind != "other" && !utf8.ValidString(l.text) {
			return true
		}
	}
	return false
}

// temotoWordPairs: temoto reads a file as white-space separated words
// taken two at a time, key then value, so a line of more than two words
// is read as several records ("Disallow: /a b" disallows "/a"; "x y
// Disallow: /z" holds a rule); the RFC reads one record per line, its
// value up to the end of the line (SYN-2, SYN-9, UA-7).
//
// Corpus cases: user-agent/two-word-value, syntax/space-around-colon.
func temotoWordPairs(d *divergence) bool {
	for _, l := range d.temotoLines() {
		if len(l.words) > 2 {
			return true
		}
	}
	return false
}

// temotoRecordName: temoto recognises a record by its first word alone:
// no colon is needed ("Disallow /x"), "useragent" and "crawldelay" are
// accepted, and a key written with white space before the colon ends at
// the space; the RFC requires "name:" with optional white space around the
// colon and recognises only the three names it defines (SYN-1, SYN-2,
// OTH-2).
//
// Corpus cases: syntax/colonless-rule, other-records/misspelt-user-agent.
func temotoRecordName(d *divergence) bool {
	ref := refKinds(d)
	for _, l := range d.temotoLines() {
		kind := l.kind
		if kind == "crawl-delay" {
			kind = "other" // for the RFC too, a record it does not define
		}
		refKind, read := ref[l.number]
		if read && kind != "" && refKind != kind {
			return true
		}
	}
	return false
}

// temotoRecordValue: where temoto and the RFC agree that a line is a
// user-agent, allow or disallow record, temoto's value is the second word
// of the line, which differs from the RFC's when a "#" inside the value
// does not start a comment for temoto ("/a#b"), when a vertical tab
// separates words, or when white space stands before the colon (SYN-2,
// SYN-4).
//
// Corpus cases: syntax/unicode-spaces-are-not-ws.
func temotoRecordValue(d *divergence) bool {
	ref := map[int]reference.Line{}
	for _, l := range d.refLines() {
		ref[l.Number] = l
	}
	for _, l := range d.temotoLines() {
		r, ok := ref[l.number]
		if !ok || l.kind == "" || l.kind == "other" || kindName(r.Kind) != l.kind {
			continue
		}
		if l.kind == "user-agent" {
			if !strings.EqualFold(l.value(), r.Value) {
				return true
			}
		} else if l.value() != r.Value {
			return true
		}
	}
	return false
}

// temotoAgentPrefix: temoto picks the group whose name is the longest
// prefix of the crawler's token ("User-agent: Foo" binds FooBot); the RFC
// matches whole tokens only (UA-2).
//
// Corpus cases: user-agent/no-prefix-match.
func temotoAgentPrefix(d *divergence) bool {
	agent := strings.ToLower(d.agent)
	for _, l := range d.temotoLines() {
		if l.kind != "user-agent" {
			continue
		}
		name := strings.ToLower(l.value())
		if name != "" && name != "*" && name != agent && strings.HasPrefix(agent, name) {
			return true
		}
	}
	return false
}

// temotoUnicodeFolding: temoto lower-cases user-agent names with
// strings.ToLower, which maps some non-ASCII letters to ASCII ones (the
// Kelvin sign to "k"), so "User-agent: \u212aelbot" names Kelbot; the
// ABNF's case-insensitive matching covers ASCII letters only (UA-1, UA-2).
//
// Corpus cases: user-agent/non-ascii-case-fold.
func temotoUnicodeFolding(d *divergence) bool {
	agent := strings.ToLower(d.agent)
	for _, l := range d.temotoLines() {
		if l.kind != "user-agent" {
			continue
		}
		v := l.value()
		if name := strings.ToLower(v); name != lowerASCII(v) && name != "" && strings.HasPrefix(agent, name) {
			return true
		}
	}
	return false
}

// temotoRulelessGroup: temoto records a group only when a rule (or a
// Crawl-delay) follows its user-agent lines, so a group without rules
// names nobody and its agents fall back to "*"; for the RFC such a group
// applies to its agents and allows everything (SYN-7, UA-6). The predicate
// holds when the groups the reference applies have no rules.
//
// Corpus cases: syntax/empty-trailing-group, examples/section-5-1-quxbot.
func temotoRulelessGroup(d *divergence) bool {
	dec, err := reference.Parse(d.body, d.opts).Decide(d.agent, d.url)
	if err != nil || dec.Group == "" || dec.Group == "*" {
		return false
	}
	return len(appliedRules(d, dec)) == 0
}

// temotoCrawlDelayEndsGroup: for temoto a Crawl-delay line belongs to the
// group, so a user-agent line after it starts a new group; for the RFC
// other records never end a run of user-agent lines (OTH-3, SYN-6).
//
// Corpus cases: other-records/crawl-delay-between-agents.
func temotoCrawlDelayEndsGroup(d *divergence) bool {
	prev, sawDelay := "", false
	for _, l := range d.temotoLines() {
		switch l.kind {
		case "user-agent":
			if prev == "user-agent" && sawDelay {
				return true
			}
			prev, sawDelay = "user-agent", false
		case "allow", "disallow":
			prev, sawDelay = "rule", false
		case "crawl-delay":
			sawDelay = true
		}
	}
	return false
}

// temotoNoParseLimit: temoto reads the whole body; the reference ignores
// content past 500 KiB (LIM-1, LIM-2). The predicate holds when the
// reference without a limit agrees.
//
// Corpus cases: limits/rule-after-520000.
func temotoNoParseLimit(d *divergence) bool {
	if len(d.body) <= reference.KiB500 {
		return false
	}
	o := d.opts
	o.MaxBytes = 0
	return d.refDecide(d.body, o, d.url) == d.got
}

// temotoPercentEncoding: temoto compares rule paths and the URI as
// written; the RFC percent-encodes non-ASCII and unsafe octets and decodes
// escapes of unreserved characters on both sides, and a literal "*" or "$"
// in the URI equals "%2A"/"%24" in a rule (PCT-1, PCT-2, PCT-3, SPC-4).
// The predicate holds when normalisation changes the URI's path or a rule.
//
// Corpus cases: encoding/unreserved-decoded-in-uri, examples/table-1-raw-utf8.
func temotoPercentEncoding(d *divergence) bool {
	path := reference.PathQuery(d.url)
	if string(render(rfcUnits(path, false))) != path {
		return true
	}
	for _, v := range ruleValues(d) {
		v = strings.TrimSuffix(v, "$")
		if string(render(rfcUnits(v, true))) != v {
			return true
		}
	}
	return false
}

// temotoSlashPrefix: temoto puts a "/" before a rule path that starts with
// neither "/" nor "*" ("Disallow: foo" blocks "/foo"); the reference
// compares such a path as written, so it matches nothing (PAT-1). The
// predicate holds when such a rule, with the "/", matches the path.
//
// Corpus cases: wildcards/pattern-without-slash.
func temotoSlashPrefix(d *divergence) bool {
	path := []byte(reference.PathQuery(d.url))
	for _, v := range ruleValues(d) {
		if v != "" && v[0] != '/' && v[0] != '*' && rawMatches("/"+v, path) {
			return true
		}
	}
	return false
}

// rawMatches reports whether rule v matches path octet for octet, "*" as
// a wildcard and a final "$" as the anchor, at the start of the path or,
// as temoto's regular expressions do for rules with "*" or "$", anywhere.
func rawMatches(v string, path []byte) bool {
	p := oraclePattern{octets: []byte(strings.TrimSuffix(v, "$")), anchored: strings.HasSuffix(v, "$"), empty: v == ""}
	if !strings.ContainsAny(v, "*$") {
		return p.matches(path)
	}
	for i := 0; i <= len(path); i++ {
		if p.matches(path[i:]) {
			return true
		}
	}
	return false
}

// temotoTrailingStar: temoto removes trailing "*" from a rule path, which
// shortens the rule for longest-match and turns "Disallow: *" into a rule
// that matches nothing (SPC-1, MATCH-10).
//
// Corpus cases: wildcards/star-alone.
func temotoTrailingStar(d *divergence) bool {
	for _, v := range ruleValues(d) {
		if strings.HasSuffix(v, "*") {
			return true
		}
	}
	return false
}

// temotoDollarAnywhere: temoto turns every "$" of a rule into an end
// anchor; the RFC makes only a final "$" special, and the reference reads
// any other "$" as a literal (SPC-2, SPC-3).
//
// Corpus cases: wildcards/dollar-in-middle.
func temotoDollarAnywhere(d *divergence) bool {
	for _, v := range ruleValues(d) {
		if i := strings.IndexByte(v, '$'); i >= 0 && i < len(v)-1 {
			return true
		}
	}
	return false
}

// temotoUnanchoredWildcard: temoto matches a rule with "*" or "$" as an
// unanchored regular expression, found anywhere in the path ("/a*" blocks
// "/x/a"); the RFC anchors every rule at the first octet (MATCH-3). The
// predicate holds when such a rule matches the path somewhere but not at
// its start, or the other way round.
//
// Corpus cases: wildcards/inner-star-stays-anchored.
func temotoUnanchoredWildcard(d *divergence) bool {
	path := []byte(reference.PathQuery(d.url))
	for _, v := range ruleValues(d) {
		if !strings.ContainsAny(v, "*$") {
			continue
		}
		p := oraclePattern{octets: []byte(strings.TrimSuffix(v, "$")), anchored: strings.HasSuffix(v, "$"), empty: v == ""}
		if rawMatches(v, path) != p.matches(path) {
			return true
		}
	}
	return false
}

// temotoConflict: when an allow and a disallow rule of the applying groups
// both match, temoto decides by the length of each rule's regular
// expression text (escapes and ".*" included) for rules with wildcards,
// and lets the earlier rule win a tie; the RFC counts the octets of the
// rule and lets allow win a tie (MATCH-4, MATCH-5, MATCH-10).
//
// Corpus cases: matching/tie-allow-wins, wildcards/short-wildcard-allow-loses.
func temotoConflict(d *divergence) bool {
	dec, err := reference.Parse(d.body, d.opts).Decide(d.agent, d.url)
	if err != nil {
		return false
	}
	var allows, disallows int
	for _, l := range appliedRules(d, dec) {
		if !singleRuleMatches(l, d) {
			continue
		}
		if l.Kind == reference.Allow {
			allows++
		} else {
			disallows++
		}
	}
	return allows > 0 && disallows > 0
}

// appliedRules returns the rule lines of the groups that the decision
// applied: the groups one of whose user-agent lines is in GroupLines.
func appliedRules(d *divergence, dec reference.Decision) []reference.Line {
	applied := map[int]bool{}
	for _, n := range dec.GroupLines {
		applied[n] = true
	}
	var rules []reference.Line
	inGroup, afterRule := false, true
	for _, l := range d.refLines() {
		switch l.Kind {
		case reference.UserAgent:
			if afterRule {
				inGroup, afterRule = false, false
			}
			inGroup = inGroup || applied[l.Number]
		case reference.Allow, reference.Disallow:
			afterRule = true
			if inGroup {
				rules = append(rules, l)
			}
		}
	}
	return rules
}

// singleRuleMatches reports whether the rule alone matches the URL, by
// the reference under the divergence's options.
func singleRuleMatches(l reference.Line, d *divergence) bool {
	body := "User-agent: *\n" + l.Key + ": " + l.Value + "\n"
	dec, err := reference.ParseString(body, d.opts).Decide(d.agent, d.url)
	return err == nil && dec.Reason == reference.RuleMatched
}

// ---- readings of the file ----

// temotoLine is one line as temoto's scanner reads it: its words, and the
// kind of record its first word names.
type temotoLine struct {
	number int    // 1-based, counted as the reference counts lines
	text   string // the line
	words  []string
	kind   string // "user-agent", "allow", "disallow", "crawl-delay", "other", or "" (no words)
}

// value returns the record's value: the second word, or "" when the line
// has one word (temoto then takes the line end as the value).
func (l temotoLine) value() string {
	if len(l.words) < 2 {
		return ""
	}
	return l.words[1]
}

// readTemotoLines reads body as temoto's scanner splits it into words:
// words are separated by SP, HTAB and VT; a "#" at the start of a word
// starts a comment; the first ":" of a line that comes before any other
// colon ends its word (and is dropped). Lines are numbered as the
// reference numbers them, so that the two readings can be compared.
func readTemotoLines(body []byte) []temotoLine {
	var out []temotoLine
	// temoto skips a whole byte order mark; the reference numbers the
	// line after it as line 1 all the same.
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	for i, text := range reference.SplitLines(string(body)) {
		l := temotoLine{number: i + 1, text: text, words: temotoWords(text)}
		if len(l.words) > 0 {
			switch strings.ToLower(l.words[0]) {
			case "user-agent", "useragent":
				l.kind = "user-agent"
			case "allow":
				l.kind = "allow"
			case "disallow":
				l.kind = "disallow"
			case "crawl-delay", "crawldelay":
				l.kind = "crawl-delay"
			default:
				l.kind = "other"
			}
		}
		out = append(out, l)
	}
	return out
}

func isTemotoSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' }

func temotoWords(line string) []string {
	var words []string
	colon := false
	for i := 0; i < len(line); {
		for i < len(line) && isTemotoSpace(line[i]) {
			i++
		}
		if i == len(line) || line[i] == '#' {
			break
		}
		start := i
		i++ // the first octet of a word is taken whatever it is
		end := -1
		for i < len(line) && !isTemotoSpace(line[i]) {
			if line[i] == ':' && !colon {
				colon = true
				end = i
				i++
				break
			}
			i++
		}
		if end < 0 {
			end = i
		}
		words = append(words, line[start:end])
	}
	return words
}

// refKinds returns the reference's kind of each line it read (lines past
// the parse limit are absent), by number, named as temotoLine names kinds;
// records the reference does not define are "other".
func refKinds(d *divergence) map[int]string {
	kinds := map[int]string{}
	for _, l := range d.refLines() {
		kinds[l.Number] = kindName(l.Kind)
	}
	return kinds
}

func kindName(k reference.LineKind) string {
	switch k {
	case reference.UserAgent:
		return "user-agent"
	case reference.Allow:
		return "allow"
	case reference.Disallow:
		return "disallow"
	case reference.Blank, reference.Comment:
		return ""
	}
	return "other"
}

// ruleValues returns the paths of the file's rules as both readings see
// them: the reference's values and temoto's second words.
func ruleValues(d *divergence) []string {
	var vs []string
	for _, l := range d.refLines() {
		if l.Kind == reference.Allow || l.Kind == reference.Disallow {
			vs = append(vs, l.Value)
		}
	}
	for _, l := range d.temotoLines() {
		if l.kind == "allow" || l.kind == "disallow" {
			vs = append(vs, l.value())
		}
	}
	return vs
}

// leadingRun returns the longest prefix of s whose octets satisfy ok.
func leadingRun(s string, ok func(byte) bool) string {
	i := 0
	for i < len(s) && ok(s[i]) {
		i++
	}
	return s[:i]
}

func isTokenOctet(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}

// isGrobotAgentOctet reports whether grobotstxt keeps c in a user-agent
// name: ASCII letters and digits and "#$%'*+-.^_`|~" (its reading of the
// "tchar" of RFC 7231 §3.2.6, without "!" and "&").
func isGrobotAgentOctet(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("#$%'*+-.^_`|~", c) >= 0
}

// lowerASCII lowers ASCII letters only.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isHexOctet(c byte) bool {
	_, ok := hexValue(c)
	return ok
}
