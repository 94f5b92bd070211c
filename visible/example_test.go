package visible_test

import (
	"fmt"

	"github.com/reptest/reptest/visible"
)

func ExampleString() {
	fmt.Println(visible.String("Disallow: /a\u00a0b\t# \xff"))
	// Output: Disallow: /a\u00a0b\t# \xff
}
