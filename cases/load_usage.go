package cases

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/reptest/reptest/reference"
)

// usage reads a check's usage key: a mapping of usage categories to y, n
// or unknown (for the use key: immediate, reference, full or unknown).
func (r *reader) usage(n *yaml.Node) map[string]string {
	categories := reference.UsageCategories()
	f, ok := r.mapping(n, "usage", categories)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(f))
	for name, fl := range f {
		v, ok := r.str(fl.val, "usage "+name)
		if !ok {
			continue
		}
		var values []string
		for _, u := range reference.UsageValues(name) {
			values = append(values, string(u))
		}
		if !slices.Contains(values, v) {
			r.errorf(fl.val, "usage %s: bad preference %q (want %s)", name, v, strings.Join(values, ", "))
			continue
		}
		out[name] = v
	}
	if len(f) == 0 {
		r.errorf(n, "usage: name at least one category (%s)", strings.Join(categories, ", "))
	}
	return out
}
