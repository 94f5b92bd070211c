package crawl

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// The number of access-check slots each agent of a case has: the access
// checks of agent k are numbered after the case's own checks, from
// len(checks) + k*accessSlots on, so that their numbers do not depend on
// what a crawler did.
const accessSlots = 8

// Access-check slots.
const (
	slotOrder = iota
	slotAuthorities
	slotUnreachable
	slotRedirect
	slotDelay
)

// Judge turns a run into results: one per check of the scenario's agent,
// then one per access check the scenario has, whose levels come from the
// requirement table reqs.
func Judge(run Run, crawler string, reqs result.Table) []result.Result {
	versions := run.Versions
	sc := run.Scenario
	c := sc.Case
	all := c.AllChecks()
	var out []result.Result
	base := func(idx int, url string, expect result.Verdict) result.Result {
		return result.Result{Case: c.ID, Check: idx, Parser: crawler, Agent: sc.Agent, URL: url,
			Expect: expect, Level: c.Level, Req: c.Req, Profile: c.Profile, Title: c.Title}
	}
	if sc.Skip != "" {
		for _, i := range sc.Checks {
			r := base(i, all[i].URL, all[i].Expect)
			r.Accept, r.Rule, r.Outcome, r.Detail = all[i].Accept, all[i].Rule, result.Skipped, sc.Skip
			out = append(out, r)
		}
		return out
	}
	if failure := run.failure(); failure != "" {
		detail := failure + outputNote(run)
		for _, i := range sc.Checks {
			r := base(i, all[i].URL, all[i].Expect)
			r.Accept, r.Rule, r.Outcome, r.Detail = all[i].Accept, all[i].Rule, result.Error, detail
			out = append(out, r)
		}
		return out
	}
	ev := evidence{run: run, js: run.judgements(), reqs: reqs}
	for _, i := range sc.Checks {
		chk := all[i]
		r := base(i, chk.URL, chk.Expect)
		r.Accept, r.Rule = chk.Accept, chk.Rule
		judgeCheck(&r, i, chk, c.Level, &ev, sc)
		out = append(out, r)
	}
	for _, a := range accessChecks(sc, versions, &ev) {
		r := base(len(all)+sc.AgentIndex*accessSlots+a.slot, a.url, result.Disallow)
		r.Req, r.Level, r.Title = []string{a.req}, a.level, a.title
		r.Verdict, r.Outcome, r.Detail, r.Trace = a.verdict, a.outcome, a.detail, a.trace
		out = append(out, r)
	}
	return out
}

// failure says why a run does not count: what stopped it, or that the
// crawler made no request at all (a crawler that did not run never
// passes).
func (run *Run) failure() string {
	if run.Failure == "" && len(run.Log) == 0 {
		return "the crawler made no request"
	}
	return run.Failure
}

// judgeCheck judges one check of the corpus by whether its URL was
// requested.
func judgeCheck(r *result.Result, i int, chk *cases.Check, level result.Level, ev *evidence, sc *Scenario) {
	if chk.Invalid != "" {
		r.Outcome, r.Detail = result.Skipped, chk.Invalid
		return
	}
	origin := OriginOf(chk.URL)
	u, controls, page, step := sc.linkedAs(i, chk)
	if page != "" {
		r.Step = step
	}
	k := ev.find(u)
	switch {
	case k >= 0:
		r.Verdict = result.Allow
	case ev.anyOf(controls):
		r.Verdict = result.Disallow
	case chk.Expect == result.Disallow && page == "" && ev.touched(origin):
		r.Verdict = result.Disallow
	case chk.Expect == result.Disallow && page != "" && ev.find(page) >= 0:
		r.Verdict = result.Disallow
	case page != "" && ev.find(page) < 0:
		r.Outcome = result.Skipped
		r.Detail = "inconclusive: the crawler never requested " + page + ", the page of the step at " + step +
			" (a crawl depth of at least the number of steps is needed)" + ev.timeline(origin)
		return
	default:
		r.Outcome = result.Skipped
		r.Detail = "inconclusive: the crawler requested no control link of " + origin + stepNote(step) +
			", so not requesting this URL says nothing about its verdict" + ev.timeline(origin)
		return
	}
	r.Outcome = result.OutcomeOf(level, chk.Expect, chk.Accept, r.Verdict)
	if r.Outcome == result.Pass {
		return
	}
	if k >= 0 {
		j := ev.js[k]
		r.Detail = fmt.Sprintf("the crawler requested it (%s): %s", ev.at(k), j.Why) + ev.timeline(origin)
		if j.Decision != nil {
			r.Trace = explain(*j.Decision)
		}
		return
	}
	r.Detail = "the crawler requested control links of " + origin + stepNote(step) + " but not this URL" + ev.timeline(origin)
	r.Trace = ev.trace(sc, chk.URL)
}

