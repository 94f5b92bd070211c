package parsers

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Bounds on what is kept from external programs.
const (
	// MaxLine is the longest answer line read from an exec program; a
	// longer one is a protocol error. It is also how much of a command's
	// standard output is kept for the verdict patterns.
	MaxLine = 1 << 20
	// StderrKeep is how much of the end of a program's standard error is
	// kept for reports.
	StderrKeep = 2 << 10
)

// tailBuffer keeps the last max bytes written to it. It is safe for
// concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
	cut bool // bytes were dropped from the front
}

func newTail(max int) *tailBuffer { return &tailBuffer{max: max} }

// Write implements io.Writer; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.max {
		t.cut = t.cut || len(t.b) > 0 || len(p) > t.max
		p = p[len(p)-t.max:]
		t.b = append(t.b[:0], p...)
		return n, nil
	}
	if over := len(t.b) + len(p) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
		t.cut = true
	}
	t.b = append(t.b, p...)
	return n, nil
}

// String returns the kept bytes as valid UTF-8, marked with "…" at the
// front when earlier output was dropped.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.ToValidUTF8(string(t.b), "\uFFFD")
	if t.cut && s != "" {
		s = "…" + s
	}
	return s
}

// headBuffer keeps the first max bytes written to it and counts the rest.
type headBuffer struct {
	max     int
	b       []byte
	dropped int64
}

// Write implements io.Writer; it never fails, so a program that prints a
// lot is not stopped by a short write.
func (h *headBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := h.max - len(h.b); room > 0 {
		k := min(room, len(p))
		h.b = append(h.b, p[:k]...)
		p = p[k:]
	}
	h.dropped += int64(len(p))
	return n, nil
}

var errLineTooLong = fmt.Errorf("answered a line longer than %d bytes", MaxLine)

// readLine reads one line of at most max bytes, without its line end.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	return readLineInto(r, max, nil)
}

// readLineInto is readLine, the line read into buf's room (buf[:0]) as
// far as it goes: a caller done with each line before reading the next
// reads all of them into one buffer.
func readLineInto(r *bufio.Reader, max int, buf []byte) ([]byte, error) {
	line := buf[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 { // +1: the '\n'
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			line = line[:len(line)-1]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return line, err
		}
	}
}

// quoteShort quotes b for a message, cut to n bytes.
func quoteShort(b []byte, n int) string {
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}
