package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// maxInput bounds one input file a command reads whole (a robots.txt,
// a findings or fuzz corpus file), so that a wrong path such as
// /dev/zero is an error rather than unbounded allocation.
const maxInput = 64 << 20

// readInput reads a file, or standard input for "-", up to maxInput
// bytes; a wait for input on standard input or a pipe ends when ctx is
// done (openInput).
func readInput(ctx context.Context, name string) ([]byte, error) {
	r, err := openInput(ctx, name)
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

// openInput opens a file, or standard input for "-", to be read until
// ctx is done. Standard input and other files that are not regular (a
// pipe, a terminal) can wait for input forever, and a read of standard
// input cannot be interrupted: their reads go through interruptible, so
// that a cancelled ctx ends a wait at once. A named pipe's open waits
// for a writer, which openNamed ends too. A regular file is read
// directly.
func openInput(ctx context.Context, name string) (io.ReadCloser, error) {
	var r io.ReadCloser = io.NopCloser(os.Stdin)
	f := os.Stdin
	if name != "-" {
		var err error
		if f, err = openNamed(ctx, name); err != nil {
			return nil, err
		}
		r = f
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		return r, nil
	}
	return interruptible(ctx, r), nil
}

// openNamed opens the file name for reading. Opening a named pipe waits
// until a program opens it for writing, however long that takes: that
// wait ends when ctx is done, with ctx's cause. The pipe is then opened
// for writing and closed at once, which ends the wait of the open in
// progress (a pipe with a reader opens for writing without waiting), so
// that nothing is left waiting, as a rule.
func openNamed(ctx context.Context, name string) (*os.File, error) {
	if st, err := os.Stat(name); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return os.Open(name)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
	}
	stopped := fmt.Errorf("%s: waiting for a program to write to the pipe: %w", name, context.Cause(ctx))
	// Tried again for a while: the goroutine may not be in its open yet.
	for range 100 {
		if w, err := os.OpenFile(name, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		select {
		case o := <-done:
			if o.f != nil {
				o.f.Close()
			}
			return nil, stopped
		case <-time.After(10 * time.Millisecond):
		}
	}
	go func() {
		if o := <-done; o.f != nil {
			o.f.Close()
		}
	}()
	return nil, stopped
}

// interruptible returns a reader of r whose Read returns context.Cause(ctx)
// as soon as ctx is done, even while r's Read waits. r is read in a
// goroutine through an io.Pipe, one chunk handed over at a time; the
// goroutine ends at r's end or error, or when its Read in progress
// returns after ctx is done or the reader is closed. Closing the reader
// closes r, which ends such a Read on a pipe opened by name; a Read of
// standard input goes on until its input comes or the process exits.
func interruptible(ctx context.Context, r io.ReadCloser) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r)
		pw.CloseWithError(err) // nil: io.EOF for the reader
	}()
	// Closing the writing end lets the reader have what was handed over,
	// then the cause; the goroutine's next write fails.
	stop := context.AfterFunc(ctx, func() { pw.CloseWithError(context.Cause(ctx)) })
	return &pipedReader{PipeReader: pr, src: r, stop: stop}
}

// pipedReader is the reader interruptible returns.
type pipedReader struct {
	*io.PipeReader
	src  io.Closer
	stop func() bool
}

func (p *pipedReader) Close() error {
	p.stop()
	p.PipeReader.Close()
	return p.src.Close()
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
