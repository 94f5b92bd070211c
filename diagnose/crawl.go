package diagnose

import (
	"fmt"
	"net/url"
	"slices"

	"github.com/reptest/reptest/result"
)

// MinCrawlExplains is the fewest requests a crawler-only misreading must
// account for to be claimed. A request is direct evidence (the crawler
// did it), so fewer are needed than for a reading.
const MinCrawlExplains = 2

// crawlRule recognises one crawler-only misreading in one run: the
// requests it accounts for, and the number of chances the crawler had to
// show it and did not (its contradictions).
type crawlRule struct {
	id   string
	scan func(run []Request) (flagged []int, contradicts int, note func(Request) string)
}

// crawlRules are the rules of the misreadings of kind KindCrawl.
var crawlRules = []crawlRule{
	{"robots-after-page", scanAfterPage},
	{"port-ignored", func(run []Request) ([]int, int, func(Request) string) {
		return scanOtherOrigin(run, func(a, b *url.URL) bool { return a.Scheme == b.Scheme && a.Port() != b.Port() }, "port")
	}},
	{"scheme-ignored", func(run []Request) ([]int, int, func(Request) string) {
		return scanOtherOrigin(run, func(a, b *url.URL) bool { return a.Scheme != b.Scheme }, "scheme")
	}},
	{"robots-other-agent", scanOtherAgent},
}

// scanAfterPage flags the first page of an origin requested before its
// robots.txt, when robots.txt was fetched after it; an origin whose
// robots.txt came first contradicts.
func scanAfterPage(run []Request) ([]int, int, func(Request) string) {
	var flagged []int
	contradicts := 0
	done := map[string]bool{}
	for i, r := range run {
		if r.Robots || done[r.Origin] {
			continue
		}
		done[r.Origin] = true
		if r.Start {
			// The user's choice: its origin shows nothing either way.
			continue
		}
		later := slices.ContainsFunc(run[i+1:], func(x Request) bool { return x.Robots && x.Origin == r.Origin })
		switch {
		case r.Before && later:
			flagged = append(flagged, i)
		case !r.Before:
			contradicts++
		}
	}
	return flagged, contradicts, func(r Request) string {
		return fmt.Sprintf("%s was requested before %s/robots.txt, which was fetched after it", r.URL, r.Origin)
	}
}

// scanOtherOrigin flags pages requested with no robots.txt of their own
// origin fetched but one of the same host under another port or scheme
// (other says which); a page of such an origin whose own robots.txt came
// first contradicts.
func scanOtherOrigin(run []Request, other func(a, b *url.URL) bool, what string) ([]int, int, func(Request) string) {
	var flagged []int
	contradicts := 0
	fetched := map[string]bool{}
	counted := map[string]bool{}
	for i, r := range run {
		if r.Robots {
			fetched[r.Origin] = true
			continue
		}
		u, err := url.Parse(r.Origin)
		if err != nil || counted[r.Origin] {
			continue
		}
		// A sibling is a fetched origin of the same host that differs
		// as other says; one of the same scheme (another port) takes
		// precedence over one of another scheme.
		sibling, sameScheme := false, false
		for o := range fetched {
			v, err := url.Parse(o)
			if err != nil || o == r.Origin || v.Hostname() != u.Hostname() {
				continue
			}
			sibling = sibling || other(u, v)
			sameScheme = sameScheme || v.Scheme == u.Scheme
		}
		if what == "scheme" && sameScheme {
			sibling = false
		}
		switch {
		case !sibling:
		case r.Before && !fetched[r.Origin]:
			flagged = append(flagged, i)
		default:
			counted[r.Origin] = true
			contradicts++
		}
	}
	return flagged, contradicts, func(r Request) string {
		return fmt.Sprintf("%s was requested with no robots.txt of its own %s fetched, only that of another %s of the host", r.URL, what, what)
	}
}

// scanOtherAgent flags robots.txt fetches whose User-Agent header is not
// the one the run's pages were requested with; fetches with the pages'
// header contradict.
func scanOtherAgent(run []Request) ([]int, int, func(Request) string) {
	pages := map[string]int{}
	for _, r := range run {
		if !r.Robots {
			pages[r.UserAgent]++
		}
	}
	if len(pages) != 1 {
		return nil, 0, nil // no pages, or pages under several headers
	}
	var flagged []int
	contradicts := 0
	for i, r := range run {
		switch {
		case !r.Robots:
		case pages[r.UserAgent] == 0:
			flagged = append(flagged, i)
		default:
			contradicts++
		}
	}
	return flagged, contradicts, func(r Request) string {
		return fmt.Sprintf("%s was fetched with User-Agent %q, not the pages' one", r.URL, r.UserAgent)
	}
}

// crawl recognises the crawler-only misreadings in the parser's requests.
// It takes the departures they account for off f.dep, and returns their
// behaviours and the requests they account for that are no question's
// departure (which count as departures too).
func (f *parserFit) crawl(d *result.Diagnosis) ([]result.Behaviour, int) {
	runs := map[int][]Request{}
	var order []int
	for _, r := range f.e.ev.Requests {
		if r.Parser != f.col {
			continue
		}
		if _, ok := runs[r.Run]; !ok {
			order = append(order, r.Run)
		}
		runs[r.Run] = append(runs[r.Run], r)
	}
	if len(order) == 0 {
		for _, c := range crawlRules {
			d.Untested = append(d.Untested, c.id)
		}
		return nil, 0
	}
	depKey := map[string]int32{}
	for _, p := range f.dep {
		if k := f.e.question(p).Key; k != "" {
			depKey[k] = p
		}
	}
	var out []result.Behaviour
	extra := 0
	explained := map[int32]bool{}
	for _, c := range crawlRules {
		b, more, tested := f.crawlRule(c, order, runs, depKey, explained)
		if !tested {
			d.Untested = append(d.Untested, c.id)
		}
		if b != nil {
			out = append(out, *b)
			extra += more
		}
	}
	f.dep = slices.DeleteFunc(f.dep, func(p int32) bool { return explained[p] })
	return out, extra
}

// crawlRule applies one rule to every run and returns its behaviour when
// claimed, with the requests it accounts for that are no departure.
func (f *parserFit) crawlRule(c crawlRule, order []int, runs map[int][]Request, depKey map[string]int32, explained map[int32]bool) (*result.Behaviour, int, bool) {
	var flagged []Request
	contradicts := 0
	var note func(Request) string
	for _, run := range order {
		idx, n, nt := c.scan(runs[run])
		contradicts += n
		for _, i := range idx {
			flagged = append(flagged, runs[run][i])
		}
		if nt != nil {
			note = nt
		}
	}
	tested := len(flagged)+contradicts > 0
	if len(flagged) < MinCrawlExplains || contradicts*ContradictShare > len(flagged) {
		return nil, 0, tested
	}
	m, _ := lookup(c.id)
	b := &result.Behaviour{ID: c.id, Title: m.Title, RFC: m.RFC, Req: slices.Clone(m.Req),
		Explains: len(flagged), Contradicts: contradicts}
	more := 0
	origins := map[string]bool{}
	for _, r := range flagged {
		origins[r.Origin] = true
		if p, ok := depKey[r.Key]; ok && !explained[p] {
			explained[p] = true
			continue
		}
		more++
	}
	b.Files = len(origins)
	r := flagged[0]
	b.Example = &result.Example{Agent: r.UserAgent, URL: r.URL, Note: note(r)}
	return b, more, tested
}
