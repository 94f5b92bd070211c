package main

import (
	"context"
	"fmt"
	"io"
)

// cmdDiff is not written yet.
func cmdDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "reptest diff: not implemented yet")
	return 2
}
