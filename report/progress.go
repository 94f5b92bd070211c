package report

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress shows how far a run is, on stderr normally. On a terminal it
// draws a bar, redrawn in place, for runs that last longer than a second.
// Anywhere else (a CI log, a file) it writes a line every few seconds,
// also while one slow step holds the run up, so that a long run is seen to
// be alive without filling the log. Its methods are safe for concurrent
// use, and a nil *Progress does nothing, so a quiet run can pass nil.
// Every Start must be followed by a Done, which stops its clock.
type Progress struct {
	w        io.Writer
	terminal bool // draw a bar in place, rather than lines
	now      func() time.Time
	delay    time.Duration // nothing is drawn before this much time
	every    time.Duration // redraws at most this often

	// tick, when set, is how often a clock redraws between steps (lines
	// only); stop ends the clock of the run in progress.
	tick time.Duration
	stop chan struct{}

	mu          sync.Mutex
	total, done int
	stage       string // what the run does after its steps, if anything
	start, last time.Time
	drawn       bool
}

// lineEvery is how often Progress writes a line when w is not a terminal.
const lineEvery = 5 * time.Second

// NewProgress returns a progress display that writes to w (normally
// stderr): a bar when w is a terminal, else a line every few seconds.
func NewProgress(w io.Writer) *Progress {
	if IsTerminal(w) {
		return &Progress{w: w, terminal: true, now: time.Now, delay: time.Second, every: 100 * time.Millisecond}
	}
	return &Progress{w: w, now: time.Now, delay: lineEvery, every: lineEvery, tick: time.Second}
}

// Start begins a run of total steps.
func (p *Progress) Start(total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.done, p.stage = total, 0, ""
	p.start = p.now()
	p.last = time.Time{}
	p.drawn = false
	if p.tick > 0 && p.stop == nil {
		p.stop = make(chan struct{})
		go p.clock(p.tick, p.stop)
	}
}

// clock redraws when due between steps, until stop is closed.
func (p *Progress) clock(every time.Duration, stop chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.redraw()
			p.mu.Unlock()
		}
	}
}

// Step counts one finished step and redraws the bar when due.
func (p *Progress) Step() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.redraw()
}

// Stage says what the run does once its steps are done (fitting a
// diagnosis, say): the lines and the bar name it from then on, so that a
// long last stage is not read as a run stuck at its last step.
func (p *Progress) Stage(name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stage = name
	p.last = time.Time{}
	p.redraw()
}

// redraw draws when due: not in the first delay, and not within every of
// the last drawing, except that a bar shows its last step at once.
func (p *Progress) redraw() {
	now := p.now()
	if now.Sub(p.start) < p.delay || (!p.last.IsZero() && now.Sub(p.last) < p.every && (p.done < p.total || !p.terminal)) {
		return
	}
	p.last = now
	p.draw(now)
}

// Done ends the run: it stops the clock and erases the bar.
func (p *Progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// draw writes the progress: steps of a total with a share done, or,
// when the total is not known beforehand (records streamed from WARC
// files) or was passed, the steps done alone.
func (p *Progress) draw(now time.Time) {
	const width = 30
	el := now.Sub(p.start).Truncate(time.Second)
	stage := ""
	if p.stage != "" {
		stage = ", " + p.stage
	}
	if p.total <= 0 || p.done > p.total {
		if !p.terminal {
			fmt.Fprintf(p.w, "progress: %d done%s, %s elapsed\n", p.done, stage, el)
			return
		}
		fmt.Fprintf(p.w, "\r\x1b[K%d done%s %s", p.done, stage, el)
		p.drawn = true
		return
	}
	frac := float64(p.done) / float64(p.total)
	full := int(frac * width)
	if !p.terminal {
		fmt.Fprintf(p.w, "progress: %d/%d (%d%%)%s, %s elapsed\n", p.done, p.total, int(frac*100), stage, el)
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%s%s] %d/%d %3d%%%s %s", strings.Repeat("=", full), strings.Repeat(" ", width-full), p.done, p.total, int(frac*100), stage, el)
	p.drawn = true
}
