package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/accesslog"
)

// stallReader is a pipe that sends its data, then nothing: its Read
// says on waiting that it waits, until release is closed, and then ends.
type stallReader struct {
	data    []byte
	waiting chan struct{}
	release chan struct{}
	closed  bool
}

func (s *stallReader) Read(p []byte) (int, error) {
	if len(s.data) > 0 {
		n := copy(p, s.data)
		s.data = s.data[n:]
		return n, nil
	}
	close(s.waiting)
	<-s.release
	return 0, io.EOF
}

func (s *stallReader) Close() error { s.closed = true; return nil }

// A read of an interruptible reader that waits for input returns when
// the context is cancelled, with its cause, after the data sent before;
// closing the reader closes the source, and the goroutine reading it ends
// once the source's read returns.
func TestInterruptible(t *testing.T) {
	for _, data := range []string{"", "1.2.3.4 - - [06/Oct/2026:01:00:01 +0000] \"GET / HTTP/1.1\" 200 1\n"} {
		before := runtime.NumGoroutine()
		src := &stallReader{data: []byte(data), waiting: make(chan struct{}), release: make(chan struct{})}
		ctx, cancel := context.WithCancelCause(context.Background())
		r := interruptible(ctx, src)
		type result struct {
			got []byte
			err error
		}
		done := make(chan result, 1)
		go func() {
			got, err := io.ReadAll(r)
			done <- result{got, err}
		}()
		<-src.waiting
		stop := errors.New("stopped by the test")
		cancel(stop)
		var res result
		select {
		case res = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("sent %q: the read goes on waiting after the context was cancelled", data)
		}
		if diff := cmp.Diff(data, string(res.got)); diff != "" || !errors.Is(res.err, stop) {
			t.Errorf("sent %q: error %v, want %q; data read (-sent +read):\n%s", data, res.err, stop, diff)
		}
		if err := r.Close(); err != nil || !src.closed {
			t.Errorf("sent %q: Close: %v, source closed %v; want it closed", data, err, src.closed)
		}
		close(src.release)
		waitGoroutines(t, before)
	}
}

// waitGoroutines fails unless the goroutines number at most n again
// within ten seconds.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if runtime.NumGoroutine() <= n {
			return
		}
	}
	t.Errorf("%d goroutines, want at most %d: the reading goroutine did not end", runtime.NumGoroutine(), n)
}

// BenchmarkScanStream scans a log of 20,000 lines read directly (a
// regular file) and through interruptible (standard input, a pipe): the
// difference is what a pipe's interruptible reads cost.
func BenchmarkScanStream(b *testing.B) {
	var log bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&log, "1.2.3.4 - - [06/Oct/2026:01:00:01 +0000] \"GET /p/%d HTTP/1.1\" 200 40 \"-\" \"FooBot/1.0\"\n", i)
	}
	for _, bc := range []struct {
		name string
		open func(io.ReadCloser) io.ReadCloser
	}{
		{"direct", func(r io.ReadCloser) io.ReadCloser { return r }},
		{"interruptible", func(r io.ReadCloser) io.ReadCloser { return interruptible(context.Background(), r) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(log.Len()))
			for b.Loop() {
				r := bc.open(io.NopCloser(bytes.NewReader(log.Bytes())))
				sc := accesslog.NewScanner(r, "-", accesslog.Format{})
				for sc.Scan() {
				}
				if sc.Err() != nil || sc.Lines() != 20000 {
					b.Fatalf("%d lines, error %v", sc.Lines(), sc.Err())
				}
				r.Close()
			}
		})
	}
}
