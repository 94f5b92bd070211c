package accesslog

import (
	"container/heap"

	"github.com/reptest/reptest/crawl"
)

// Merged reads several logs as one, in time order: each log in its own
// order, the next request being the earliest of the logs' next ones (the
// earlier log first on a tie). It holds one request per log, so rotated
// logs and the logs of several servers stream together.
type Merged struct {
	heads mergeHeap
	req   crawl.Request
	err   error
	began bool
}

// Merge returns the merge of the scanners' requests.
func Merge(scanners ...*Scanner) *Merged {
	m := &Merged{}
	for i, s := range scanners {
		m.heads = append(m.heads, mergeHead{s: s, i: i})
	}
	return m
}

type mergeHead struct {
	s *Scanner
	i int
}

type mergeHeap []mergeHead

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(a, b int) bool {
	ta, tb := h[a].s.Request().Time, h[b].s.Request().Time
	if !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return h[a].i < h[b].i
}
func (h mergeHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(mergeHead)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Scan advances to the next request in time order; false when every log
// has ended or one failed to read (see Err).
func (m *Merged) Scan() bool {
	if !m.began {
		m.began = true
		live := m.heads[:0]
		for _, h := range m.heads {
			if m.advance(h.s) {
				live = append(live, h)
			}
		}
		m.heads = live
		heap.Init(&m.heads)
	} else if len(m.heads) > 0 {
		if m.advance(m.heads[0].s) {
			heap.Fix(&m.heads, 0)
		} else {
			heap.Pop(&m.heads)
		}
	}
	if m.err != nil || len(m.heads) == 0 {
		return false
	}
	m.req = m.heads[0].s.Request()
	return true
}

func (m *Merged) advance(s *Scanner) bool {
	if s.Scan() {
		return true
	}
	if err := s.Err(); err != nil && m.err == nil {
		m.err = err
	}
	return false
}

// Request returns the request Scan found.
func (m *Merged) Request() crawl.Request { return m.req }

// Err returns the first read error of a log, if any.
func (m *Merged) Err() error { return m.err }
