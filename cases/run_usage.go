package cases

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/reptest/reptest/result"
)

// checkUsage asks a parser with CapUsage for the usage preferences that
// the check expects and fails the check, at its level, when one differs.
// out and detail are the verdict's outcome and detail so far; the parser's
// answers are returned for the result. A parser without the capability
// keeps its verdict's outcome, with a detail saying that preferences were
// not checked.
func (r *runner) checkUsage(ctx context.Context, c *Case, chk *Check, p *parserState, req Request, out result.Outcome, detail string) (result.Outcome, string, map[string]string) {
	if len(chk.Usage) == 0 {
		return out, detail, nil
	}
	ur, ok := p.Parser.(UsageReporter)
	if !ok || !p.info.Has(result.CapUsage) {
		return out, joinDetail(detail, "usage preferences not checked: the parser lacks the capability usage"), nil
	}
	categories := make([]string, 0, len(chk.Usage))
	for k := range chk.Usage {
		categories = append(categories, k)
	}
	slices.Sort(categories)
	got, err := askUsage(ctx, ur, req, categories, r.opts.Timeout)
	if err != nil {
		return result.Error, joinDetail(detail, "usage: "+err.Error()), nil
	}
	var wrong []string
	for _, k := range categories {
		g, ok := got[k]
		if !ok {
			g = "(none)"
		}
		if g != chk.Usage[k] {
			wrong = append(wrong, fmt.Sprintf("%s=%s, want %s", k, g, chk.Usage[k]))
		}
	}
	if len(wrong) == 0 {
		return out, detail, got
	}
	if out == result.Pass || out == result.Note {
		out = result.OutcomeOf(c.Level, chk.Expect, nil, "")
	}
	return out, joinDetail(detail, "usage preferences differ: "+strings.Join(wrong, "; ")), got
}

// askUsage calls the parser under the per-check timeout, recovering from
// a panic.
func askUsage(ctx context.Context, ur UsageReporter, req Request, categories []string, timeout time.Duration) (got map[string]string, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer func() {
		if x := recover(); x != nil {
			got, err = nil, fmt.Errorf("the parser panicked: %v", x)
		}
	}()
	return ur.Usage(ctx, req, categories)
}

func joinDetail(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
