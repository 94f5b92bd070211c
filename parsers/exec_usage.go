package parsers

import (
	"context"
	"fmt"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// Usage implements cases.UsageReporter for a program with the capability
// usage: the request carries "usage", the categories, and the answer
// holds "usage", an object of category to "y", "n" or "unknown".
func (e *Exec) Usage(ctx context.Context, req cases.Request, categories []string) (map[string]string, error) {
	if !e.info.Has(result.CapUsage) {
		return nil, fmt.Errorf("%s: %w: usage", e.info.Name, errCapability)
	}
	if err := e.accepts(req); err != nil {
		return nil, err
	}
	a, raw, id, err := e.exchange(ctx, req, nil, categories...)
	if err != nil {
		return nil, err
	}
	if a.Error != nil {
		return nil, fmt.Errorf("%s: request %s: the parser answered an error: %s", e.info.Name, id, *a.Error)
	}
	if a.Usage == nil {
		return nil, fmt.Errorf("%s: request %s: the answer has no usage: %s", e.info.Name, id, quoteShort(raw, 200))
	}
	return a.Usage, nil
}
