package result

import (
	"fmt"
	"strings"
	"time"
)

// Audit is reptest audit's own account of a site's logs, the "audit"
// object of its results document (docs/FORMAT.md §7): what was read,
// the counts per agent as the auditor recorded them, and every judged
// request (Judged) or the file that holds them (RequestsFile).
type Audit struct {
	Lines    int `json:"lines"`
	Requests int `json:"requests"`
	Skipped  int `json:"skipped"` // requests of agents not audited
	// Browsers counts the requests left out because their client names
	// no token of the file and looks like a browser.
	Browsers  int         `json:"browsers"`
	Malformed int         `json:"malformed"`
	Errors    []LineError `json:"errors,omitempty"`
	Versions  []string    `json:"versions"`
	// VersionMarks say when each version came into force.
	VersionMarks []VersionMark `json:"version_marks"`
	// Verifying says address ranges were given: every request outside
	// them is claimed.
	Verifying bool          `json:"verifying,omitempty"`
	Agents    []*AuditAgent `json:"agents"`

	RequestsFile string         `json:"requests_file,omitempty"`
	Judged       []AuditRequest `json:"judged,omitempty"`
	// JudgedOmitted counts the records past MaxJudged, which a run without
	// a requests file does not hold.
	JudgedOmitted int `json:"judged_omitted,omitempty"`
}

// MaxJudged bounds the records an Audit lists; a larger log writes its
// records to a file as JSON lines instead.
const MaxJudged = 100_000

// List keeps a record for the audit, up to MaxJudged.
func (a *Audit) List(rec AuditRequest) {
	if len(a.Judged) >= MaxJudged {
		a.JudgedOmitted++
		return
	}
	a.Judged = append(a.Judged, rec)
}

// Verified reports whether the audit told verified bots from claimed
// ones: ranges were given, or the log marked a request as a verified
// bot's. Every rendering splits the counts on this one condition.
func (a *Audit) Verified() bool {
	if a.Verifying {
		return true
	}
	for _, ag := range a.Agents {
		if c := ag.ByVerification["verified"]; ag.Verified > 0 || c != nil && c.Requests > 0 {
			return true
		}
	}
	return false
}

// MaxQuoted is how many requests of each tier an agent's report quotes
// (AuditAgent.Quoted).
const MaxQuoted = 10

// quoteJudged gives the agents of an audit written before agents quoted
// their requests the quotes the auditor kept then: the first MaxQuoted
// judged requests of each tier, when the audit lists them.
func (a *Audit) quoteJudged() {
	for _, ag := range a.Agents {
		if ag.Quoted != nil {
			return
		}
	}
	for _, ag := range a.Agents {
		var q Quoted
		for _, r := range a.Judged {
			if r.Agent != ag.Agent {
				continue
			}
			switch r.Tier {
			case "violation":
				q.Violation = quoteOne(q.Violation, r)
			case "grace":
				q.Grace = quoteOne(q.Grace, r)
			case "uncertain":
				q.Uncertain = quoteOne(q.Uncertain, r)
			}
		}
		if len(q.Violation)+len(q.Grace)+len(q.Uncertain) > 0 {
			ag.Quoted = &q
		}
	}
}

func quoteOne(rs []AuditRequest, r AuditRequest) []AuditRequest {
	if len(rs) < MaxQuoted {
		rs = append(rs, r)
	}
	return rs
}

// LineError is a malformed line of a log.
type LineError struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Msg  string `json:"message"`
}

