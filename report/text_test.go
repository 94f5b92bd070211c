package report

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reptest/reptest/result"
)

func TestTextSummary(t *testing.T) {
	var buf bytes.Buffer
	if err := Text(&buf, fixtureDoc(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"reptest 0.1.0  profile rfc9309, 30 results",
		"reference   0.1.0            10     10     0     0     0     0     0  yes",
		"temoto      v1.1.2           10      3     0     1     1     1     4  NO",
		"grobotstxt  v1.0.3           10      6     0     1     1     0     2  NO",
		"5 failing checks",
		"2 differential findings in 1 group:",
		"2× grobotstxt,reference=disallow≠temoto=allow  SPC-1  (2 files, 3 probes)  [SPC-1]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colour without Color")
	}
}

func TestTextVerbose(t *testing.T) {
	var buf bytes.Buffer
	if err := Text(&buf, fixtureDoc(), TextOptions{Verbose: true, Color: true}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"── merge/two-groups-same-agent · check 0 · MUST UA-3",
		"agent ExampleBot  url https://example.com/baz",
		"expected disallow (deciding rule at line 8)",
		"temoto         allow     \x1b[31mVIOLATION",
		`reference: disallow "/baz": line 8 disallow: /baz`,
		"\x1b[1m>    8 │ Disallow: /baz",
		"GET http://a.test/robots.txt → 301  Location: http://b.test/rules.txt",
		"stderr: panic: index out of range",
		"── cache/refetch-after-a-day · check 1 · SHOULD CACHE-2 · at 25h0m0s",
		"   > at 25h0m0s:   GET http://a.test/robots.txt → 200  (27 bytes)\n         1 │ User-agent: *\n         2 │ Disallow: /b\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("verbose output lacks %q:\n%s", want, out)
		}
	}
}

func TestTextEscapesTerminalControls(t *testing.T) {
	var buf bytes.Buffer
	if err := Text(&buf, hostileDoc(), TextOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for i, r := range out {
		if r == 0x1b || r == 0 || r == 0x7f || r == '\u202E' || r == '\u2066' || r == '\r' {
			t.Fatalf("raw %U at %d: %q", r, i, out[max(0, i-30):min(len(out), i+30)])
		}
	}
	if !strings.Contains(out, `\x1b[31m`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("controls are not shown as escapes")
	}
	if len(out) > 200<<10 {
		t.Errorf("verbose output is %d bytes: long values are not cut", len(out))
	}
}

func TestIsTerminal(t *testing.T) {
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is a terminal")
	}
	if IsTerminal((*os.File)(nil)) {
		t.Error("a nil file is a terminal")
	}
}

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{t: time.Unix(1000, 0)}
	p := NewProgress(&buf)
	p.terminal, p.now, p.delay, p.every = true, clk.now, time.Second, 100*time.Millisecond
	p.Start(10)
	p.Step()
	clk.add(500 * time.Millisecond)
	p.Step()
	if buf.Len() != 0 {
		t.Fatalf("drew within the first second: %q", buf.String())
	}
	clk.add(600 * time.Millisecond)
	p.Step()
	if got := buf.String(); !strings.Contains(got, "\r\x1b[K[=========                     ] 3/10  30% 1s") {
		t.Fatalf("bar = %q", got)
	}
	n := buf.Len()
	p.Step() // within 100ms of the last draw: nothing
	if buf.Len() != n {
		t.Errorf("redrew too soon")
	}
	clk.add(time.Second)
	for i := 0; i < 6; i++ {
		p.Step()
	}
	if !strings.Contains(buf.String(), "10/10 100%") {
		t.Errorf("the last step is not drawn: %q", buf.String())
	}
	p.Done()
	if !strings.HasSuffix(buf.String(), "\r\x1b[K") {
		t.Errorf("Done does not erase the bar: %q", buf.String())
	}

	// Not a terminal (a CI log): a line every few seconds, none sooner,
	// and nothing to erase.
	var log bytes.Buffer
	q := NewProgress(&log)
	q.now, q.tick = clk.now, 0 // steps only: the clock is tested below
	q.Start(4)
	q.Step()
	clk.add(lineEvery - time.Second)
	q.Step()
	if log.Len() != 0 {
		t.Errorf("wrote before %s: %q", lineEvery, log.String())
	}
	clk.add(time.Second)
	q.Step()
	clk.add(time.Second)
	q.Step() // the last step, but too soon after the line before
	q.Done()
	if want := "progress: 3/4 (75%), 5s elapsed\n"; log.String() != want {
		t.Errorf("non-terminal progress = %q, want %q", log.String(), want)
	}

	// Between steps, a clock writes the line when one slow step holds
	// the run up.
	var slow syncBuffer
	c := NewProgress(&slow)
	c.now, c.tick = clk.now, time.Millisecond
	c.Start(3)
	c.Step()
	clk.add(lineEvery)
	for deadline := time.Now().Add(5 * time.Second); slow.String() == "" && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	c.Done()
	if want := "progress: 1/3 (33%), 5s elapsed\n"; slow.String() != want {
		t.Errorf("the clock wrote %q, want %q", slow.String(), want)
	}

	// A total not known beforehand (0) or passed: the steps alone,
	// never a share over 100 %.
	for _, total := range []int{0, 2} {
		var u bytes.Buffer
		v := NewProgress(&u)
		v.now, v.tick = clk.now, 0
		v.Start(total)
		for range 3 {
			v.Step()
		}
		clk.add(lineEvery)
		v.Step()
		v.Done()
		if want := "progress: 4 done, 5s elapsed\n"; u.String() != want {
			t.Errorf("total %d: progress = %q, want %q", total, u.String(), want)
		}
	}

	// A stage after the steps is named at once, and on every line after.
	var st bytes.Buffer
	w := NewProgress(&st)
	w.now, w.tick = clk.now, 0
	w.Start(2)
	clk.add(lineEvery)
	w.Step()
	w.Step()
	w.Stage("fitting the diagnosis")
	w.Done()
	if want := "progress: 1/2 (50%), 5s elapsed\nprogress: 2/2 (100%), fitting the diagnosis, 5s elapsed\n"; st.String() != want {
		t.Errorf("staged progress = %q, want %q", st.String(), want)
	}

	// A nil progress does nothing.
	var np *Progress
	np.Start(1)
	np.Step()
	np.Stage("x")
	np.Done()
}

func TestProgressConcurrent(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf)
	p.terminal = true
	p.delay = 0
	p.Start(1000)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 125; i++ {
				p.Step()
			}
		}()
	}
	wg.Wait()
	p.Done()
	if p.done != 1000 {
		t.Errorf("counted %d steps, want 1000", p.done)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// An interrupted differential run says so first, with why.
func TestDiffTextInterrupted(t *testing.T) {
	for _, interrupted := range []bool{false, true} {
		d := &result.Document{Summary: &result.DiffSummary{Parsers: []string{"reference", "temoto"}, Files: 3},
			Interrupted: interrupted, InterruptReason: "interrupt signal received"}
		var buf bytes.Buffer
		if err := Text(&buf, d, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		const want = "INTERRUPTED: the run did not finish (interrupt signal received); these results cover the files compared by then"
		if got := strings.HasPrefix(buf.String(), want); got != interrupted {
			t.Errorf("interrupted %v: the summary begins %q; want it to begin %q: %v", interrupted, buf.String()[:min(len(buf.String()), 120)], want, interrupted)
		}
	}
}
