package accesslog_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
)

// The clients of issue 27's 16-line log: two bots the file does not
// name, a browser, and a bot it names.
const (
	yandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	bing   = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36"
)

// TestAuditIdentities judges each client against its own robots.txt
// fetches only, and no browser request: YandexBot's 503 makes its own
// requests ACC-7 violations, not Chrome's or bingbot's; bingbot's stale
// copy is judged as its own (CACHE-2), not against YandexBot's newer one.
func TestAuditIdentities(t *testing.T) {
	const v1 = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /private/\nDisallow: /drafts/\n"
	const v2 = "User-agent: *\nDisallow: /private/\nDisallow: /old/\n\nUser-agent: Googlebot\nDisallow: /private/\nDisallow: /drafts/\n"
	type line struct {
		day, at, addr, ua, path string
		status                  int
		tier                    crawl.Tier // "" when not judged
		req                     string
	}
	log := []line{
		{"06", "08:00", "40.77.167.1", bing, "/robots.txt", 200, crawl.TierRobots, ""},
		{"06", "08:05", "40.77.167.1", bing, "/public", 200, crawl.TierAllowed, ""},
		{"06", "09:00", "5.255.253.1", yandex, "/robots.txt", 503, crawl.TierRobots, ""},
		{"06", "09:05", "203.0.113.7", chrome, "/public", 200, "", ""},
		{"06", "09:10", "5.255.253.1", yandex, "/public", 200, crawl.TierViolation, "ACC-7"},
		{"06", "09:15", "40.77.167.1", bing, "/about", 200, crawl.TierAllowed, ""},
		{"06", "09:20", "66.249.66.1", googlebot, "/robots.txt", 200, crawl.TierRobots, ""},
		{"06", "09:25", "66.249.66.1", googlebot, "/drafts/x", 200, crawl.TierViolation, "ACC-2"},
		{"06", "09:30", "203.0.113.7", chrome, "/private/account", 200, "", ""},
		{"06", "10:00", "5.255.253.1", yandex, "/robots.txt", 200, crawl.TierRobots, ""},
		{"06", "10:05", "5.255.253.1", yandex, "/public/2", 200, crawl.TierAllowed, ""},
		// /old/ is disallowed from 12:00 on.
		{"06", "12:30", "5.255.253.1", yandex, "/robots.txt", 200, crawl.TierRobots, ""},
		{"07", "09:00", "40.77.167.1", bing, "/old/page", 200, crawl.TierViolation, "CACHE-2"},
		{"07", "09:05", "5.255.253.1", yandex, "/old/page", 200, crawl.TierViolation, "ACC-2"},
		{"07", "09:10", "203.0.113.7", chrome, "/old/page", 200, "", ""},
		{"07", "09:15", "66.249.66.1", googlebot, "/public", 200, crawl.TierAllowed, ""},
	}
	var text strings.Builder
	for _, l := range log {
		text.WriteString(strings.Replace(combinedLine(l.day, l.at, l.ua, l.path, l.status), "66.249.66.1", l.addr, 1))
	}
	versions := []crawl.Version{
		{Status: http.StatusOK, Body: []byte(v1), Label: "v1"},
		{From: time.Date(2026, 10, 6, 12, 0, 0, 0, time.UTC), Status: http.StatusOK, Body: []byte(v2), Label: "v2"},
	}
	for _, include := range []bool{false, true} {
		a := accesslog.NewAuditor(versions, accesslog.Options{Grace: 24 * time.Hour, Reference: reference.RFC(), IncludeUnnamed: include})
		sc := accesslog.NewScanner(strings.NewReader(text.String()), "access.log", accesslog.Format{})
		var got, want []string
		for i := 0; sc.Scan(); i++ {
			j := a.Add(sc.Request())
			g := string(j.Tier) + " " + j.Req
			if j.Agent == "" {
				g = "not judged"
			}
			w := string(log[i].tier) + " " + log[i].req
			if log[i].tier == "" {
				w = "not judged"
				if include {
					w = g // judged as *; which tier is not the point here
				}
			}
			got, want = append(got, log[i].at+" "+g), append(want, log[i].at+" "+w)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("include unnamed %v: tiers (-want +got):\n%s", include, diff)
		}
		rep := a.Report(sc)
		clients := map[string]int{}
		for _, ar := range rep.Agents {
			clients[ar.Agent] = ar.Clients
		}
		wantClients, wantBrowsers := map[string]int{"*": 2, "googlebot": 1}, 3
		if include {
			wantClients["*"], wantBrowsers = 3, 0
		}
		if diff := cmp.Diff(wantClients, clients); diff != "" || rep.Browsers != wantBrowsers {
			t.Errorf("include unnamed %v: clients per agent (-want +got):\n%s; browsers %d, want %d", include, diff, rep.Browsers, wantBrowsers)
		}
	}
}

// A bot's crawlers on two addresses keep two histories: a robots.txt
// fetch at one is not the other's.
func TestAuditAddressIsPartOfIdentity(t *testing.T) {
	versions := []crawl.Version{{Status: http.StatusOK, Body: []byte("User-agent: *\nAllow: /\n"), Label: "v"}}
	a := accesslog.NewAuditor(versions, accesslog.Options{Grace: 24 * time.Hour, Reference: reference.RFC()})
	at := time.Date(2026, 10, 6, 1, 0, 0, 0, time.UTC)
	a.Add(crawl.Request{Time: at, Method: "GET", URL: "/robots.txt", Status: 503, UserAgent: yandex, Client: "5.255.253.1"})
	other := a.Add(crawl.Request{Time: at.Add(time.Minute), Method: "GET", URL: "/a", Status: 200, UserAgent: yandex, Client: "5.255.253.2"})
	same := a.Add(crawl.Request{Time: at.Add(2 * time.Minute), Method: "GET", URL: "/a", Status: 200, UserAgent: yandex, Client: "5.255.253.1"})
	if other.Tier != crawl.TierAllowed || !other.Before || same.Tier != crawl.TierViolation || same.Req != "ACC-7" {
		t.Errorf("other address: %s %s (before %v); same address: %s %s", other.Tier, other.Req, other.Before, same.Tier, same.Req)
	}
}

func TestLooksLikeBrowser(t *testing.T) {
	for ua, want := range map[string]bool{
		chrome: true,
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1": true,
		"Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0":                                                                  true,
		yandex: false, bing: false,
		googlebot: false,
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)":        false,
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36": false,
		"curl/8.5.0": false, "python-requests/2.31": false, "": false, "-": false,
	} {
		if got := accesslog.LooksLikeBrowser(ua); got != want {
			t.Errorf("LooksLikeBrowser(%q) = %v, want %v", ua, got, want)
		}
	}
}