func (e LineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// VersionMark is when a robots.txt version came into force.
type VersionMark struct {
	Label string    `json:"label"`
	From  time.Time `json:"from,omitzero"`
}

// AuditAgent is what an audit found for one product token.
type AuditAgent struct {
	Agent string `json:"agent"` // the token, or "*" for User-Agents that name no group
	// Clients is the number of clients (User-Agent and address) judged
	// as the agent, each against its own robots.txt fetches.
	Clients    int `json:"clients"`
	Requests   int `json:"requests"`
	Robots     int `json:"robots_fetches"`
	Allowed    int `json:"allowed"`
	Grace      int `json:"grace"`
	Violations int `json:"violations"`
	// Uncertain counts the requests of buckets (aggregated logs) whose
	// tier depends on what the bucket cannot tell.
	Uncertain int `json:"uncertain"`
	// Verified counts the requests the log marks as from a verified bot,
	// or that came from inside the published ranges.
	Verified int `json:"verified"`
	// ByVerification splits the requests into "verified" and "claimed"
	// (the User-Agent names the bot; nothing shows it is that bot).
	ByVerification map[string]*TierCounts `json:"by_verification"`
	// ByReq counts violations per requirement (ACC-2, ACC-7, CACHE-2).
	ByReq map[string]int `json:"by_requirement,omitempty"`
	// CouldByReq counts the uncertain requests that may break each
	// requirement.
	CouldByReq map[string]int `json:"uncertain_by_requirement,omitempty"`
	// Rules counts violations per deciding rule.
	Rules []RuleCount `json:"rules,omitempty"`
	// Quoted holds the first requests of the violation, grace and
	// uncertain tiers, which the text quotes.
	Quoted *Quoted `json:"quoted,omitempty"`
	// Warnings tie the verdict matrix's warnings about the agent's group
	// to the requests that show them.
	Warnings   []string `json:"warnings,omitempty"`
	UserAgents []string `json:"user_agents,omitempty"`
	// Timeline is the agent's requests over time, aggregated.
	Timeline *AuditTimeline `json:"timeline"`
}

// Quoted are an agent's first requests of three tiers.
type Quoted struct {
	Violation []AuditRequest `json:"violation,omitempty"`
	Grace     []AuditRequest `json:"grace,omitempty"`
	Uncertain []AuditRequest `json:"uncertain,omitempty"`
}

// TierCounts counts requests by tier.
type TierCounts struct {
	Requests   int `json:"requests"`
	Robots     int `json:"robots_fetches"`
	Allowed    int `json:"allowed"`
	Grace      int `json:"grace"`
	Uncertain  int `json:"uncertain"`
	Violations int `json:"violations"`
}

// Add counts n requests of a tier (robots, allowed, grace, uncertain or
// violation; the grader's tiers).
func (tc *TierCounts) Add(tier string, n int) {
	tc.Requests += n
	switch tier {
	case "robots":
		tc.Robots += n
	case "allowed":
		tc.Allowed += n
	case "grace":
		tc.Grace += n
	case "uncertain":
		tc.Uncertain += n
	case "violation":
		tc.Violations += n
	}
}

// Merge adds o's counts to tc's.
func (tc *TierCounts) Merge(o TierCounts) {
	tc.Requests += o.Requests
	tc.Robots += o.Robots
	tc.Allowed += o.Allowed
	tc.Grace += o.Grace
	tc.Uncertain += o.Uncertain
	tc.Violations += o.Violations
}

// RuleCount is how many violations one rule decided.
type RuleCount struct {
	Version string `json:"version"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Count   int    `json:"count"`
}

// AuditTimeline is an agent's requests over time, aggregated: counts
// per tier in bins of BinSeconds, and the robots.txt fetches marked one
// by one (the first few hundred).
type AuditTimeline struct {
	BinSeconds int64       `json:"bin_seconds"`
	Bins       []TimeBin   `json:"bins"`
	Fetches    []FetchMark `json:"robots_fetches"`
}

// TimeBin is one bin of a timeline: its start and its counts.
type TimeBin struct {
	Start time.Time `json:"start"`
	TierCounts
}

// FetchMark is one robots.txt fetch: when, the answer, the version.
type FetchMark struct {
	Time    time.Time `json:"time"`
	Status  int       `json:"status"`
	Version string    `json:"version"`
}

// AuditRequest is one judged request (or bucket of requests) as an
// audit lists it: what the log says, how it was judged, and by which
// rule of which robots.txt version (docs/FORMAT.md §7.2).
type AuditRequest struct {
	Time time.Time `json:"time"`
	// Span is a bucket's length in seconds (aggregated logs); 0 for a
	// request at an instant.
	Span      int64  `json:"span_seconds,omitempty"`
	Count     int    `json:"count"`
	Method    string `json:"method"`
	URL       string `json:"url"`
	Status    int    `json:"status"`
	UserAgent string `json:"user_agent"`
	Client    string `json:"client,omitempty"`
	Verified  string `json:"verified,omitempty"`
	// Agent is the token the request was judged as ("*": none named).
	Agent string `json:"agent"`
	// Tier is robots (a robots.txt fetch), allowed, grace (within the
	// cache grace), uncertain or violation.
	Tier string `json:"tier"`
	// Requirement is the requirement a violation breaks, or the one that
	// allowed or tolerated the request (ACC-6, CACHE-2).
	Requirement string `json:"requirement,omitempty"`
	// CouldBreak lists the requirements an uncertain bucket breaks in
	// some of the cases it cannot tell apart.
	CouldBreak []string `json:"could_break,omitempty"`
	// Rule is the deciding rule, when a rule decided.
	Rule *AuditRule `json:"rule,omitempty"`
	// Version labels the robots.txt version judged against.
	Version string `json:"robots_version,omitempty"`
	// Copy is the version the client's last robots.txt fetch got, and
	// FetchedAt when; both absent before its first fetch.
	Copy      string    `json:"copy,omitempty"`
	FetchedAt time.Time `json:"fetched_at,omitzero"`
	Why       string    `json:"why"`
	Source    string    `json:"source,omitempty"`
}

// AuditRule is a deciding rule: its line in the version, its text, and
// the group it is in.
type AuditRule struct {
	Line  int    `json:"line"`
	Rule  string `json:"rule"`
	Group string `json:"group,omitempty"`
}

// Grid is the time axis every agent's timeline of an audit shares when
// drawn: NCols columns of Col each from From; Until is the end of the
// last bin.
type Grid struct {
	From, Until time.Time
	Col         time.Duration
	NCols       int
}

// Grid spans every agent's bins with columns at least as long as the
// longest bin (and a minute), and at most maxCols of them; ok is false
// when there is no bin.
func (a *Audit) Grid(maxCols int) (g Grid, ok bool) {
	g.Col = time.Minute
	for _, ag := range a.Agents {
		tl := ag.Timeline
		if tl == nil {
			continue
		}
		bin := time.Duration(tl.BinSeconds) * time.Second
		g.Col = max(g.Col, bin)
		for _, b := range tl.Bins {
			if g.From.IsZero() || b.Start.Before(g.From) {
				g.From = b.Start
			}
			if end := b.Start.Add(bin); end.After(g.Until) {
				g.Until = end
			}
		}
	}
	if g.From.IsZero() {
		return g, false
	}
	for g.Col*time.Duration(maxCols) < g.Until.Sub(g.From) {
		g.Col *= 2
	}
	g.From = g.From.Truncate(g.Col)
	g.NCols = int((g.Until.Sub(g.From) + g.Col - 1) / g.Col)
	return g, true
}

// Columns adds a timeline's bins up into the grid's columns.
func (g Grid) Columns(tl *AuditTimeline) []TierCounts {
	cols := make([]TierCounts, g.NCols)
	for _, b := range tl.Bins {
		i := min(max(int(b.Start.Sub(g.From)/g.Col), 0), g.NCols-1)
		cols[i].Merge(b.TierCounts)
	}
	return cols
}

// When writes the request's time, or its bucket's start and length.
func (r AuditRequest) When() string {
	if r.Span > 0 {
		span := time.Duration(r.Span) * time.Second
		return r.Time.UTC().Format("2006-01-02T15:04Z") + " +" + strings.TrimSuffix(strings.TrimSuffix(span.String(), "0s"), "0m")
	}
	return r.Time.UTC().Format("2006-01-02T15:04:05Z")
}

// Times writes how many requests a bucket stands for, "12× "; "" for a
// request at an instant.
func (r AuditRequest) Times() string {
	if r.Span == 0 {
		return ""
	}
	return fmt.Sprintf("%d× ", r.Count)
}
