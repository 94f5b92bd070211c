package crawl

import (
	"testing"
	"time"

	"github.com/reptest/reptest/reference"
)

// A robots.txt that redirects to another origin's robots.txt is a fetch of
// both: the second origin's pages come after its robots.txt then.
func TestRedirectToOtherRobots(t *testing.T) {
	at := time.Date(2026, 10, 6, 0, 0, 0, 0, time.UTC)
	log := []Request{
		{Time: at, URL: "http://a.test/robots.txt", Status: 302, Location: "http://b.test/robots.txt"},
		{Time: at.Add(time.Millisecond), URL: "http://b.test/robots.txt", Status: 200},
		{Time: at.Add(2 * time.Millisecond), URL: "http://b.test/page", Status: 200},
	}
	versions := []Version{{Origin: "http://a.test", Status: 200}, {Origin: "http://b.test", Status: 200}}
	js := Grade(log, versions, Options{Reference: reference.RFC(), Agent: func(string, []string) string { return "FooBot" }})
	if js[1].Tier != TierRobots || js[2].Tier != TierAllowed || js[2].Before {
		t.Errorf("got %+v\n%+v", js[1], js[2])
	}
}
