package cases_test

import (
	"fmt"
	"log"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// A requirement's level comes from the table, passed as a value: a G-*
// row describes Google's behaviour, a MUST only under the google profile.
func ExampleRequirementTable() {
	t, err := cases.RequirementTable()
	if err != nil {
		log.Fatal(err)
	}
	for _, q := range []struct{ id, profile string }{
		{"ACC-7", result.ProfileRFC},
		{"CACHE-2", result.ProfileRFC},
		{"G-LEN", result.ProfileGoogle},
		{"G-LEN", result.ProfileRFC},
		{"NOPE-1", result.ProfileRFC},
	} {
		level, ok := t.Level(q.id, q.profile)
		fmt.Printf("%s under %s: %q %v\n", q.id, q.profile, level, ok)
	}
	fmt.Println(result.IDPrefix("MATCH-4"), result.IDPrefix("G-LEN"))
	// Output:
	// ACC-7 under rfc9309: "MUST" true
	// CACHE-2 under rfc9309: "SHOULD" true
	// G-LEN under google: "MUST" true
	// G-LEN under rfc9309: "interpretation" true
	// NOPE-1 under rfc9309: "" false
	// MATCH G
}
