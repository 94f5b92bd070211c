package main

import (
	"context"
	"fmt"
	"io"
)

// cmdRun is not written yet.
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "reptest run: not implemented yet")
	return 2
}
