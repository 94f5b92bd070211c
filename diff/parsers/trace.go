package parsers

import (
	"context"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
)

// Trace implements cases.Tracer: the verdict, the line of the deciding
// rule (0 when no rule decided) and the decision's explanation.
func (p *Reference) Trace(ctx context.Context, req cases.Request) (cases.Verdict, int, string, error) {
	d, err := p.Decide(ctx, req)
	if err != nil {
		return "", 0, "", err
	}
	line := 0
	if d.Reason == reference.RuleMatched {
		line = d.Rule.Line
	}
	v := cases.Disallow
	if d.Allowed {
		v = cases.Allow
	}
	return v, line, d.String(), nil
}
