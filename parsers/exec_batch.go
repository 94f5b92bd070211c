package parsers

import (
	"context"
	"fmt"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// CheckBatch implements cases.Batcher. A program whose hello announced
// the capability "batch" gets one request per MaxBatch questions, parsing
// the body once; any other gets one check per question, so the verdicts
// are those of Check either way. Fetch and timeline requests are always
// asked one by one.
func (e *Exec) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	if !e.batch || req.Kind() == result.CapFetch {
		return eachCheck(ctx, e, req, qs)
	}
	vs := make([]result.Verdict, len(qs))
	errs := make([]error, len(qs))
	if err := e.accepts(req); err != nil {
		fillErr(errs, err)
		return vs, errs
	}
	for lo := 0; lo < len(qs); lo += MaxBatch {
		hi := min(len(qs), lo+MaxBatch)
		e.batchPart(ctx, req, qs[lo:hi], vs[lo:hi], errs[lo:hi])
	}
	return vs, errs
}

// batchPart asks one batch request and fills vs and errs.
func (e *Exec) batchPart(ctx context.Context, req cases.Request, qs []cases.Question, vs []result.Verdict, errs []error) {
	a, raw, id, err := e.exchange(ctx, req, qs)
	switch {
	case err != nil:
		fillErr(errs, err)
		return
	case a.Error != nil:
		fillErr(errs, fmt.Errorf("%s: batch %s: %w", e.info.Name, id, &AnswerError{Message: *a.Error, Detail: a.Detail}))
		return
	case len(a.Answers) != len(qs):
		fillErr(errs, fmt.Errorf("%s: batch %s: %d answers to %d questions: %s", e.info.Name, id, len(a.Answers), len(qs), quoteShort(raw, 200)))
		return
	}
	for i, x := range a.Answers {
		v, err := verdictOf(x.Verdict, x.Error, x.Detail, raw)
		if err != nil {
			errs[i] = fmt.Errorf("%s: batch %s, question %d: %w", e.info.Name, id, i+1, err)
			continue
		}
		vs[i] = v
	}
}

func fillErr(errs []error, err error) {
	for i := range errs {
		errs[i] = err
	}
}
