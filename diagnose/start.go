package diagnose

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"

	"github.com/reptest/reptest/result"
)

// Start is what the fitter reads of an evidence before it fits any
// parser: the reference's verdicts and, per single misreading, where its
// variant departs from the reference. It depends on the bodies and the
// questions alone, not on any parser's verdicts, so a cache can keep it
// for the next run over the same inputs: a run after one parser changed
// then pays for fitting that parser, not for reading every variant again.
type Start struct {
	e *evaluator
}

// startData is a Start's encoded form: the evaluator's state after it
// read the reference and the single misreadings.
type startData struct {
	Questions, Bodies int
	Ref               []uint8
	Reach, On         map[string][]int32
	Memo              map[string][][]uint8
}

// NewStart reads ev's reference verdicts and single misreadings.
func NewStart(ev *Evidence) *Start { return &Start{e: newEvaluator(ev)} }

// MarshalBinary encodes s. Encode a Start before fitting from it: the
// fit adds the verdicts of the variants it tries.
func (s *Start) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	e := s.e
	d := startData{Questions: len(e.order), Bodies: len(e.ev.Bodies), Ref: e.ref, Reach: e.reach, On: e.on, Memo: e.memo}
	if err := gob.NewEncoder(&b).Encode(d); err != nil {
		return nil, fmt.Errorf("diagnose: encoding the fit's start: %w", err)
	}
	return b.Bytes(), nil
}

// StartFrom decodes data, a Start that MarshalBinary encoded for
// evidence with the same bodies and questions as ev. It returns an error
// when data is damaged or was made for evidence of another shape; the
// caller then reads ev afresh with NewStart.
func StartFrom(ev *Evidence, data []byte) (*Start, error) {
	var d startData
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&d); err != nil {
		return nil, fmt.Errorf("diagnose: decoding the fit's start: %w", err)
	}
	if d.Questions != len(ev.Questions) || d.Bodies != len(ev.Bodies) || len(d.Ref) != len(ev.Questions) {
		return nil, fmt.Errorf("diagnose: the fit's start was made for %d questions on %d bodies, not %d on %d",
			d.Questions, d.Bodies, len(ev.Questions), len(ev.Bodies))
	}
	e := newLayout(ev)
	e.ref, e.reach, e.on, e.memo = d.Ref, orEmpty(d.Reach), orEmpty(d.On), d.Memo
	if e.memo == nil {
		e.memo = map[string][][]uint8{}
	}
	for id, ps := range e.reach {
		for _, p := range ps {
			if int(p) >= len(e.order) {
				return nil, fmt.Errorf("diagnose: the fit's start has position %d of %s past %d questions", p, id, len(e.order))
			}
		}
	}
	for _, m := range e.memo {
		if len(m) != len(ev.Bodies) {
			return nil, fmt.Errorf("diagnose: the fit's start keeps verdicts of %d bodies, not %d", len(m), len(ev.Bodies))
		}
		for b, codes := range m {
			if len(codes) == 0 {
				m[b] = nil // gob gives an empty slice for a body not read yet
				continue
			}
			if len(codes) != int(e.first[b+1]-e.first[b]) {
				return nil, fmt.Errorf("diagnose: the fit's start keeps %d verdicts of body %d, not %d", len(codes), b, e.first[b+1]-e.first[b])
			}
		}
	}
	return &Start{e: e}, nil
}

func orEmpty(m map[string][]int32) map[string][]int32 {
	if m == nil {
		return map[string][]int32{}
	}
	return m
}

// FitFrom is Fit from a start read of the same bodies and questions as
// ev (NewStart, StartFrom), with ev's parsers' verdicts.
func FitFrom(ctx context.Context, ev *Evidence, s *Start) ([]result.Diagnosis, error) {
	e := s.e
	e.ev = ev
	out := make([]result.Diagnosis, len(ev.Parsers))
	// Parsers are fitted at once, each on a fork of the start, which
	// they leave as it was.
	e.shareReach()
	e.parallel(len(ev.Parsers), func(f *evaluator, i int) {
		if ctx.Err() == nil {
			out[i] = f.diagnose(i, ev.Parsers[i])
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
