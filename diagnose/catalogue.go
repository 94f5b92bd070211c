package diagnose

import "github.com/reptest/reptest/reference"

// KindCrawl is the kind of the misreadings only a crawler's requests
// show (the port or scheme ignored, robots.txt fetched late or under
// another agent): no variant of the reference's reading models them.
const KindCrawl = reference.KindCrawl

// misreading is an entry of the reference's catalogue.
type misreading = reference.Misreading

// catalogue returns the misreadings the fitter knows, in catalogue order.
func catalogue() []misreading { return reference.Misreadings() }

// lookup returns the misreading id names.
func lookup(id string) (misreading, bool) { return reference.LookupMisreading(id) }

// withMisreadings returns base changed by every misreading of ids.
func withMisreadings(base reference.Options, ids ...string) (reference.Options, error) {
	return reference.WithMisreadings(base, ids...)
}
