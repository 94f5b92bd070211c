package crawl

import (
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The clock of timeline scenarios.
//
// A timeline case's steps lie hours or days apart (a copy used past 24
// hours, a 30-day outage). The crawler runs under libfaketime (Debian
// package faketime), preloaded with LD_PRELOAD, which reads its clock
// offset from a file (FAKETIME_TIMESTAMP_FILE, re-read on every call with
// FAKETIME_NO_CACHE). The site moves that offset forward once per step,
// when the crawler asks for the step's page, and stamps every request
// with the same fake clock: between steps the clock runs at the real
// rate, at each step it jumps to the step's time. The monotonic clock is
// left alone (FAKETIME_DONT_FAKE_MONOTONIC): timeouts and thread waits
// measured on it break when it jumps (LinkChecker hung until killed).
//
// A clock sped up by a rate (faketime -f '+0 x1200') was tried first and
// does not work: libfaketime divides the crawler's own sleeps and
// timeouts by the rate as well (wget -T 5 under x100 gave up after 50 ms
// of real time on a page answered after 1 s), so no page can be paced
// without the crawler timing out.

// faketimeLibs are where libfaketime's library is looked for.
var faketimeLibs = []string{
	"/usr/lib/*/faketime/libfaketimeMT.so.1",
	"/usr/lib/faketime/libfaketimeMT.so.1",
	"/usr/local/lib/faketime/libfaketimeMT.so.1",
	"/usr/lib/*/faketime/libfaketime.so.1",
	"/usr/lib/faketime/libfaketime.so.1",
	"/usr/local/lib/faketime/libfaketime.so.1",
}

// FindFaketime returns the path of libfaketime's preload library (the
// multi-threading variant where installed), or "" when there is none.
func FindFaketime() string {
	for _, pat := range faketimeLibs {
		if m, _ := filepath.Glob(pat); len(m) > 0 {
			return m[0]
		}
	}
	return ""
}

// testCrawlerPath is the main package of reptest's test crawler, a Go
// program that reads libfaketime's offset file itself.
const testCrawlerPath = "github.com/reptest/reptest/crawlers/testcrawler"

// clockSkip says why the crawler's timeline scenarios cannot run, or "".
func (c *Crawler) clockSkip(program string) string {
	switch {
	case c.NoTimeline:
		return "timeline cases turned off (--no-timeline)"
	case c.Faketime == "":
		return "timeline cases need libfaketime (Debian package faketime), which is not installed"
	}
	path, err := exec.LookPath(program)
	if err != nil {
		return ""
	}
	if bi, err := buildinfo.ReadFile(path); err == nil && bi.Path != testCrawlerPath {
		return fmt.Sprintf("%s is a Go program, whose clock libfaketime cannot move (Go reads the time without libc), so the timeline cases cannot be played to it", filepath.Base(program))
	}
	return ""
}

// fakeClock is the clock a timeline scenario's site and crawler share.
type fakeClock struct {
	file string    // libfaketime's offset file
	zero time.Time // the real time the crawl began: the timeline's 0
	mu   sync.Mutex
	// jumps are the offsets in force, each from a real time on.
	jumps []jump
}

type jump struct {
	from   time.Time
	offset time.Duration
}

// newFakeClock makes a clock whose offset file is in dir, at zero offset.
func newFakeClock(dir string) (*fakeClock, error) {
	c := &fakeClock{file: filepath.Join(dir, "faketime"), zero: time.Now()}
	return c, c.write(0)
}

// moveTo moves the clock forward so that it shows the timeline's time at
// now, rounded up to a whole second (libfaketime's offsets are whole
// seconds); never backward.
func (c *fakeClock) moveTo(at time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	off := c.zero.Add(at).Sub(now)
	off = (off + time.Second - 1).Truncate(time.Second)
	if n := len(c.jumps); n > 0 && off <= c.jumps[n-1].offset {
		return nil
	}
	c.jumps = append(c.jumps, jump{from: now, offset: off})
	return c.write(off)
}

// write replaces the offset file in one rename, so that no reader sees
// it half written.
func (c *fakeClock) write(off time.Duration) error {
	if len(c.jumps) == 0 {
		c.jumps = []jump{{from: c.zero, offset: off}}
	}
	tmp := c.file + ".new"
	if err := os.WriteFile(tmp, []byte(fmt.Sprintf("%+d\n", int64(off/time.Second))), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.file)
}

// fake returns the fake time at the real time t.
func (c *fakeClock) fake(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	off := time.Duration(0)
	for _, j := range c.jumps {
		if !j.from.After(t) {
			off = j.offset
		}
	}
	return t.Add(off)
}

// env returns the environment that runs a program under libfaketime on
// this clock: lib preloaded, the offset file named and re-read on every
// call, file times left alone; libfaketime's other settings removed, as
// FAKETIME would override the file.
func (c *fakeClock) env(base []string, lib string) []string {
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "FAKETIME") || k == "LD_PRELOAD" || k == "NO_FAKE_STAT" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "LD_PRELOAD="+lib, "FAKETIME_TIMESTAMP_FILE="+c.file, "FAKETIME_NO_CACHE=1", "NO_FAKE_STAT=1", "FAKETIME_DONT_FAKE_MONOTONIC=1")
}
