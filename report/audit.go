package report

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reptest/reptest/result"
)

//go:embed html/audit.html.tmpl
var auditTemplate string

// timelineView is one agent's timeline as the page draws it: at most
// timelineCols columns of stacked bars, whatever the log's size.
type timelineView struct {
	Agent               string
	Requests, Violation int
	// Verified and Claimed split the requests and violations when the
	// log or --verified-ranges told verified bots apart.
	Verified, Claimed *result.TierCounts
	From, Until, Col  string
	Max               int
	Bars              []tlRect
	Marks             []tlMark // fetches and violations under the axis
	Versions          []tlVersion
}

type tlRect struct {
	Class      string
	X, Y, W, H float64
	Title      string
}

type tlMark struct {
	Class string
	X     float64
	Title string
}

type tlVersion struct {
	N       int
	X       float64
	Label   string
	From    string
	In      bool // in the timeline's span: drawn
	Outside bool // from a time outside it
}

// Geometry of the timeline's SVG (viewBox units).
const (
	timelineCols = 240
	tlWidth      = 960.0
	tlBarH       = 80.0
)

// auditViews lays out the timelines of an audit; nil when there is none
// or it holds no timeline.
func auditViews(ad *result.Audit) []timelineView {
	if ad == nil {
		return nil
	}
	g, ok := ad.Grid(timelineCols)
	if !ok {
		return nil
	}
	var out []timelineView
	for _, a := range ad.Agents {
		if a.Timeline != nil && len(a.Timeline.Bins) > 0 {
			out = append(out, view(g, ad, a))
		}
	}
	return out
}

// noneVerified says plainly what an audit that verified nothing means.
const noneVerified = "No request is verified: no --verified-ranges file was given and the log marks no request as a verified bot's " +
	"(Cloudflare's verified-bot field, --fields verified=NAME), so every request counts as claimed: its User-Agent names the bot, nothing shows it is that bot."

// split is an agent's requests as the audit recorded them, split into
// verified and claimed; nil when the audit verified nothing.
func split(ad *result.Audit, a *result.AuditAgent) *verification {
	if !ad.Verified() {
		return nil
	}
	v := &verification{}
	if c := a.ByVerification["verified"]; c != nil {
		v.Verified = *c
	}
	if c := a.ByVerification["claimed"]; c != nil {
		v.Claimed = *c
	}
	return v
}

// verification is an agent's verified and claimed requests.
type verification struct{ Verified, Claimed result.TierCounts }

// tierText writes the counts as the text report does.
func tierText(tc result.TierCounts) string {
	return fmt.Sprintf("%d requests, %d robots.txt fetches, %d allowed, %d within grace, %d uncertain, %d violations",
		tc.Requests, tc.Robots, tc.Allowed, tc.Grace, tc.Uncertain, tc.Violations)
}

// x is the horizontal position of t on the grid.
func x(g result.Grid, t time.Time) float64 {
	return tlWidth * float64(t.Sub(g.From)) / float64(g.Col*time.Duration(g.NCols))
}

// start is the start of column i.
func start(g result.Grid, i int) time.Time { return g.From.Add(time.Duration(i) * g.Col) }

