package main

import (
	"context"
	"fmt"
	"io"
)

// cmdList is not written yet.
func cmdList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "reptest list: not implemented yet")
	return 2
}
