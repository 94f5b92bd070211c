package main

import (
	"context"
	"fmt"
	"io"
)

// cmdCheck is not written yet.
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "reptest check: not implemented yet")
	return 2
}
