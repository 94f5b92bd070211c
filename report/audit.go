package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reptest/reptest/result"
)

//go:embed html/audit.html.tmpl
var auditTemplate string

// auditDoc is the part of an audit document's "audit" object
// (docs/FORMAT.md §7) that the page draws: per agent, its aggregated
// timeline, and when each robots.txt version came into force.
type auditDoc struct {
	Verifying    bool `json:"verifying"`
	VersionMarks []struct {
		Label string    `json:"label"`
		From  time.Time `json:"from"`
	} `json:"version_marks"`
	Agents []auditAgent `json:"agents"`
}

// auditAgent is one agent of an auditDoc.
type auditAgent struct {
	Agent          string                `json:"agent"`
	Requests       int                   `json:"requests"`
	Violations     int                   `json:"violations"`
	ByVerification map[string]tierCounts `json:"by_verification"`
	Timeline       *struct {
		BinSeconds int64 `json:"bin_seconds"`
		Bins       []struct {
			Start time.Time `json:"start"`
			tierCounts
		} `json:"bins"`
		Fetches []struct {
			Time    time.Time `json:"time"`
			Status  int       `json:"status"`
			Version string    `json:"version"`
		} `json:"robots_fetches"`
	} `json:"timeline"`
}

type tierCounts struct {
	Requests   int `json:"requests"`
	Robots     int `json:"robots_fetches"`
	Allowed    int `json:"allowed"`
	Grace      int `json:"grace"`
	Uncertain  int `json:"uncertain"`
	Violations int `json:"violations"`
}