// view lays out agent a's timeline on the grid.
func view(g result.Grid, ad *result.Audit, a *result.AuditAgent) timelineView {
	cols := g.Columns(a.Timeline)
	v := timelineView{Agent: a.Agent, Requests: a.Requests, Violation: a.Violations,
		From: g.From.Format("2006-01-02 15:04 UTC"), Until: start(g, g.NCols).Format("2006-01-02 15:04 UTC"), Col: durationText(g.Col)}
	for _, c := range cols {
		v.Max = max(v.Max, c.Requests)
	}
	if sp := split(ad, a); sp != nil {
		v.Verified, v.Claimed = &sp.Verified, &sp.Claimed
	}
	w := tlWidth / float64(g.NCols)
	for i, c := range cols {
		v.Bars = append(v.Bars, stack(c, float64(i)*w, w, v.Max, start(g, i), g.Col)...)
		if c.Violations > 0 {
			v.Marks = append(v.Marks, tlMark{Class: "tl-vmark", X: float64(i)*w + w/2, Title: fmt.Sprintf("%d violations from %s", c.Violations, start(g, i).Format("2006-01-02 15:04"))})
		}
	}
	for _, f := range a.Timeline.Fetches {
		cls := "tl-fetch"
		if f.Status >= 500 || f.Status == 0 {
			cls = "tl-fetch-bad"
		}
		v.Marks = append(v.Marks, tlMark{Class: cls, X: x(g, f.Time), Title: fmt.Sprintf("robots.txt fetch at %s: %s, %s", f.Time.Format("2006-01-02 15:04:05"), statusWord(f.Status), f.Version)})
	}
	for i, m := range ad.VersionMarks {
		tv := tlVersion{N: i + 1, Label: m.Label, From: "from the start", X: x(g, m.From)}
		if !m.From.IsZero() {
			tv.From = "from " + m.From.Format("2006-01-02 15:04 UTC")
			tv.In = !m.From.Before(g.From) && m.From.Before(g.Until)
			tv.Outside = !tv.In
		}
		v.Versions = append(v.Versions, tv)
	}
	return v
}

// stack draws one column's counts as stacked bars, violations on top.
func stack(c result.TierCounts, x, w float64, most int, at time.Time, col time.Duration) []tlRect {
	if most == 0 || c.Requests == 0 {
		return nil
	}
	var out []tlRect
	y := tlBarH
	for _, part := range []struct {
		class string
		n     int
	}{{"allowed", c.Allowed}, {"robots", c.Robots}, {"grace", c.Grace}, {"uncertain", c.Uncertain}, {"violation", c.Violations}} {
		if part.n == 0 {
			continue
		}
		h := tlBarH * float64(part.n) / float64(most)
		h = max(h, 1.5) // a single request stays visible
		y -= h
		out = append(out, tlRect{Class: "tl-" + part.class, X: x, Y: y, W: max(w-0.5, 0.5), H: h,
			Title: fmt.Sprintf("%s (%s column): %d %s", at.Format("2006-01-02 15:04"), durationText(col), part.n, part.class)})
	}
	return out
}

func statusWord(s int) string {
	if s == 0 {
		return "no response"
	}
	return "answered " + strconv.Itoa(s)
}

// durationText writes a column's length: "1h", "30m", "2d".
func durationText(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	}
	return d.String()
}

// auditSuites adds to each agent's suite of an audit (nil: none) its
// requests split into verified and claimed, as properties and in the
// suite's output, and adds the split to the text of its failing checks;
// when the audit verified nothing, the suites say so.
func auditSuites(root *junitSuites, idx map[string]int, ad *result.Audit) {
	if ad == nil {
		return
	}
	for _, a := range ad.Agents {
		si, ok := idx[a.Agent]
		if !ok {
			continue
		}
		s := &root.Suites[si]
		if s.Properties == nil {
			s.Properties = &junitProps{}
		}
		sp := split(ad, a)
		if sp == nil {
			s.Properties.Props = append(s.Properties.Props, junitProp{"verified", "none: every request is claimed"})
			s.SystemOut = noneVerified
			continue
		}
		lines := "verified: " + tierText(sp.Verified) + "\nclaimed: " + tierText(sp.Claimed)
		s.Properties.Props = append(s.Properties.Props, junitProp{"verified", tierText(sp.Verified)}, junitProp{"claimed", tierText(sp.Claimed)})
		s.SystemOut = lines
		for j := range s.Cases {
			if f := s.Cases[j].Failure; f != nil {
				f.Text += "\nthe agent's requests (every check): " + strings.ReplaceAll(lines, "\n", "; ")
			}
		}
	}
}

// auditOverview gives the overview's rows of an audit (nil: none) their
// agents' verified and claimed requests; split says there are any, note
// that the audit verified nothing.
func auditOverview(ad *result.Audit, rows []parserView) (note string, splits bool) {
	if ad == nil {
		return "", false
	}
	if !ad.Verified() {
		return noneVerified, false
	}
	for _, a := range ad.Agents {
		for j := range rows {
			if rows[j].Name == a.Agent {
				rows[j].Split = split(ad, a)
			}
		}
	}
	return "", true
}
