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
	r, err := openInput(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	body, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(body) > maxInput {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, maxInput)
	}
	return body, nil
}

// openInput opens a file, or standard input for "-".
func openInput(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	return os.Open(name)
}

// readFile opens the file name and decodes it with read, which is given
// the name for its messages (file:line). Every structured input of a
// command (results, findings, expected failures, diff reports) is read
// here.
func readFile[T any](name string, read func(r io.Reader, name string) (T, error)) (T, error) {
	f, err := os.Open(name)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return read(f, name)
}

// named adapts a decoder that does not know the file's name: its errors
// are prefixed with the name.
func named[T any](read func(io.Reader) (T, error)) func(io.Reader, string) (T, error) {
	return func(r io.Reader, name string) (T, error) {
		v, err := read(r)
		if err != nil {
			return v, fmt.Errorf("%s: %w", name, err)
		}
		return v, nil
	}
}