// gradeOptions are the grader's options for the scenario's requests: a
// timeline's requests are judged with the 24-hour cache grace (CACHE-2).
func (s *Scenario) gradeOptions() Options {
	opts, _ := reference.OptionsFor(s.Case.Profile)
	o := Options{Reference: opts, Agent: func(string, []string) string { return s.Agent }}
	if s.Steps != nil {
		o.Grace = 24 * time.Hour
	}
	return o
}

// linkedAs returns how check i is linked: its URL on the site, the
// control links that show the crawler could have requested it, and for
// a timeline the page of its step and the step's time.
func (s *Scenario) linkedAs(i int, chk *cases.Check) (u string, controls []string, page, step string) {
	k, ok := s.stepOf(i)
	if !ok {
		return chk.URL, s.Controls[OriginOf(chk.URL)], "", ""
	}
	st := s.Steps[k]
	return s.Marked[i], st.Controls, st.Page, cases.FormatAt(st.At)
}

// stepNote names a timeline step in a detail.
func stepNote(step string) string {
	if step == "" {
		return ""
	}
	return " at the step at " + step
}

// explain formats the reference's decision for a report. When the
// reference's own fetch of the served file failed, as the scenario meant
// it to, its socket error ("read tcp 127.0.0.1:…") is left out: it says
// nothing about the crawler, and the access outcome says what happened.
func explain(d reference.Decision) string {
	if f := d.Fetch; f != nil && f.Error != "" {
		g := *f
		g.Why = strings.TrimSuffix(g.Why, ": "+g.Error)
		d.Fetch = &g
	}
	return d.String()
}

// trace is the reference's decision for u under the file in force.
func (e *evidence) trace(sc *Scenario, u string) string {
	opts, _ := reference.OptionsFor(sc.Case.Profile)
	for i := range e.run.Versions {
		if v := &e.run.Versions[i]; v.Origin == OriginOf(u) {
			return explain(v.Decide(sc.Agent, u, opts))
		}
	}
	return ""
}

// evidence is a graded run with the lookups the checks need.
type evidence struct {
	run  Run
	js   []Judgement
	reqs result.Table
}

// level returns the level of requirement id for the run's case; a table
// without id gives "", which fails like a note and never as a violation.
func (e *evidence) level(id string) result.Level {
	l, _ := e.reqs.Level(id, e.run.Scenario.Case.Profile)
	return l
}

// find returns the index of the first request for u, or -1.
func (e *evidence) find(u string) int {
	for i, j := range e.js {
		if sameResource(j.Request.URL, u) {
			return i
		}
	}
	return -1
}

func (e *evidence) anyOf(us []string) bool {
	for _, u := range us {
		if e.find(u) >= 0 {
			return true
		}
	}
	return false
}

// touched reports whether the crawler asked anything of origin.
func (e *evidence) touched(origin string) bool {
	for _, j := range e.js {
		if j.Origin == origin {
			return true
		}
	}
	return false
}

func (e *evidence) at(i int) string {
	return since(e.js[i].Request.Time, e.js[0].Request.Time)
}

// maxTimeline bounds the requests a timeline shows.
const maxTimeline = 40

