package diagnose

import (
	"fmt"

	"github.com/reptest/reptest/reference"
)

// misreading is one entry of the catalogue as the fitter uses it. Until
// package reference carries the catalogue (reference.Misreadings), this
// local table stands for it with the options that exist.
type misreading struct {
	ID, Title, RFC string
	Req            []string
	Kind           string
	apply          func(*reference.Options)
}

// localCatalogue is the stand-in for reference.Misreadings.
var localCatalogue = []misreading{
	{ID: "tie-disallow", Title: "a disallow rule wins a tie with an allow rule of the same length", RFC: "2.2.2", Req: []string{"MATCH-5"}, Kind: "matching",
		apply: func(o *reference.Options) { o.DisallowWinsTies = true }},
	{ID: "case-insensitive-paths", Title: "paths are compared without regard to case", RFC: "2.2.2", Req: []string{"MATCH-2"}, Kind: "matching",
		apply: func(o *reference.Options) { o.CaseInsensitivePaths = true }},
	{ID: "no-percent-normalisation", Title: "percent escapes are compared as bytes", RFC: "2.2.2", Req: []string{"PCT-1"}, Kind: "matching",
		apply: func(o *reference.Options) { o.NormalizeURI = false }},
	{ID: "robots-txt-not-exempt", Title: "/robots.txt itself may be disallowed", RFC: "2.2.2", Req: []string{"MATCH-7"}, Kind: "matching",
		apply: func(o *reference.Options) { o.ImplicitRobotsTxt = false }},
	{ID: "orphan-rules-apply", Title: "rules before the first user-agent line apply to every crawler", RFC: "2.1", Req: []string{"SYN-8"}, Kind: "groups",
		apply: func(o *reference.Options) { o.OrphanRulesApply = true }},
	{ID: "prefix-agent", Title: "a user-agent line names a crawler by its leading token", RFC: "2.2.1", Req: []string{"UA-7"}, Kind: "groups",
		apply: func(o *reference.Options) { o.AgentMatch = reference.AgentLeadingToken }},
	{ID: "bom-not-skipped", Title: "a byte order mark is read as part of the first line", RFC: "2.2", Req: []string{"SYN-10"}, Kind: "syntax",
		apply: func(o *reference.Options) { o.SkipBOM, o.SkipPartialBOM = false, false }},
	{ID: "no-size-limit", Title: "the whole file is read, past 500 KiB", RFC: "2.5", Req: []string{"LIM-1"}, Kind: "syntax",
		apply: func(o *reference.Options) { o.MaxBytes = 0 }},
	{ID: "port-ignored", Title: "one robots.txt per host, whatever the port", RFC: "2.3", Req: []string{"ACC-1"}, Kind: KindCrawl},
	{ID: "scheme-ignored", Title: "one robots.txt per host, whatever the scheme", RFC: "2.3", Req: []string{"ACC-1"}, Kind: KindCrawl},
	{ID: "robots-after-page", Title: "robots.txt is fetched after the first page of an origin", RFC: "2.3", Req: []string{"ACC-10"}, Kind: KindCrawl},
	{ID: "robots-other-agent", Title: "robots.txt is fetched with another User-Agent than the pages", RFC: "2.2.1", Req: []string{"UA-1"}, Kind: KindCrawl},
}

// KindCrawl is the kind of the misreadings only a crawler's requests
// show (the port or scheme ignored, robots.txt fetched late or under
// another agent): no variant of the reference's reading models them.
const KindCrawl = "crawl"

// catalogue returns the misreadings the fitter tries, in catalogue order.
func catalogue() []misreading { return localCatalogue }

// lookup returns the misreading id names.
func lookup(id string) (misreading, bool) {
	for _, m := range catalogue() {
		if m.ID == id {
			return m, true
		}
	}
	return misreading{}, false
}

// withMisreadings returns base changed by every misreading of ids.
func withMisreadings(base reference.Options, ids ...string) (reference.Options, error) {
	for _, id := range ids {
		m, ok := lookup(id)
		if !ok {
			return base, fmt.Errorf("diagnose: unknown misreading %q", id)
		}
		if m.apply == nil {
			return base, fmt.Errorf("diagnose: misreading %q is a crawler's, not a reading", id)
		}
		m.apply(&base)
	}
	return base, nil
}
