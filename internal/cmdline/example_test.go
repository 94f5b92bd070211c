package cmdline_test

import (
	"fmt"

	"github.com/reptest/reptest/internal/cmdline"
)

func ExampleSplit() {
	words, err := cmdline.Split(`robots_main --agent 'Foo Bot' "%url%" a\ b`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range words {
		fmt.Printf("[%s]\n", w)
	}
	// Output:
	// [robots_main]
	// [--agent]
	// [Foo Bot]
	// [%url%]
	// [a b]
}
