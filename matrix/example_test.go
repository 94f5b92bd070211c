package matrix_test

import (
	"fmt"

	"github.com/reptest/reptest/matrix"
)

// A site owner checks what a file with a named group means: the named
// group replaces the "*" group, so its crawler may fetch /go/.
func ExampleBuild() {
	body := []byte("User-agent: ExampleBot\nAllow: /\n\nUser-agent: *\nDisallow: /go/\n")
	m, err := matrix.Build(body, matrix.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, a := range m.Agents {
		fmt.Printf("%s /go/ allowed: %v\n", a, m.Cells[i][1].Allowed)
	}
	for _, w := range m.Warnings {
		fmt.Printf("line %d: %s\n", w.Line, w.Kind)
	}
	// Output:
	// ExampleBot /go/ allowed: true
	// UnlistedBot /go/ allowed: false
	// line 1: star-rules-not-inherited
}
