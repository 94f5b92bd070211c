package parsers

import (
	"context"
	"errors"
	"fmt"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// BatchPart is the most questions Exec puts in one batch request. A body's
// questions go as several requests of at most BatchPart, each bounded by
// the sum of its questions' timeouts (BatchTimeout), and the first that
// stalls ends the body (see CheckBatch): a body a program grinds on, such
// as a rule of a thousand '*' that a backtracking regular expression
// cannot match in any time, costs at most BatchPart check timeouts, not
// one per question. Every further request resends the body, which the
// built-in peers recognise without parsing it again.
const BatchPart = 16

// MaxBodyStalls is how many questions about one body may stall, asked one
// by one to a program without batch, before the body's remaining
// questions are not asked.
const MaxBodyStalls = 2

// ErrBodyStalled is the error of a question not asked because the program
// stalled on earlier questions about the same body (see CheckBatch).
var ErrBodyStalled = errors.New("not asked: the program stalled on an earlier question about this body")

// CheckBatch implements cases.Batcher. A program whose hello announced
// the capability "batch" gets one request per BatchPart questions; any
// other gets one check per question, so the verdicts are those of Check
// either way. Once a batch request about the body stalls (or
// MaxBodyStalls questions asked one by one), the body's remaining
// questions are not asked: each is an error wrapping ErrBodyStalled and
// the stall. Fetch and timeline requests are always asked one by one.
func (e *Exec) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	if req.Kind() == result.CapFetch {
		return eachCheck(ctx, e, req, qs)
	}
	vs := make([]result.Verdict, len(qs))
	errs := make([]error, len(qs))
	if !e.batch {
		e.eachUntilStalled(ctx, req, qs, vs, errs)
		return vs, errs
	}
	if err := e.accepts(req); err != nil {
		fillErr(errs, err)
		return vs, errs
	}
	for lo := 0; lo < len(qs); lo += BatchPart {
		hi := min(len(qs), lo+BatchPart)
		if err := e.batchPart(ctx, req, qs[lo:hi], vs[lo:hi], errs[lo:hi]); isStall(err) {
			fillErr(errs[hi:], fmt.Errorf("%w: %w", ErrBodyStalled, err))
			break
		}
	}
	return vs, errs
}

// eachUntilStalled asks the questions one by one until MaxBodyStalls of
// them have stalled, and fills vs and errs.
func (e *Exec) eachUntilStalled(ctx context.Context, req cases.Request, qs []cases.Question, vs []result.Verdict, errs []error) {
	stalls := 0
	for i, q := range qs {
		r := req
		r.Agent, r.URL = q.Agent, q.URL
		vs[i], errs[i] = e.Check(ctx, r)
		if isStall(errs[i]) {
			if stalls++; stalls == MaxBodyStalls {
				fillErr(errs[i+1:], fmt.Errorf("%w: %w", ErrBodyStalled, errs[i]))
				return
			}
		}
	}
}

// isStall reports whether err is a program's stall: no answer within its
// timeout.
func isStall(err error) bool {
	var st *stallError
	return errors.As(err, &st)
}

// batchPart asks one batch request, fills vs and errs, and returns the
// error of the whole request, if any.
func (e *Exec) batchPart(ctx context.Context, req cases.Request, qs []cases.Question, vs []result.Verdict, errs []error) error {
	a, raw, id, err := e.exchange(ctx, req, qs)
	switch {
	case err != nil:
		fillErr(errs, err)
		return err
	case a.Error != nil:
		err = fmt.Errorf("%s: batch %s: %w", e.info.Name, id, &AnswerError{Message: *a.Error, Detail: a.Detail})
		fillErr(errs, err)
		return err
	case len(a.Answers) != len(qs):
		err = fmt.Errorf("%s: batch %s: %d answers to %d questions: %s", e.info.Name, id, len(a.Answers), len(qs), quoteShort(raw, 200))
		fillErr(errs, err)
		return err
	}
	for i, x := range a.Answers {
		v, err := verdictOf(x.Verdict, x.Error, x.Detail, raw)
		if err != nil {
			errs[i] = fmt.Errorf("%s: batch %s, question %d: %w", e.info.Name, id, i+1, err)
			continue
		}
		vs[i] = v
	}
	return nil
}

func fillErr(errs []error, err error) {
	for i := range errs {
		errs[i] = err
	}
}
