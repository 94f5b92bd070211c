package main

import (
	"context"
	"fmt"
	"io"
)

// cmdPromote is not written yet.
func cmdPromote(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "reptest promote: not implemented yet")
	return 2
}
