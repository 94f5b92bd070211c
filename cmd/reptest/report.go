package main

import (
	"context"
	"fmt"
	"io"
)

// cmdReport is not written yet.
func cmdReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "reptest report: not implemented yet")
	return 2
}
