package crawl

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// Scenario is one crawler run: one case seen by one agent. Its site serves
// the case's robots.txt (a parse case's body with 200, a fetch case's
// responses as they are), a start page that links every check URL of the
// agent and, per origin, control links that no rule touches, and a small
// page at every check URL.
type Scenario struct {
	Case  *cases.Case
	Agent string
	// AgentIndex numbers the agent among the case's agents; it keeps the
	// access checks of two agents of one case apart.
	AgentIndex int
	// Start is the start URL, on the case's origins.
	Start string
	// Checks are the indices (as cases.Case.AllChecks numbers them) of the
	// agent's checks.
	Checks []int
	// Origins are the origins of the agent's checks, in order of first
	// appearance; the start page is on the first.
	Origins []string
	// Controls holds per origin the control URLs: allowed, and matched by
	// no rule when the file allows that.
	Controls map[string][]string
	// Responses is everything the site serves.
	Responses []cases.Response
	// Skip, when set, says why the scenario cannot be run.
	Skip string
	// Steps are a timeline case's steps as the site plays them on its
	// fake clock; nil for other cases.
	Steps []ClockStep
	// Marked maps, for a timeline case, each check to the URL under
	// which its step links it.
	Marked map[int]string
}

// Scenarios returns the scenarios of a case: one per agent of its checks,
// in the order the agents first appear.
func Scenarios(c *cases.Case) []Scenario {
	var out []Scenario
	seen := map[string]int{}
	all := c.AllChecks()
	for i, chk := range all {
		k, ok := seen[chk.Agent]
		if !ok {
			k = len(out)
			seen[chk.Agent] = k
			out = append(out, Scenario{Case: c, Agent: chk.Agent, AgentIndex: k})
		}
		out[k].Checks = append(out[k].Checks, i)
	}
	for i := range out {
		out[i].build()
	}
	return out
}

// controlPaths are tried in turn as control links.
var controlPaths = []string{"/reptest-control/page.html", "/~control", "/Z/control.htm", "/zz-reptest-control"}

// startPaths are tried in turn for the start page.
var startPaths = []string{"/", "/index.html", "/reptest-start/", "/zz-reptest-start"}

func (s *Scenario) build() {
	c := s.Case
	if len(c.Timeline) > 0 {
		s.buildTimeline()
		return
	}
	for _, r := range c.Fetch {
		if r.Delay > 0 {
			s.Skip = fmt.Sprintf("a body held back %s is a failure only past the client's own timeout, which reptest crawl does not set", r.Delay)
			return
		}
	}
	all := c.AllChecks()
	origins := []string{}
	seenOrigin := map[string]bool{}
	for _, i := range s.Checks {
		o, err := reference.Origin(all[i].URL)
		if err != nil {
			continue
		}
		if !seenOrigin[o] {
			seenOrigin[o] = true
			origins = append(origins, o)
		}
	}
	if len(origins) == 0 {
		s.Skip = "no check URL of the agent is an http or https URL"
		return
	}
	if !reference.IsProductToken(s.Agent) {
		s.Skip = fmt.Sprintf("the agent %q is not a product token", s.Agent)
		return
	}
	s.Origins = origins
	routes := map[string]bool{}
	if c.Robots != nil {
		for _, o := range origins {
			s.Responses = append(s.Responses, cases.Response{URL: o + "/robots.txt", Status: http.StatusOK, Body: c.Robots})
		}
	} else {
		s.Responses = append(s.Responses, c.Fetch...)
	}
	for _, r := range s.Responses {
		routes[routeOf(r.URL)] = true
	}
	rules := s.rules(origins)
	s.Controls = map[string][]string{}
	for _, o := range origins {
		for _, p := range pickPaths(rules[o], s.Agent, o, controlPaths, routes, 2, true) {
			s.Controls[o] = append(s.Controls[o], o+p)
			s.addPage(o+p, routes)
		}
	}
	// The start page goes on the first origin that allows one, so that a
	// site whose main origin disallows everything still shows its other
	// origins' links.
	for _, o := range origins {
		if start := pickPaths(rules[o], s.Agent, o, startPaths, routes, 1, false); len(start) > 0 {
			s.Start = o + start[0]
			break
		}
	}
	if s.Start == "" {
		s.Start = origins[0] + startPaths[len(startPaths)-1]
	}
	routes[routeOf(s.Start)] = true
	for _, i := range s.Checks {
		s.addPage(all[i].URL, routes)
	}
}

