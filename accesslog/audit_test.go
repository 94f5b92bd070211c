package accesslog_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// The Googlebot/GoogleOther story: the named groups only allow
// everything, so the "*" group's Disallow: /go/ does not apply to them; the
// owner adds the rule to their group at 03:00; the bots come back with
// the copies they hold, and fetch robots.txt again hours later.
const (
	before = "User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nUser-agent: GoogleOther\nAllow: /\n"
	after  = "User-agent: *\nDisallow: /go/\n\nUser-agent: Googlebot\nUser-agent: GoogleOther\nAllow: /\nDisallow: /go/\n"
)

const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
const googleOther = "GoogleOther"

// storyLog is the access log, in Combined Log Format.
var storyLog = []struct {
	at     string // time on 2026-10-06
	ua     string
	req    string
	status int
	want   crawl.Tier
	reqID  string
}{
	{"01:00", googlebot, "/robots.txt", 200, crawl.TierRobots, ""},
	{"01:00", googleOther, "/robots.txt", 200, crawl.TierRobots, ""},
	{"02:00", googlebot, "/go/a", 200, crawl.TierAllowed, ""},
	{"02:10", googlebot, "/go/b", 200, crawl.TierAllowed, ""},
	// The fix lands at 03:00.
	{"04:00", googlebot, "/go/c", 200, crawl.TierGrace, "CACHE-2"},
	{"05:00", googlebot, "/robots.txt", 200, crawl.TierRobots, ""},
	{"06:00", googlebot, "/go/d", 200, crawl.TierViolation, "ACC-2"},
	{"06:30", googlebot, "/public", 200, crawl.TierAllowed, ""},
	{"07:00", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "/go/e", 200, crawl.TierViolation, "ACC-2"},
}

// The next day GoogleOther still uses its copy of 01:00, then finds
// robots.txt answering 503 and goes on.
var storyLog2 = []struct {
	at     string // time on 2026-10-07
	ua     string
	req    string
	status int
	want   crawl.Tier
	reqID  string
}{
	{"02:00", googleOther, "/go/f", 200, crawl.TierViolation, "CACHE-2"},
	{"03:00", googleOther, "/robots.txt", 503, crawl.TierRobots, ""},
	{"03:30", googleOther, "/public", 200, crawl.TierViolation, "ACC-7"},
}

func combinedLine(day, at, ua, path string, status int) string {
	return fmt.Sprintf("66.249.66.1 - - [%s/Oct/2026:%s:00 +0000] \"GET %s HTTP/1.1\" %d 512 \"-\" \"%s\"\n", day, at, path, status, ua)
}

func TestAuditGooglebotStory(t *testing.T) {
	var log strings.Builder
	var want []crawl.Tier
	var wantReq []string
	for _, e := range storyLog {
		log.WriteString(combinedLine("06", e.at, e.ua, e.req, e.status))
		want, wantReq = append(want, e.want), append(wantReq, e.reqID)
	}
	log.WriteString("this line is not a log line\n")
	for _, e := range storyLog2 {
		log.WriteString(combinedLine("07", e.at, e.ua, e.req, e.status))
		want, wantReq = append(want, e.want), append(wantReq, e.reqID)
	}
	fix := time.Date(2026, 10, 6, 3, 0, 0, 0, time.UTC)
	versions := []crawl.Version{
		{Status: http.StatusOK, Body: []byte(before), Label: "before"},
		{From: fix, Status: http.StatusOK, Body: []byte(after), Label: "after"},
	}
	sc := accesslog.NewScanner(strings.NewReader(log.String()), "access.log", accesslog.Format{})
	a := accesslog.NewAuditor(versions, accesslog.Options{Grace: 24 * time.Hour, Reference: reference.RFC()})
	g := crawl.NewGrader(versions, crawl.Options{Grace: 24 * time.Hour, Reference: reference.RFC()})
	var got []crawl.Tier
	var gotReq []string
	for sc.Scan() {
		r := sc.Request()
		a.Add(r)
		j := g.Judge(r)
		got, gotReq = append(got, j.Tier), append(gotReq, j.Req)
		if j.Tier == crawl.TierAllowed {
			gotReq[len(gotReq)-1] = ""
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tiers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantReq, gotReq); diff != "" {
		t.Errorf("requirements (-want +got):\n%s", diff)
	}
	rep := a.Report(sc)
	if rep.Malformed != 1 || len(rep.Errors) != 1 || rep.Errors[0].Line != 10 {
		t.Errorf("malformed %d, errors %v; want line 10 reported", rep.Malformed, rep.Errors)
	}
	byAgent := map[string]*result.AuditAgent{}
	for _, ar := range rep.Agents {
		byAgent[ar.Agent] = ar
	}
	gb := byAgent["googlebot"]
	if gb == nil {
		t.Fatalf("no report for googlebot: %v", rep.Agents)
	}
	if gb.Requests != 7 || gb.Robots != 2 || gb.Allowed != 3 || gb.Grace != 1 || gb.Violations != 1 {
		t.Errorf("googlebot: %+v", gb)
	}
	if len(gb.Rules) != 1 || gb.Rules[0].Line != 7 || gb.Rules[0].Rule != "Disallow: /go/" || gb.Rules[0].Version != "after" {
		t.Errorf("googlebot's deciding rules: %+v", gb.Rules)
	}
	if len(gb.Warnings) != 1 || !strings.Contains(gb.Warnings[0], "googlebot: 2 requests to /go/… (e.g. /go/a) are allowed by its own group (line 4); the `Disallow: /go/` under `*` (line 2 of before) does not apply to it") {
		t.Errorf("googlebot's warnings: %q", gb.Warnings)
	}
	if o := byAgent["googleother"]; o == nil || o.ByReq["CACHE-2"] != 1 || o.ByReq["ACC-7"] != 1 {
		t.Errorf("googleother: %+v", o)
	}
	if s := byAgent["*"]; s == nil || s.Violations != 1 {
		t.Errorf("*: %+v", s)
	}
}