// timelineView is one agent's timeline as the page draws it: at most
// timelineCols columns of stacked bars, whatever the log's size.
type timelineView struct {
	Agent               string
	Requests, Violation int
	// Verified and Claimed split the requests and violations when the
	// log or --verified-ranges told verified bots apart.
	Verified, Claimed *tierCounts
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

// auditViews lays out the timelines of an audit (decodeAudit); nil when
// there is none or it holds no timeline.
func auditViews(ad *auditDoc) []timelineView {
	if ad == nil {
		return nil
	}
	g, ok := newGrid(ad)
	if !ok {
		return nil
	}
	var out []timelineView
	for i := range ad.Agents {
		if a := &ad.Agents[i]; a.Timeline != nil && len(a.Timeline.Bins) > 0 {
			out = append(out, g.view(ad, a))
		}
	}
	return out
}

// decodeAudit decodes what the reports draw of an audit document; nil
// when the document is not an audit.
func decodeAudit(d *result.Document) *auditDoc {
	if len(d.Audit) == 0 {
		return nil
	}
	var ad auditDoc
	if json.Unmarshal(d.Audit, &ad) != nil {
		return nil
	}
	return &ad
}

// noneVerified says plainly what an audit that verified nothing means.
const noneVerified = "No request is verified: no --verified-ranges file was given and the log marks no request as a verified bot's " +
	"(Cloudflare's verified-bot field, --fields verified=NAME), so every request counts as claimed: its User-Agent names the bot, nothing shows it is that bot."

// verifying says whether the audit told verified bots from claimed ones:
// ranges were given, or the log marked a request as a verified bot's.
// The text report (accesslog.WriteText) prints the split on the same
// condition.
func (ad *auditDoc) verifying() bool {
	if ad.Verifying {
		return true
	}
	for _, a := range ad.Agents {
		if a.ByVerification["verified"].Requests > 0 {
			return true
		}
	}
	return false
}

// split is an agent's requests as the audit recorded them, split into
// verified and claimed; nil when the audit verified nothing.
func (ad *auditDoc) split(a *auditAgent) *verification {
	if !ad.verifying() {
		return nil
	}
	return &verification{Verified: a.ByVerification["verified"], Claimed: a.ByVerification["claimed"]}
}

// verification is an agent's verified and claimed requests.
type verification struct{ Verified, Claimed tierCounts }

// text writes the counts as the text report does.
func (tc tierCounts) text() string {
	return fmt.Sprintf("%d requests, %d robots.txt fetches, %d allowed, %d within grace, %d uncertain, %d violations",
		tc.Requests, tc.Robots, tc.Allowed, tc.Grace, tc.Uncertain, tc.Violations)
}

// grid is the time axis every timeline of a page shares: ncols columns
// of col each from from; until is the end of the last bin.
type grid struct {
	from, until time.Time
	col         time.Duration
	ncols       int
}

// newGrid spans every agent's bins with columns at least as long as the
// longest bin, and at most timelineCols of them; ok is false when there
// is no bin.
func newGrid(ad *auditDoc) (g grid, ok bool) {
	g.col = time.Minute
	for _, a := range ad.Agents {
		if a.Timeline == nil {
			continue
		}
		g.col = max(g.col, time.Duration(a.Timeline.BinSeconds)*time.Second)
		for _, b := range a.Timeline.Bins {
			end := b.Start.Add(time.Duration(a.Timeline.BinSeconds) * time.Second)
			if g.from.IsZero() || b.Start.Before(g.from) {
				g.from = b.Start
			}
			if end.After(g.until) {
				g.until = end
			}
		}
	}
	if g.from.IsZero() {
		return g, false
	}
	for g.col*timelineCols < g.until.Sub(g.from) {
		g.col *= 2
	}
	g.from = g.from.Truncate(g.col)
	g.ncols = int((g.until.Sub(g.from) + g.col - 1) / g.col)
	return g, true
}

// x is the horizontal position of t.
func (g grid) x(t time.Time) float64 {
	return tlWidth * float64(t.Sub(g.from)) / float64(g.col*time.Duration(g.ncols))
}

// start is the start of column i.
func (g grid) start(i int) time.Time { return g.from.Add(time.Duration(i) * g.col) }

// view lays out agent a's timeline on the grid.
func (g grid) view(ad *auditDoc, a *auditAgent) timelineView {
	cols := make([]tierCounts, g.ncols)
	for _, b := range a.Timeline.Bins {
		i := min(max(int(b.Start.Sub(g.from)/g.col), 0), g.ncols-1)
		cols[i].add(b.tierCounts)
	}
	v := timelineView{Agent: a.Agent, Requests: a.Requests, Violation: a.Violations,
		From: g.from.Format("2006-01-02 15:04 UTC"), Until: g.start(g.ncols).Format("2006-01-02 15:04 UTC"), Col: durationText(g.col)}
	for _, c := range cols {
		v.Max = max(v.Max, c.Requests)
	}
	if sp := ad.split(a); sp != nil {
		v.Verified, v.Claimed = &sp.Verified, &sp.Claimed
	}
	w := tlWidth / float64(g.ncols)
	for i, c := range cols {
		v.Bars = append(v.Bars, stack(c, float64(i)*w, w, v.Max, g.start(i), g.col)...)
		if c.Violations > 0 {
			v.Marks = append(v.Marks, tlMark{Class: "tl-vmark", X: float64(i)*w + w/2, Title: fmt.Sprintf("%d violations from %s", c.Violations, g.start(i).Format("2006-01-02 15:04"))})
		}
	}
	for _, f := range a.Timeline.Fetches {
		cls := "tl-fetch"
		if f.Status >= 500 || f.Status == 0 {
			cls = "tl-fetch-bad"
		}
		v.Marks = append(v.Marks, tlMark{Class: cls, X: g.x(f.Time), Title: fmt.Sprintf("robots.txt fetch at %s: %s, %s", f.Time.Format("2006-01-02 15:04:05"), statusWord(f.Status), f.Version)})
	}
	for i, m := range ad.VersionMarks {
		tv := tlVersion{N: i + 1, Label: m.Label, From: "from the start", X: g.x(m.From)}
		if !m.From.IsZero() {
			tv.From = "from " + m.From.Format("2006-01-02 15:04 UTC")
			tv.In = !m.From.Before(g.from) && m.From.Before(g.until)
			tv.Outside = !tv.In
		}
		v.Versions = append(v.Versions, tv)
	}
	return v
}

// stack draws one column's counts as stacked bars, violations on top.
func stack(c tierCounts, x, w float64, most int, at time.Time, col time.Duration) []tlRect {
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

func (tc *tierCounts) add(o tierCounts) {
	tc.Requests += o.Requests
	tc.Robots += o.Robots
	tc.Allowed += o.Allowed
	tc.Grace += o.Grace
	tc.Uncertain += o.Uncertain
	tc.Violations += o.Violations
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
func auditSuites(root *junitSuites, idx map[string]int, ad *auditDoc) {
	if ad == nil {
		return
	}
	for i := range ad.Agents {
		a := &ad.Agents[i]
		si, ok := idx[a.Agent]
		if !ok {
			continue
		}
		s := &root.Suites[si]
		if s.Properties == nil {
			s.Properties = &junitProps{}
		}
		sp := ad.split(a)
		if sp == nil {
			s.Properties.Props = append(s.Properties.Props, junitProp{"verified", "none: every request is claimed"})
			s.SystemOut = noneVerified
			continue
		}
		lines := "verified: " + sp.Verified.text() + "\nclaimed: " + sp.Claimed.text()
		s.Properties.Props = append(s.Properties.Props, junitProp{"verified", sp.Verified.text()}, junitProp{"claimed", sp.Claimed.text()})
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
func auditOverview(ad *auditDoc, rows []parserView) (note string, split bool) {
	if ad == nil {
		return "", false
	}
	if !ad.verifying() {
		return noneVerified, false
	}
	for i := range ad.Agents {
		for j := range rows {
			if rows[j].Name == ad.Agents[i].Agent {
				rows[j].Split = ad.split(&ad.Agents[i])
			}
		}
	}
	return "", true
}
