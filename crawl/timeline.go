package crawl

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// ClockStep is one step of a timeline scenario as the site plays it:
// from the time At on (since the crawl began, on the fake clock) the
// case's origin serves Robots, and the page Page, whose request moves the
// clock to At, links the step's checks and controls.
type ClockStep struct {
	At     time.Duration
	Robots cases.Response
	// Page is the step's page on the clock origin. The start page is the
	// first step's; each links the next.
	Page string
	// Checks are the indices (as cases.Case.AllChecks numbers them) of
	// the agent's checks made at this step.
	Checks []int
	// Controls are URLs of the case's origin that the step's file allows
	// and no rule touches where possible, marked with the step.
	Controls []string
}

// Timeline pacing. The clock origin is the case's host on a port of its
// own (a different authority, so that an outage of the case's origin
// does not stop the crawl), whose robots.txt allows everything.
const (
	clockPort  = "8079"
	clockPath  = "/reptest-clock/step-%d.html"
	stepMarker = "reptest-step"
	// stepMinGap is the shortest gap between two steps the site can play
	// apart: a step lasts a few real seconds on the clock, which runs at
	// the real rate between steps.
	stepMinGap = time.Minute
	// stepPause is how long a step's page is held back before the clock
	// moves: a crawler that fetches the step before's links at the same
	// time as the page still fetches them on that step's time.
	stepPause = 500 * time.Millisecond
)

// clockRobots is the clock origin's robots.txt.
var clockRobots = []byte("User-agent: *\nAllow: /\n")

// marked returns u with the step's marker query parameter, the URL
// under which the check or control of step k is linked: a crawler
// requests a URL once per run, and the steps ask about the same paths.
func marked(u string, k int) string {
	p := stepMarker + "=" + fmt.Sprint(k)
	u, _, _ = strings.Cut(u, "#")
	if strings.Contains(u, "?") {
		return u + "&" + p
	}
	return u + "?" + p
}

// buildTimeline builds the scenario of a timeline case.
func (s *Scenario) buildTimeline() {
	c := s.Case
	all := c.AllChecks()
	origin := OriginOf(c.Timeline[0].Response.URL)
	opts, _ := reference.OptionsFor(c.Profile)
	for k := 1; k < len(c.Timeline); k++ {
		if gap := c.Timeline[k].At - c.Timeline[k-1].At; gap < stepMinGap {
			s.Skip = fmt.Sprintf("steps %s and %s are %s apart; reptest crawl plays a step within %s of its time, so it cannot tell them apart", cases.FormatAt(c.Timeline[k-1].At), cases.FormatAt(c.Timeline[k].At), gap, stepMinGap)
			return
		}
	}
	if !reference.IsProductToken(s.Agent) {
		s.Skip = fmt.Sprintf("the agent %q is not a product token", s.Agent)
		return
	}
	hub, err := clockOrigin(origin)
	if err != nil {
		s.Skip = err.Error()
		return
	}
	files := make([]*reference.Result, len(c.Timeline))
	for k, st := range c.Timeline {
		if st.Response.Status >= 300 && st.Response.Status < 400 || st.Response.Delay > 0 || st.Response.Gen != nil {
			s.Skip = "a timeline step that redirects, holds back or generates its body is not played by reptest crawl"
			return
		}
		files[k] = reference.FromStatus(stepStatus(st.Response), st.Response.Body, opts)
	}
	s.Origins = []string{origin, hub}
	routes := map[string]bool{routeOf(origin + "/robots.txt"): true}
	s.Responses = []cases.Response{{URL: hub + "/robots.txt", Status: http.StatusOK, Body: clockRobots}}
	routes[routeOf(hub+"/robots.txt")] = true
	s.Marked = map[int]string{}
	idx := 0
	for k, st := range c.Timeline {
		cs := ClockStep{At: st.At, Robots: st.Response, Page: hub + fmt.Sprintf(clockPath, k)}
		cs.Robots.URL = origin + "/robots.txt"
		routes[routeOf(cs.Page)] = true
		for range st.Checks {
			if slices.Contains(s.Checks, idx) {
				if why := s.markCheck(idx, k, all[idx].URL, files); why != "" {
					s.Skip = why
					return
				}
				cs.Checks = append(cs.Checks, idx)
			}
			idx++
		}
		for _, p := range pickPaths(files[k], s.Agent, origin, controlPaths, routes, 2, true) {
			cs.Controls = append(cs.Controls, marked(origin+p, k))
		}
		s.Steps = append(s.Steps, cs)
	}
	s.Start = s.Steps[0].Page
	for _, st := range s.Steps {
		for _, i := range st.Checks {
			s.addPage(s.Marked[i], routes)
		}
		for _, u := range st.Controls {
			s.addPage(u, routes)
		}
	}
}

// markCheck records the URL under which check i of step k is linked,
// unless the marker would change a decision of one of the steps' files.
func (s *Scenario) markCheck(i, k int, u string, files []*reference.Result) string {
	m := marked(u, k)
	for _, f := range files {
		if decide(f, s.Agent, m).Allowed != decide(f, s.Agent, u).Allowed {
			return fmt.Sprintf("the step marker ?%s= changes a decision for %s, so the check cannot be linked under a URL of its step", stepMarker, u)
		}
	}
	s.Marked[i] = m
	return ""
}

// clockOrigin is the origin of the clock pages: the case origin's host on
// clockPort, over http.
func clockOrigin(origin string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return "", fmt.Errorf("a timeline case's origin %q has no host", origin)
	}
	if u.Port() == clockPort {
		return "", fmt.Errorf("a timeline case's origin %s uses port %s, which reptest crawl keeps for its clock pages", origin, clockPort)
	}
	return "http://" + u.Hostname() + ":" + clockPort, nil
}

// stepStatus is the status a step's response is fetched with; 0 for a
// network fault.
func stepStatus(r cases.Response) int {
	if r.Fault == "reset" || r.Fault == "timeout" {
		return 0
	}
	return r.Status
}

// stepOf returns the step of the timeline scenario that check i is made
// at.
func (s *Scenario) stepOf(i int) (int, bool) {
	for k, st := range s.Steps {
		if slices.Contains(st.Checks, i) {
			return k, true
		}
	}
	return 0, false
}

// pages returns the HTML pages of the scenario's chain: for a timeline,
// one per step, each linking its step's checks and controls and the next
// step's page.
func (s *Scenario) pages(link func(string) (string, error)) ([]cases.Response, error) {
	var out []cases.Response
	for k, st := range s.Steps {
		var us []string
		for _, i := range st.Checks {
			us = append(us, s.Marked[i])
		}
		us = append(us, st.Controls...)
		if k+1 < len(s.Steps) {
			us = append(us, s.Steps[k+1].Page)
		}
		page, err := linkPage(st.Page, us, link)
		if err != nil {
			return nil, err
		}
		out = append(out, page)
	}
	return out, nil
}

// timelineVersions returns the versions of the case origin's robots.txt,
// one per step, from zero (the fake time the crawl began at) on.
func (s *Scenario) timelineVersions(zero time.Time) []Version {
	opts, _ := reference.OptionsFor(s.Case.Profile)
	var out []Version
	for _, st := range s.Steps {
		r := st.Robots
		out = append(out, Version{Origin: s.Origins[0], From: zero.Add(st.At), Status: stepStatus(r), Body: r.Body,
			Label: fmt.Sprintf("%s at %s", r.URL, cases.FormatAt(st.At)), res: reference.FromStatus(stepStatus(r), r.Body, opts)})
	}
	return out
}
