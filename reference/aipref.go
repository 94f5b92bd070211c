package reference

import (
	"fmt"
	"sort"
	"strings"
)

// The drafts the aipref profile follows. They are work in progress and
// will change; results and reports name these versions so that a case can
// be checked against the draft it was written for.
const (
	// AttachDraft defines the Content-Usage rule of robots.txt: its
	// syntax, its group membership and its longest-match semantics.
	AttachDraft = "draft-ietf-aipref-attach-05"
	// VocabDraft defines the categories of use, the statement format (a
	// structured-field dictionary of y and n tokens) and how statements
	// are consulted and combined.
	VocabDraft = "draft-ietf-aipref-vocab-08"
	// ContentSignalsDraft defines the categories of Cloudflare's
	// Content-Signal lines (search, ai-input, ai-train).
	ContentSignalsDraft = "draft-romm-aipref-contentsignals-00"
)

// AIPrefDrafts names the three drafts, for results and reports.
const AIPrefDrafts = AttachDraft + ", " + VocabDraft + ", " + ContentSignalsDraft

// ProfileDrafts names the drafts a profile follows, for results and
// reports: AIPrefDrafts for "aipref", "" for the RFC's and Google's.
func ProfileDrafts(profile string) string {
	if profile == "aipref" {
		return AIPrefDrafts
	}
	return ""
}

// AIPref returns the options of the opt-in aipref profile: RFC 9309 with
// Content-Usage and Content-Signal lines read as rules of their group
// (UsageRules), as draft-ietf-aipref-attach-05 §3 has it. Robots.Usage
// answers the usage preferences under any options; these make the group
// structure the drafts' own.
func AIPref() Options {
	o := RFC()
	o.Name = "aipref"
	o.UsageRules = true
	return o
}

// Usage is a usage preference for one category of use
// (draft-ietf-aipref-vocab-08 §3): allowed, disallowed or unknown.
type Usage string

// The usage preferences, written as in the vocabulary's format.
const (
	UsageAllowed    Usage = "y"
	UsageDisallowed Usage = "n"
	UsageUnknown    Usage = "unknown"
)

// usageMethod is a way of stating preferences in robots.txt; statements
// of different methods are consulted apart and then combined
// (draft-ietf-aipref-vocab-08 §7.1).
type usageMethod struct {
	key string // the record name, compared case-insensitively
	// yes and no are the tokens that allow and disallow.
	yes, no string
	// labels maps each category the method can state to its label.
	labels map[string]string
}

// usageMethods are the Content-Usage rule (draft-ietf-aipref-attach-05,
// with the labels of draft-ietf-aipref-vocab-08 §6.1 and its y and n
// tokens, §6.2) and the Content-Signal line (the labels of
// draft-romm-aipref-contentsignals-00 §4, with the yes and no values
// sites write).
var usageMethods = [...]usageMethod{
	{key: "content-usage", yes: "y", no: "n", labels: map[string]string{
		"all": "all", "train-ai": "train-ai", "train-genai": "train-genai", "search": "search"}},
	{key: "content-signal", yes: "yes", no: "no", labels: map[string]string{
		"search": "search", "ai-input": "ai-input", "ai-train": "ai-train"}},
}

// usageParent is the hierarchy of categories: each names the category it
// is a proper subset of (draft-ietf-aipref-vocab-08 §4;
// draft-romm-aipref-contentsignals-00 §3 nests its categories in
// Automated Processing, "all"). "search" is one category in both
// vocabularies (the content-signals draft's addendum adopts the
// vocabulary's definition).
var usageParent = map[string]string{
	"all":         "",
	"train-ai":    "all",
	"train-genai": "train-ai",
	"search":      "all",
	"ai-input":    "all",
	"ai-train":    "all",
}