// rules returns, per origin, the robots.txt as the case serves it, read
// without the network: a parse case's body, or a fetch case's response
// at the robots.txt URL (redirects are not followed here; controls are
// only candidates, checked against what was fetched when judged).
func (s *Scenario) rules(origins []string) map[string]*reference.Result {
	opts, _ := reference.OptionsFor(s.Case.Profile)
	out := map[string]*reference.Result{}
	for _, o := range origins {
		if s.Case.Robots != nil {
			out[o] = reference.FromStatus(http.StatusOK, s.Case.Robots, opts)
			continue
		}
		for _, r := range s.Case.Fetch {
			if routeOf(r.URL) == routeOf(o+"/robots.txt") && r.Fault == "" && r.Gen == nil {
				out[o] = reference.FromStatus(r.Status, r.Body, opts)
			}
		}
		if out[o] == nil {
			out[o] = reference.FromStatus(http.StatusOK, nil, opts)
		}
	}
	return out
}

// pickPaths returns up to n of the candidate paths that the file allows
// the agent and that are not served already; with untouched, a path
// that no rule matches is preferred to one a rule allows.
func pickPaths(res *reference.Result, agent, origin string, candidates []string, routes map[string]bool, n int, untouched bool) []string {
	var first, second []string
	suffix := strings.TrimPrefix(candidates[len(candidates)-1], "/")
	for _, p := range append(slices.Clip(candidates), underAllows(res, suffix)...) {
		if routes[routeOf(origin+p)] {
			continue
		}
		d, err := res.Decide(agent, origin+p)
		switch {
		case err != nil || !d.Allowed:
		case untouched && d.Reason == reference.RuleMatched:
			second = append(second, p)
		default:
			first = append(first, p)
		}
	}
	out := append(first, second...)
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// underAllows derives more candidate paths from the file's allow rules:
// each rule's literal start with suffix appended, a path that rule allows
// where a broader rule may disallow everything else.
func underAllows(res *reference.Result, suffix string) []string {
	if res.Robots == nil {
		return nil
	}
	var out []string
	for _, l := range res.Robots.Lines() {
		if l.Kind != reference.Allow || !strings.HasPrefix(l.Value, "/") {
			continue
		}
		lit, _, _ := strings.Cut(l.Value, "*")
		out = append(out, strings.TrimSuffix(lit, "$")+suffix)
	}
	return out
}

// addPage serves a small HTML page at u unless something is served there.
func (s *Scenario) addPage(u string, routes map[string]bool) {
	key := routeOf(u)
	if routes[key] {
		return
	}
	routes[key] = true
	s.Responses = append(s.Responses, cases.Response{
		URL: u, Status: http.StatusOK,
		Headers: map[string]string{"Content-Type": "text/html; charset=utf-8"},
		Body:    []byte("<!doctype html><title>reptest</title><p>A page of the reptest crawl site.</p>\n"),
	})
}

// routeOf is the key two spellings of one resource share.
func routeOf(u string) string {
	return OriginOf(u) + "\x00" + matchedPath(u)
}

// LinkURLs returns every URL the start page links: the agent's check
// URLs, then the controls, each once.
func (s *Scenario) LinkURLs() []string {
	all := s.Case.AllChecks()
	var out []string
	seen := map[string]bool{}
	add := func(u string) {
		if k := routeOf(u); !seen[k] {
			seen[k] = true
			out = append(out, u)
		}
	}
	for _, i := range s.Checks {
		add(strings.SplitN(all[i].URL, "#", 2)[0])
	}
	for _, o := range s.Origins {
		for _, u := range s.Controls[o] {
			add(u)
		}
	}
	return out
}

// servedOrigins returns every origin the site serves: those of the
// checks, of the responses and of the redirect targets they name.
func (s *Scenario) servedOrigins() []string {
	out := append([]string{}, s.Origins...)
	add := func(u string) {
		if o := OriginOf(u); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	for _, r := range s.Responses {
		add(r.URL)
		for k, v := range r.Headers {
			if strings.EqualFold(k, "Location") {
				add(resolveRef(r.URL, v))
			}
		}
	}
	return out
}
