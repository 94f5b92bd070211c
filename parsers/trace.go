package parsers

import (
	"context"

	"github.com/reptest/reptest/cases"
)

// Trace implements cases.Tracer: the verdict, the line of the deciding
// rule (0 when no rule decided) with the lines that tie with it, and the
// decision's explanation.
func (p *Reference) Trace(ctx context.Context, req cases.Request) (cases.Explanation, error) {
	d, err := p.Decide(ctx, req)
	if err != nil {
		return cases.Explanation{}, err
	}
	return cases.ExplainDecision(d), nil
}