// UsageCategories returns the categories Robots.Usage answers for, sorted.
func UsageCategories() []string {
	out := make([]string, 0, len(usageParent))
	for c := range usageParent {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// IsUsageCategory reports whether Robots.Usage answers for category.
func IsUsageCategory(category string) bool {
	_, ok := usageParent[category]
	return ok
}

// isUsageKey reports whether a record name is Content-Usage or
// Content-Signal, in any case.
func isUsageKey(key string) bool {
	for i := range usageMethods {
		if equalFold(key, usageMethods[i].key) {
			return true
		}
	}
	return false
}

// UsageDecision is a usage preference with what decided it.
type UsageDecision struct {
	Category string
	Usage    Usage
	// Crawlable is the allow/disallow verdict: a path that may not be
	// crawled has no preference (draft-ietf-aipref-attach-05 §3.1).
	Crawlable bool
	// Lines are the Content-Usage and Content-Signal lines whose
	// statements were consulted: for each method the rules of the longest
	// matching path. Empty when none matched.
	Lines []int
}

// String formats the decision as one line for a trace.
func (d UsageDecision) String() string {
	switch {
	case !d.Crawlable:
		return fmt.Sprintf("%s=%s: the path may not be crawled, so no preference applies", d.Category, d.Usage)
	case len(d.Lines) == 0:
		return fmt.Sprintf("%s=%s: no Content-Usage or Content-Signal rule matches", d.Category, d.Usage)
	}
	return fmt.Sprintf("%s=%s: from lines %v", d.Category, d.Usage, d.Lines)
}

// Usage returns the usage preference that the file states for category
// at url, for agent (draft-ietf-aipref-attach-05 §3.1–3.2 with
// draft-ietf-aipref-vocab-08 §6.5–7.1):
//
//   - the Content-Usage and Content-Signal lines of the groups that apply
//     to agent count, as allow and disallow rules do (§2.2.1); lines
//     outside any group count for no one;
//   - a path that may not be crawled has no preference (unknown);
//   - each line's value is an optional path (starting with "/", ended by
//     white space) and a statement; a line without a path applies to
//     every path with a match length of 0, so any matching path beats it;
//   - per method, the lines whose path matches with the most octets of
//     the encoded path decide, as for allow and disallow (MATCH-4);
//   - each statement is parsed as an RFC 9651 dictionary: a y (yes) token
//     allows, an n (no) token disallows, anything else states nothing
//     and a statement that does not parse states nothing at all; a
//     category without a statement takes that of its parent (§7);
//   - statements that tie, and the two methods, are combined the most
//     restrictive way: any disallow wins, then any allow (§7.1).
func (r *Robots) Usage(agent, url, category string) (UsageDecision, error) {
	if !isToken(agent) {
		return UsageDecision{}, fmt.Errorf("%w: %q", ErrInvalidToken, agent)
	}
	if !IsUsageCategory(category) {
		return UsageDecision{}, fmt.Errorf("reference: unknown usage category %q (known: %s)", category, strings.Join(UsageCategories(), ", "))
	}
	var buf [512]byte
	path := r.opts.appendPath(buf[:0], url)
	best, sel, groups := r.decide(agent, path)
	d := UsageDecision{Category: category, Usage: UsageUnknown, Crawlable: !best.found || best.allow}
	if !d.Crawlable || sel == selNone || sel == selOrphan {
		return d, nil
	}
	var found [len(usageMethods)]usageMatch
	var scratch []byte // compileTo's buffer, reused across lines
	for _, rec := range r.others {
		m := usageMethodOf(r.str(rec.key))
		if m < 0 || !r.inGroups(rec.line, groups) {
			continue
		}
		target, statement := splitUsageValue(r.str(rec.value))
		length := 0
		if target != "" {
			p, text, changed := compileTo(scratch, target, &r.opts)
			match := false
			if changed {
				match, scratch = matchText(&p, text, path), text
			} else {
				match = matchText(&p, target[:p.end], path)
			}
			if !match {
				continue
			}
			length = int(p.length)
		}
		found[m].consider(length, int(rec.line), usageMethods[m].consult(statement, category))
	}
	var all []Usage
	for _, f := range found {
		if f.matched {
			all = append(all, f.usage)
			d.Lines = append(d.Lines, f.lines...)
		}
	}
	sort.Ints(d.Lines)
	d.Usage = combineUsage(all...)
	return d, nil
}

// usageMatch is the longest match of one method so far.
type usageMatch struct {
	matched bool
	length  int
	lines   []int
	usage   Usage
}

func (m *usageMatch) consider(length, line int, u Usage) {
	switch {
	case !m.matched || length > m.length:
		*m = usageMatch{matched: true, length: length, lines: []int{line}, usage: u}
	case length == m.length:
		m.lines = append(m.lines, line)
		m.usage = combineUsage(m.usage, u)
	}
}

// usageMethodOf returns the index in usageMethods of a record name, or -1.
func usageMethodOf(key string) int {
	for i := range usageMethods {
		if equalFold(key, usageMethods[i].key) {
			return i
		}
	}
	return -1
}

// inGroups reports whether the record at line belongs to one of groups: to
// the last group that starts before it.
func (r *Robots) inGroups(line int32, groups []int32) bool {
	gi := sort.Search(len(r.groups), func(i int) bool {
		return r.agents[r.groups[i].agents[0]].line > line
	}) - 1
	if gi < 0 {
		return false
	}
	for _, g := range groups {
		if g == int32(gi) {
			return true
		}
	}
	return false
}

// splitUsageValue splits a rule value into its path and its statement
// (draft-ietf-aipref-attach-05 §3.2): a value starting with "/" has a path
// up to the first SP or HTAB, and the statement follows the white space;
// any other value is all statement.
func splitUsageValue(v string) (path, statement string) {
	if !strings.HasPrefix(v, "/") {
		return "", v
	}
	end := strings.IndexAny(v, " \t")
	if end < 0 {
		return v, ""
	}
	return v[:end], strings.TrimLeft(v[end:], " \t")
}

// consult evaluates one statement for category (draft-ietf-aipref-vocab-08
// §6.5 and §7): an explicit token decides; otherwise the parent category
// is consulted; a statement that does not parse states nothing.
func (m *usageMethod) consult(statement, category string) Usage {
	dict, ok := parseSFDictionary(statement)
	if !ok {
		return UsageUnknown
	}
	for c := category; c != ""; c = usageParent[c] {
		label, ok := m.labels[c]
		if !ok {
			continue
		}
		if v, ok := dict[label]; ok && v.isToken {
			switch v.token {
			case m.yes:
				return UsageAllowed
			case m.no:
				return UsageDisallowed
			}
		}
	}
	return UsageUnknown
}

// combineUsage combines preferences the most restrictive way
// (draft-ietf-aipref-vocab-08 §7.1).
func combineUsage(us ...Usage) Usage {
	out := UsageUnknown
	for _, u := range us {
		switch u {
		case UsageDisallowed:
			return UsageDisallowed
		case UsageAllowed:
			out = UsageAllowed
		}
	}
	return out
}

// UsageCategoriesStated returns the categories, sorted, that some
// Content-Usage or Content-Signal statement of the file names by label,
// whether or not it parses to a preference: what a site owner stated.
func (r *Robots) UsageCategoriesStated() []string {
	seen := map[string]bool{}
	for _, rec := range r.others {
		m := usageMethodOf(r.str(rec.key))
		if m < 0 {
			continue
		}
		_, statement := splitUsageValue(r.str(rec.value))
		dict, ok := parseSFDictionary(statement)
		if !ok {
			continue
		}
		for c, label := range usageMethods[m].labels {
			if _, ok := dict[label]; ok {
				seen[c] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// UsageRulePath returns the path of a Content-Usage or Content-Signal line
// given its record name and value (as Line has them), or "" when the line
// is neither or has no path.
func UsageRulePath(key, value string) string {
	if !isUsageKey(key) {
		return ""
	}
	path, _ := splitUsageValue(value)
	return path
}
