package diagnose

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// MaxExampleLines is the most lines of robots.txt an example aims at.
const MaxExampleLines = 5

// exampleCandidates bounds the candidates cut down per behaviour, and
// exampleTries the bodies tried cutting each.
const (
	exampleCandidates = 6
	exampleTries      = 400
	// exampleCutBytes is the largest body cut down; a larger one (a
	// size limit's evidence) is shown by its first lines.
	exampleCutBytes = 64 << 10
)

// example returns the shortest evidence of misreading id: among the
// departures it explains, the bodies are cut line by line while the
// variant still gives the parser's verdict and the reference does not.
// The variant is id alone when that shows it, else ids (the misreadings
// chosen up to id).
func (f *parserFit) example(id string, ids []string, pos []int32) *result.Example {
	pos = slices.Clone(pos)
	slices.SortStableFunc(pos, func(a, b int32) int {
		return cmp.Compare(len(f.e.ev.Bodies[f.e.question(a).Body].Robots), len(f.e.ev.Bodies[f.e.question(b).Body].Robots))
	})
	var best *result.Example
	for _, p := range pos[:min(len(pos), exampleCandidates)] {
		q := f.e.question(p)
		b := &f.e.ev.Bodies[q.Body]
		x := &result.Example{Status: b.Status, Agent: q.Agent, URL: q.URL, Verdict: verdictOf(f.mine[p]), Reference: verdictOf(f.e.ref[p]), Source: b.Source}
		if x.Status == 200 {
			x.Status = 0
		}
		x.Robots = f.cutFor(b, q, x.Verdict, id, ids)
		if best == nil || lines(x.Robots) < lines(best.Robots) ||
			lines(x.Robots) == lines(best.Robots) && len(x.Robots) < len(best.Robots) {
			best = x
		}
	}
	return best
}

// cutFor cuts b down for the question q: the smallest body on which id
// alone, else ids, gives want and the reference does not.
func (f *parserFit) cutFor(b *Body, q *Question, want result.Verdict, id string, ids []string) string {
	if len(b.Robots) > exampleCutBytes {
		head := splitLines(b.Robots)
		return string(bytes.Join(head[:min(len(head), MaxExampleLines)], nil)) +
			fmt.Sprintf("… (%d bytes in all)\n", len(b.Robots))
	}
	for _, v := range [][]string{{id}, ids} {
		holds := f.holds(b, q, v, want)
		if holds(b.Robots) {
			return string(cut(b.Robots, holds))
		}
	}
	return string(b.Robots)
}

// holds returns the test a cut body must pass: the variant ids gives
// want on q and the reference does not.
func (f *parserFit) holds(b *Body, q *Question, ids []string, want result.Verdict) func([]byte) bool {
	vopts := variant(b.profileOf(), ids)
	ropts, _ := reference.OptionsFor(b.profileOf())
	return func(body []byte) bool {
		cb := *b
		cb.Robots = body
		v := verdictOn(fetched(&cb, vopts), q.Agent, q.URL)
		r := verdictOn(fetched(&cb, ropts), q.Agent, q.URL)
		return v == want && known(r) && r != want
	}
}

// cut removes lines from body, halves first, then ever smaller runs,
// as long as holds stays true.
func cut(body []byte, holds func([]byte) bool) []byte {
	ls := splitLines(body)
	tries := 0
	for n := max(1, len(ls)/2); ; n /= 2 {
		for i := 0; i < len(ls) && tries < exampleTries; tries++ {
			try := slices.Concat(ls[:i], ls[min(len(ls), i+n):])
			if len(try) < len(ls) && holds(bytes.Join(try, nil)) {
				ls = try
				continue
			}
			i += n
		}
		if n == 1 {
			return bytes.Join(ls, nil)
		}
	}
}

// splitLines splits body after each LF, CR not followed by LF, or CRLF.
func splitLines(body []byte) [][]byte {
	var out [][]byte
	start := 0
	for i := 0; i < len(body); i++ {
		switch {
		case body[i] == '\n', body[i] == '\r' && (i+1 == len(body) || body[i+1] != '\n'):
			out = append(out, body[start:i+1])
			start = i + 1
		}
	}
	if start < len(body) {
		out = append(out, body[start:])
	}
	return out
}

// lines counts the lines of s.
func lines(s string) int { return len(splitLines([]byte(s))) }