// timeline renders the run's requests in order (time, method, URL, status,
// how each was judged) for a failure's detail; requests of other origins
// than origin are counted, not shown, when there are many.
func (e *evidence) timeline(origin string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nrequests (User-Agent %q):", e.run.Log[0].UserAgent)
	shown := 0
	for i, j := range e.js {
		if shown == maxTimeline {
			fmt.Fprintf(&b, "\n  … %d more", len(e.js)-i)
			break
		}
		if j.Request.UserAgent != e.run.Log[0].UserAgent {
			fmt.Fprintf(&b, "\n  (User-Agent %q)", j.Request.UserAgent)
		}
		fmt.Fprintf(&b, "\n  %s %s %s → %s: %s", e.at(i), j.Request.Method, j.Request.URL, statusOf(j.Request), judged(j))
		shown++
	}
	return b.String()
}

func statusOf(r Request) string {
	if r.Fault != "" {
		return r.Fault
	}
	if r.Status == 0 {
		return "no response"
	}
	return fmt.Sprint(r.Status)
}

// answer says in words what the site answered a request: the status and
// its name, where a redirect led, or the fault served instead.
func answer(r Request) string {
	switch r.Fault {
	case "reset":
		return "connection closed before any response"
	case "timeout":
		return "no response: the site stayed silent past the crawler's timeout"
	case "truncated":
		return fmt.Sprintf("%d, then the body cut short of its Content-Length", r.Status)
	case "":
	default:
		return "fault: " + r.Fault
	}
	if r.Status == 0 {
		return "no response"
	}
	s := fmt.Sprintf("%d %s", r.Status, http.StatusText(r.Status))
	if http.StatusText(r.Status) == "" {
		s = fmt.Sprintf("%d (a status with no name)", r.Status)
	}
	if r.Location != "" {
		s += ", to " + r.Location
	}
	return s
}

// judged is a judgement as a text timeline shows it.
func judged(j Judgement) string {
	if j.Tier == TierRobots {
		return "robots.txt: " + j.Why
	}
	return strings.TrimSpace(string(j.Tier) + " " + account(j))
}

// account explains a judgement without naming its tier: the decision,
// and for a violation the requirement and why.
func account(j Judgement) string {
	if j.Tier == TierRobots {
		return j.Why
	}
	var parts []string
	if j.Decision != nil {
		parts = append(parts, "("+explain(*j.Decision)+")")
	}
	if j.Tier == TierViolation {
		parts = append(parts, j.Req+": "+j.Why)
	}
	return strings.Join(parts, " ")
}

func outputNote(run Run) string {
	s := ""
	if run.Exit != "" {
		s += "\n" + run.Exit
	}
	if out := strings.TrimSpace(run.Output); out != "" {
		s += "\noutput (end):\n" + out
	}
	return s
}

// accessCheck is one access-method check of a scenario.
type accessCheck struct {
	slot    int
	req     string
	level   result.Level
	title   string
	url     string
	verdict result.Verdict
	outcome result.Outcome
	detail  string
	trace   string
}

// accessChecks judges what only a crawler's requests show. Which checks a
// scenario has depends on the scenario alone.
func accessChecks(sc *Scenario, versions []Version, ev *evidence) []accessCheck {
	out := []accessCheck{orderCheck(sc, ev), authoritiesCheck(sc, ev)}
	if a, ok := unreachableCheck(sc, versions, ev); ok {
		out = append(out, a)
	}
	if a, ok := redirectCheck(sc, ev); ok {
		out = append(out, a)
	}
	if a, ok := delayCheck(sc, versions, ev); ok {
		out = append(out, a)
	}
	return out
}

// verdictOf sets a check's verdict and outcome: bad means the crawler did
// what it must not (verdict allow against the expected disallow).
func (a *accessCheck) verdictOf(bad bool) {
	a.verdict, a.outcome = result.Disallow, result.Pass
	if bad {
		a.verdict = result.Allow
		a.outcome = result.OutcomeOf(a.level, result.Disallow, nil, result.Allow)
	}
}

