package reference

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The drafts the aipref profile follows, read from the tags of their
// repositories (see Drafts). They are work in progress and will change;
// results and reports name these versions so that a case can be checked
// against the draft it was written for.
const (
	// AttachDraft defines the Content-Usage rule of robots.txt: its
	// syntax, its group membership and its longest-match semantics.
	AttachDraft = "draft-ietf-aipref-attach-05"
	// VocabDraft defines the categories of use (train-ai, search), the
	// statement format (a structured-field dictionary of y and n tokens)
	// and how statements are consulted and combined.
	VocabDraft = "draft-ietf-aipref-vocab-07"
	// ContentSignalsDraft defines the categories of Cloudflare's
	// Content-Signal lines (search, ai-input, ai-train).
	ContentSignalsDraft = "draft-romm-aipref-contentsignals-00"
	// ContentUseSource is where the use key of Content-Signal lines
	// (immediate, reference, full) is described: no draft defines it.
	ContentUseSource = "Cloudflare blog, \"Your site, your rules: new AI traffic options for all customers\", 2026-07-01"
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

// A Draft is a version of an Internet-Draft that the aipref profile or
// its documentation cites.
type Draft struct {
	// Name is the draft's name with its version,
	// "draft-ietf-aipref-vocab-07".
	Name string
	// Source is the repository tag and commit the text was read from,
	// and Date the commit's date.
	Source, Date string
	// Pinned reports whether the profile follows this version; the others
	// are cited only to say what changed.
	Pinned bool
	// Sections maps each numbered section of a pinned draft to its title;
	// a citation of a section must name one of them.
	Sections map[string]string
}

// Drafts returns the draft versions the project cites, oldest first.
// Every draft name in the code, the corpus and the documentation is one
// of these (a test checks it).
func Drafts() []Draft {
	const wg = "github.com/ietf-wg-aipref/drafts tag "
	return []Draft{
		{Name: "draft-ietf-aipref-vocab-03", Source: wg + "draft-ietf-aipref-vocab-03 (eb3e8d0)", Date: "2025-09-05"},
		{Name: "draft-ietf-aipref-vocab-04", Source: wg + "draft-ietf-aipref-vocab-04 (8a75b73)", Date: "2025-10-23"},
		{Name: "draft-ietf-aipref-vocab-05", Source: wg + "draft-ietf-aipref-vocab-05 (7544338)", Date: "2025-11-28"},
		{Name: "draft-ietf-aipref-vocab-06", Source: wg + "draft-ietf-aipref-vocab-06 (2684140)", Date: "2026-04-28"},
		{Name: VocabDraft, Source: wg + "draft-ietf-aipref-vocab-07 (7ca0afc)", Date: "2026-08-19", Pinned: true,
			Sections: map[string]string{
				"1": "Introduction", "2": "Conventions and Definitions",
				"3": "Statements of Preference", "3.1": "Understanding Preferences", "3.2": "Applying Preferences",
				"4": "Vocabulary Definition", "4.1": "AI Model Training", "4.2": "Search", "4.3": "Vocabulary Extensions",
				"5": "Applying Statements of Preference", "5.1": "Combining Preferences", "5.2": "More Specific Instructions",
				"6": "Exemplary Serialization Format", "6.1": "Usage Category Labels", "6.2": "Preference Labels",
				"6.3": "Text Encoding", "6.4": "Syntax Extensions", "6.5": "Processing Algorithm",
				"6.5.1": "Multiple Preferences", "6.5.2": "Preference Parameters", "6.6": "Alternative Formats",
				"7": "Security Considerations", "8": "IANA Considerations",
			}},
		{Name: AttachDraft, Source: wg + "draft-ietf-aipref-attach-05 (7ca0afc)", Date: "2026-08-19", Pinned: true,
			Sections: map[string]string{
				"1": "Introduction", "1.1": "Statements of Preference", "1.2": "Examples", "1.3": "Other Mechanisms",
				"1.3.1": "Embedded Preferences", "1.3.2": "Registry-Based Preferences", "1.4": "Conventions and Definitions",
				"2": "HTTP Content-Usage Header Field", "3": "Robots Exclusion Protocol Content-Usage Rule",
				"3.1": "Content-Usage Rule Semantics", "3.2": "Processing Content-Usage Rules",
				"3.3": "When Preferences Apply", "3.4": "Example",
				"4": "Security Considerations", "5": "IANA Considerations",
			}},
		{Name: ContentSignalsDraft, Source: "github.com/l-romm/draft-romm-aipref-vocab-contentsignals tag draft-romm-aipref-contentsignals-00 (42750ca)",
			Date: "2025-10-01", Pinned: true,
			Sections: map[string]string{
				"1": "Introduction", "2": "Conventions and Definitions", "3": "Vocabulary Definition",
				"3.1": "Search", "3.2": "AI Input", "3.3": "AI Training", "4": "Usage Category Labels",
				"5": "Security Considerations", "6": "IANA Considerations", "7": "Addendum",
			}},
	}
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
// (draft-ietf-aipref-vocab-07 §3): allowed, disallowed or unknown; for
// the use key of Content-Signal lines, a level of use.
type Usage string

// The usage preferences, written as in the vocabulary's format.
const (
	UsageAllowed    Usage = "y"
	UsageDisallowed Usage = "n"
	UsageUnknown    Usage = "unknown"
)

// The levels of the use key of Content-Signal lines, from the most
// restrictive to the most permissive (ContentUseSource): use the content
// but store and reuse none of it; index it, quote excerpts and link back;
// summarise and reproduce it.
const (
	UseImmediate Usage = "immediate"
	UseReference Usage = "reference"
	UseFull      Usage = "full"
)

// UseCategory is the category under which Robots.Usage answers the use
// key of Content-Signal lines.
const UseCategory = "use"

// UsageValues returns the answers Robots.Usage can give for category.
func UsageValues(category string) []Usage {
	if category == UseCategory {
		return []Usage{UseImmediate, UseReference, UseFull, UsageUnknown}
	}
	return []Usage{UsageAllowed, UsageDisallowed, UsageUnknown}
}

// usageMethod is a way of stating preferences in robots.txt; statements
// of different methods are consulted apart and then combined
// (draft-ietf-aipref-vocab-07 §5.1).
type usageMethod struct {
	key string // the record name, compared case-insensitively
	// values maps each token the method's statements use to the
	// preference it states.
	values map[string]Usage
	// labels maps each category the method can state to its label.
	labels map[string]string
}

// usageMethods are the Content-Usage rule (draft-ietf-aipref-attach-05
// §3, with the labels of draft-ietf-aipref-vocab-07 §6.1 and its y and n
// tokens, §6.2) and the Content-Signal line (the labels of
// draft-romm-aipref-contentsignals-00 §4, with the yes and no values
// sites write, and Cloudflare's use key with its three levels).
var usageMethods = [...]usageMethod{
	{key: "content-usage",
		values: map[string]Usage{"y": UsageAllowed, "n": UsageDisallowed},
		labels: map[string]string{"train-ai": "train-ai", "search": "search"}},
	{key: "content-signal",
		values: map[string]Usage{"yes": UsageAllowed, "no": UsageDisallowed,
			"immediate": UseImmediate, "reference": UseReference, "full": UseFull},
		labels: map[string]string{"search": "search", "ai-input": "ai-input", "ai-train": "ai-train", UseCategory: "use"}},
}

// usageCategories are the categories Robots.Usage answers for. They form
// no hierarchy: vocab-07 dropped the subset rule of earlier versions, and
// the content-signals draft nests its categories only in Automated
// Processing, a category vocab-07 no longer has. "search" is one
// category in both vocabularies (the content-signals draft's addendum,
// §7, adopts the vocabulary's definition).
var usageCategories = []string{"ai-input", "ai-train", "search", "train-ai", UseCategory}

// UsageCategories returns the categories Robots.Usage answers for, sorted.
func UsageCategories() []string {
	return slices.Clone(usageCategories)
}

// IsUsageCategory reports whether Robots.Usage answers for category.
func IsUsageCategory(category string) bool {
	return slices.Contains(usageCategories, category)
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
// draft-ietf-aipref-vocab-07 §5, §5.1 and §6.5):
//
//   - the Content-Usage and Content-Signal lines of the groups that apply
//     to agent count, as allow and disallow rules do (RFC 9309 §2.2.1);
//     lines outside any group count for no one;
//   - a path that may not be crawled has no preference (unknown);
//   - each line's value is an optional path (starting with "/", ended by
//     white space) and a statement; a line without a path applies to
//     every path with a match length of 0, so any matching path beats it;
//   - per method, the lines whose path matches with the most octets of
//     the encoded path decide, as for allow and disallow (MATCH-4);
//   - each statement is parsed as an RFC 9651 dictionary: a y (yes) token
//     allows, an n (no) token disallows, anything else states nothing
//     and a statement that does not parse states nothing at all; a
//     category without an explicit preference is unknown (vocab-07 §5:
//     there is no hierarchy, and labels of older drafts such as "all" or
//     "train-genai" are unknown labels, ignored);
//   - statements that tie, and the two methods, are combined the most
//     restrictive way: any disallow wins, then any allow, else unknown
//     (vocab-07 §5.1). For the use key the most restrictive level wins.
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

// consult evaluates one statement for category (draft-ietf-aipref-vocab-07
// §6.5): the value of the category's label decides if it is one of the
// method's tokens; anything else, and a statement that does not parse,
// states nothing.
func (m *usageMethod) consult(statement, category string) Usage {
	dict, ok := parseSFDictionary(statement)
	if !ok {
		return UsageUnknown
	}
	label, ok := m.labels[category]
	if !ok {
		return UsageUnknown
	}
	v, ok := dict[label]
	if !ok || !v.isToken {
		return UsageUnknown
	}
	u, ok := m.values[v.token]
	if !ok || (category == UseCategory) != isUseLevel(u) {
		return UsageUnknown
	}
	return u
}

// restrictiveness orders the known preferences of one category: the
// lower wins when statements are combined.
var restrictiveness = map[Usage]int{
	UsageDisallowed: 0, UsageAllowed: 1,
	UseImmediate: 0, UseReference: 1, UseFull: 2,
}

func isUseLevel(u Usage) bool { return u == UseImmediate || u == UseReference || u == UseFull }

// combineUsage combines the preferences of one category the most
// restrictive way (draft-ietf-aipref-vocab-07 §5.1): any disallow wins,
// then any allow, else unknown; of use levels, the most restrictive.
func combineUsage(us ...Usage) Usage {
	out := UsageUnknown
	for _, u := range us {
		r, ok := restrictiveness[u]
		if !ok {
			continue
		}
		if o, ok := restrictiveness[out]; !ok || r < o {
			out = u
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
