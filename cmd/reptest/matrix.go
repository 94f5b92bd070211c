package main

import (
	"context"
	"fmt"
	"io"
)

// cmdMatrix is not written yet.
func cmdMatrix(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "reptest matrix: not implemented yet")
	return 2
}