// orderCheck: the first request to each origin is its robots.txt
// (ACC-10), judged once per run on the first request of each origin. The
// start URL is the user's choice, not the crawler's: fetching it before
// robots.txt is no deviation, and the origin's next request decides.
func orderCheck(sc *Scenario, ev *evidence) accessCheck {
	a := accessCheck{slot: slotOrder, req: "ACC-10", level: ev.level("ACC-10"), url: sc.Start,
		title: "access: each authority's robots.txt is fetched before anything else of it (the start URL aside)"}
	decided := map[string]bool{}
	for i, j := range ev.js {
		if sameResource(j.Request.URL, sc.Start) || decided[j.Origin] {
			continue
		}
		decided[j.Origin] = true
		if j.Before && j.Tier != TierRobots {
			a.url = j.Request.URL
			a.verdictOf(true)
			a.detail = fmt.Sprintf("%s was requested (%s) before any robots.txt of %s", j.Request.URL, ev.at(i), j.Origin) + ev.timeline(j.Origin)
			return a
		}
	}
	a.verdictOf(false)
	return a
}

// authoritiesCheck: every origin the crawler requested a resource of had
// its own robots.txt fetched (ACC-1).
func authoritiesCheck(sc *Scenario, ev *evidence) accessCheck {
	a := accessCheck{slot: slotAuthorities, req: "ACC-1", level: ev.level("ACC-1"), url: sc.Start,
		title: "access: a robots.txt is fetched for each scheme, host and port the crawler visits"}
	fetched := map[string]bool{}
	for _, j := range ev.js {
		if j.Tier == TierRobots && IsRobotsTxt(j.Request.URL) {
			fetched[j.Origin] = true
		}
	}
	for _, j := range ev.js {
		if j.Tier != TierRobots && !fetched[j.Origin] {
			a.url = j.Request.URL
			a.verdictOf(true)
			a.detail = fmt.Sprintf("%s/robots.txt was never requested, but %s was", j.Origin, j.Request.URL) + ev.timeline(j.Origin)
			return a
		}
	}
	a.verdictOf(false)
	return a
}

// unreachableCheck: after a robots.txt fetch found the file unreachable,
// nothing else of that origin was requested (ACC-7).
func unreachableCheck(sc *Scenario, versions []Version, ev *evidence) (accessCheck, bool) {
	a := accessCheck{slot: slotUnreachable, req: "ACC-7", level: ev.level("ACC-7"),
		title: "access: nothing is requested from an authority whose robots.txt is unreachable"}
	applies := false
	for _, v := range versions {
		if v.res != nil && v.res.Info.Access == reference.NotReachable {
			applies, a.url = true, v.Origin+"/robots.txt"
		}
	}
	if !applies {
		return a, false
	}
	for i, j := range ev.js {
		if j.Tier == TierViolation && j.Req == "ACC-7" {
			a.url = j.Request.URL
			a.verdictOf(true)
			a.detail = fmt.Sprintf("%s was requested (%s): %s", j.Request.URL, ev.at(i), j.Why) + ev.timeline(j.Origin)
			return a, true
		}
	}
	a.verdictOf(false)
	return a, true
}

// redirectCheck: a robots.txt that redirects is followed to its target
// (ACC-3).
func redirectCheck(sc *Scenario, ev *evidence) (accessCheck, bool) {
	a := accessCheck{slot: slotRedirect, req: "ACC-3", level: ev.level("ACC-3"),
		title: "access: a redirect of robots.txt is followed"}
	var target string
	for _, r := range sc.Responses {
		if IsRobotsTxt(r.URL) && r.Status >= 300 && r.Status < 400 {
			for k, v := range r.Headers {
				if strings.EqualFold(k, "Location") {
					a.url, target = r.URL, resolveRef(r.URL, v)
				}
			}
		}
	}
	if target == "" {
		return a, false
	}
	asked := ev.find(a.url) >= 0
	followed := ev.find(target) >= 0
	switch {
	case !asked:
		a.verdictOf(false)
		a.outcome, a.detail = result.Skipped, "inconclusive: the crawler never requested "+a.url
	case followed:
		a.verdictOf(false)
	default:
		a.verdictOf(true)
		a.detail = fmt.Sprintf("%s redirects to %s, which the crawler never requested", a.url, target) + ev.timeline(OriginOf(a.url))
	}
	return a, true
}

