package reference

import (
	"slices"
	"strings"
)

// Robots is a parsed robots.txt file. It is immutable and safe for
// concurrent use.
type Robots struct {
	opts      Options
	body      string // the parsed part of the body, after the limit
	truncated bool   // content past Options.MaxBytes was ignored
	size      int    // the size of the whole body given to Parse

	groups []group
	byName map[string][]int32 // lower-case product token → groups
	global []int32            // groups that name "*"
	orphan []rule             // rules before any user-agent line
	others []Record
}

// group is one group of §2.1: user-agent lines followed by rules.
type group struct {
	agentLines []int32 // line numbers of its user-agent lines
	rules      []rule  // longest first; see sortRules
}

// rule is one allow or disallow line.
type rule struct {
	pat   pattern
	line  int32
	allow bool
	raw   string // the value as written
}

// Parse reads a robots.txt body (RFC 9309 §2.1–2.2) under the given
// options. It accepts any bytes: lines that cannot be parsed are skipped
// and kept as Invalid lines (SYN-9). Parsing N bytes allocates O(N).
func Parse(body []byte, opts Options) *Robots {
	return ParseString(string(body), opts)
}

// ParseString is Parse for a body held in a string; it does not copy it.
func ParseString(body string, opts Options) *Robots {
	r := &Robots{opts: opts, size: len(body)}
	r.body, r.truncated = limitBody(body, opts.MaxBytes)
	r.build()
	return r
}

// Options returns the options the file was parsed with.
func (r *Robots) Options() Options { return r.opts }

// Truncated reports whether the body was longer than Options.MaxBytes, so
// that its end was ignored (LIM-2).
func (r *Robots) Truncated() bool { return r.truncated }

// ParsedBytes is the number of leading bytes of the body that were read.
func (r *Robots) ParsedBytes() int { return len(r.body) }

func (r *Robots) build() {
	o := &r.opts
	// Count rule lines first so that the rules need one allocation.
	nrules := strings.Count(r.body, "\n") + strings.Count(r.body, "\r") + 1
	if nrules > 64 {
		nrules = nrules/2 + 1
	}
	all := make([]rule, 0, nrules)
	type span struct{ start, end int }
	var spans []span // rules of each group within all
	var cur *group
	open := false // the current group still takes user-agent lines
	r.byName = make(map[string][]int32)
	scanLines(r.body, o, func(n int, text string) {
		kind, key, value, _ := classify(text, o)
		switch kind {
		case UserAgent:
			if cur == nil || !open {
				r.groups = append(r.groups, group{})
				spans = append(spans, span{len(all), len(all)})
				cur = &r.groups[len(r.groups)-1]
				open = true
			}
			gi := int32(len(r.groups) - 1)
			cur.agentLines = append(cur.agentLines, int32(n))
			name, star := o.agentName(value)
			if star {
				if !containsInt32(r.global, gi) {
					r.global = append(r.global, gi)
				}
			} else if name != "" {
				if l := r.byName[name]; !containsInt32(l, gi) {
					r.byName[name] = append(l, gi)
				}
			}
		case Allow, Disallow:
			ru := rule{pat: compilePattern(value, o), line: int32(n), allow: kind == Allow, raw: value}
			if cur == nil {
				if o.OrphanRulesApply {
					r.orphan = r.appendRule(r.orphan, ru)
				}
				return
			}
			open = false
			all = r.appendRule(all, ru)
			spans[len(spans)-1].end = len(all)
		case Other:
			r.others = append(r.others, Record{Line: n, Key: key, Value: value})
		}
	})
	for i := range r.groups {
		rs := all[spans[i].start:spans[i].end:spans[i].end]
		r.sortRules(rs)
		r.groups[i].rules = rs
	}
	r.sortRules(r.orphan)
}

// appendRule appends the rule, and with Options.IndexHTML also the rule
// Google derives from an allow of ".../index.htm*": the directory itself,
// anchored (G-INDEX).
func (r *Robots) appendRule(dst []rule, ru rule) []rule {
	dst = append(dst, ru)
	if !r.opts.IndexHTML || !ru.allow {
		return dst
	}
	slash := strings.LastIndexByte(ru.raw, '/')
	if slash < 0 || !strings.HasPrefix(ru.raw[slash:], "/index.htm") {
		return dst
	}
	return append(dst, rule{pat: compilePattern(ru.raw[:slash+1]+"$", &r.opts), line: ru.line, allow: true, raw: ru.raw})
}

func containsInt32(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// sortRules orders rules so that the first match is the deciding one:
// longer patterns first (MATCH-4), then allow before disallow on equal
// length (MATCH-5) unless DisallowWinsTies, then file order. Rules with an
// empty path match nothing (PAT-2) and are dropped from matching.
func (r *Robots) sortRules(rs []rule) {
	disallowFirst := r.opts.DisallowWinsTies
	slices.SortStableFunc(rs, func(a, b rule) int {
		if a.pat.length != b.pat.length {
			return b.pat.length - a.pat.length
		}
		if a.allow != b.allow {
			if a.allow != disallowFirst {
				return -1
			}
			return 1
		}
		return int(a.line - b.line)
	})
}

// Lines returns every line of the parsed part of the file with its number
// and classification. It reads the body again on each call; parsing itself
// keeps only what decisions need.
func (r *Robots) Lines() []Line {
	var lines []Line
	scanLines(r.body, &r.opts, func(n int, text string) {
		kind, key, value, reason := classify(text, &r.opts)
		lines = append(lines, Line{Number: n, Kind: kind, Key: key, Value: value, Reason: reason})
	})
	return lines
}

// Records returns the records the protocol does not define, in file order
// (§2.2.4): Sitemap, Crawl-delay, Host and any other.
func (r *Robots) Records() []Record { return slices.Clone(r.others) }

// Sitemaps returns the values of the file's Sitemap records.
func (r *Robots) Sitemaps() []string {
	var s []string
	for _, rec := range r.others {
		if strings.EqualFold(rec.Key, "sitemap") || r.opts.GoogleKeys && (hasPrefixFold(rec.Key, "sitemap") || hasPrefixFold(rec.Key, "site-map")) {
			s = append(s, rec.Value)
		}
	}
	return s
}

// Agents returns the product tokens the file names, in lower case and
// sorted, without "*".
func (r *Robots) Agents() []string {
	s := make([]string, 0, len(r.byName))
	for name := range r.byName {
		s = append(s, name)
	}
	slices.Sort(s)
	return s
}

// HasStarGroup reports whether the file has a group for "*".
func (r *Robots) HasStarGroup() bool { return len(r.global) > 0 }
