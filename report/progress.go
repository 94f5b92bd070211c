package report

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress draws a progress bar on a terminal for runs that last longer
// than a second. On anything but a terminal it draws nothing. Its methods
// are safe for concurrent use, and a nil *Progress does nothing, so a
// quiet run can pass nil.
type Progress struct {
	w       io.Writer
	enabled bool
	now     func() time.Time
	delay   time.Duration // nothing is drawn before this much time
	every   time.Duration // redraws at most this often

	mu          sync.Mutex
	total, done int
	start, last time.Time
	drawn       bool
}

// NewProgress returns a progress bar that writes to w (normally stderr)
// when w is a terminal.
func NewProgress(w io.Writer) *Progress {
	return &Progress{w: w, enabled: IsTerminal(w), now: time.Now, delay: time.Second, every: 100 * time.Millisecond}
}

// Start begins a run of total steps.
func (p *Progress) Start(total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.done = total, 0
	p.start = p.now()
	p.last = time.Time{}
	p.drawn = false
}

// Step counts one finished step and redraws the bar when due.
func (p *Progress) Step() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if !p.enabled {
		return
	}
	now := p.now()
	if now.Sub(p.start) < p.delay || (!p.last.IsZero() && now.Sub(p.last) < p.every && p.done < p.total) {
		return
	}
	p.last = now
	p.draw(now)
}

// Done ends the run and erases the bar.
func (p *Progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *Progress) draw(now time.Time) {
	const width = 30
	frac := 1.0
	if p.total > 0 {
		frac = min(1, float64(p.done)/float64(p.total))
	}
	full := int(frac * width)
	el := now.Sub(p.start).Truncate(time.Second)
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d %3d%% %s", strings.Repeat("=", full), strings.Repeat(" ", width-full), p.done, p.total, int(frac*100), el)
	p.drawn = true
}