// delayCheck compares the shortest interval between the crawler's
// requests with a crawl-delay of its group (informational, OTH-4).
func delayCheck(sc *Scenario, versions []Version, ev *evidence) (accessCheck, bool) {
	a := accessCheck{slot: slotDelay, req: "OTH-4", level: ev.level("OTH-4"),
		title: "access: requests are spaced by the crawl-delay (informational)"}
	var delay time.Duration
	for _, v := range versions {
		if d, ok := crawlDelay(v, sc.Agent); ok {
			delay, a.url = d, v.Origin+"/robots.txt"
		}
	}
	if a.url == "" {
		return a, false
	}
	var prev time.Time
	shortest := time.Duration(-1)
	for _, j := range ev.js {
		if j.Tier == TierRobots {
			continue
		}
		if !prev.IsZero() {
			if d := j.Request.Time.Sub(prev); shortest < 0 || d < shortest {
				shortest = d
			}
		}
		prev = j.Request.Time
	}
	a.verdictOf(shortest >= 0 && shortest < delay)
	a.detail = fmt.Sprintf("crawl-delay %s; shortest interval between requests %s (informational: the RFC defines no crawl-delay)", delay, shortest.Round(time.Millisecond))
	if shortest < 0 {
		a.detail = fmt.Sprintf("crawl-delay %s; fewer than two requests besides robots.txt", delay)
	}
	return a, true
}

// crawlDelay returns the crawl-delay of the agent's group, or of "*".
func crawlDelay(v Version, agent string) (time.Duration, bool) {
	if v.res == nil || v.res.Robots == nil {
		return 0, false
	}
	d, err := v.res.Robots.Decide(agent, "/")
	if err != nil || d.Group == "" {
		return 0, false
	}
	for _, rec := range v.res.Robots.Records() {
		if !strings.EqualFold(rec.Key, "crawl-delay") || !inGroup(rec.Line, d.GroupLines, v.res.Robots) {
			continue
		}
		var secs float64
		if _, err := fmt.Sscan(rec.Value, &secs); err == nil && secs > 0 {
			return time.Duration(secs * float64(time.Second)), true
		}
	}
	return 0, false
}

// inGroup reports whether line stands in one of the groups whose
// user-agent lines are uaLines: after one of them and before the next
// user-agent line that opens a new group.
func inGroup(line int, uaLines []int, rb *reference.Robots) bool {
	start := 0
	for _, l := range uaLines {
		if l < line && l > start {
			start = l
		}
	}
	if start == 0 {
		return false
	}
	rule := false
	for _, l := range rb.Lines() {
		if l.Number <= start || l.Number >= line {
			continue
		}
		switch l.Kind {
		case reference.Allow, reference.Disallow:
			rule = true
		case reference.UserAgent:
			if rule {
				return false
			}
		}
	}
	return !slices.Contains(uaLines, line)
}

// Timeline is the run as the HTML report's request timeline shows it.
func Timeline(run Run, crawler string) result.CrawlRun {
	sc := run.Scenario
	tl := result.CrawlRun{Crawler: crawler, Case: sc.Case.ID, Agent: sc.Agent, Start: run.Start, Failure: run.failure()}
	if tl.Failure != "" {
		tl.Failure += outputNote(run)
	}
	if len(run.Log) == 0 {
		return tl
	}
	for _, j := range run.judgements() {
		r := j.Request
		tl.Requests = append(tl.Requests, result.CrawlRequest{At: since(r.Time, run.Log[0].Time), Method: r.Method, URL: r.URL,
			UserAgent: r.UserAgent, Status: statusOf(r), Answer: answer(r), Tier: string(j.Tier), Judged: account(j)})
	}
	return tl
}

// Timelines returns the timelines of the runs that have a result other
// than pass or skipped among results.
func Timelines(runs []Run, results []result.Result, crawler string) []result.CrawlRun {
	bad := map[[2]string]bool{}
	for _, r := range results {
		if r.Outcome != result.Pass && r.Outcome != result.Skipped {
			bad[[2]string{r.Case, r.Agent}] = true
		}
	}
	var out []result.CrawlRun
	for _, run := range runs {
		if bad[[2]string{run.Scenario.Case.ID, run.Scenario.Agent}] {
			out = append(out, Timeline(run, crawler))
		}
	}
	return out
}
