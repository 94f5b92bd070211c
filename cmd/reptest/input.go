package main

import (
	"fmt"
	"io"
	"os"
)

// maxInput bounds one input file a command reads whole (a robots.txt,
// a findings or fuzz corpus file), so that a wrong path such as
// /dev/zero is an error rather than unbounded allocation.
const maxInput = 64 << 20

// readInput reads a file, or standard input for "-", up to maxInput
// bytes.
func readInput(name string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	body, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(body) > maxInput {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, maxInput)
	}
	return body, nil
}
