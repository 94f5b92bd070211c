package cases

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestServerTimeoutWithStatus fetches a "timeout" fault that sends its
// status line first, over plain HTTP and over TLS, many times: the
// client must give up every time, never see a complete response.
func TestServerTimeoutWithStatus(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	err := srv.Serve([]Response{
		{URL: "http://a.test/robots.txt", Status: 200, Fault: "timeout", Body: []byte("User-agent: *\nDisallow: /\n")},
		{URL: "https://a.test/robots.txt", Status: 200, Fault: "timeout", Body: []byte("User-agent: *\nDisallow: /\n")},
		// Without a body, a promised length of 0 would be a complete response.
		{URL: "http://b.test/robots.txt", Status: 200, Fault: "timeout"},
		{URL: "https://b.test/robots.txt", Status: 200, Fault: "timeout"},
	})
	if err != nil {
		t.Fatal(err)
	}
	client := srv.Client(100 * time.Millisecond)
	// The race the connection takeover closes needs many tries; a missing
	// promised body fails at once.
	tries := map[string]int{"http://a.test/robots.txt": 30, "https://a.test/robots.txt": 30, "http://b.test/robots.txt": 3, "https://b.test/robots.txt": 3}
	for u, n := range tries {
		for i := 0; i < n; i++ {
			resp, err := client.Get(u)
			if err != nil {
				continue // the client gave up before the headers came
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil {
				t.Fatalf("%s, try %d: a complete response: status %d, body %q", u, i, resp.StatusCode, body)
			}
		}
	}
}

// TestServerInvalidContentLength checks that a Content-Length the case
// gives is sent as given even when it is no number, with the body whole
// and no chunked encoding.
func TestServerInvalidContentLength(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	body := "User-agent: *\nDisallow: /\n"
	for _, cl := range []string{"abc", "-5", "0x10"} {
		if err := srv.Serve([]Response{{URL: "http://a.test/robots.txt", Status: 200, Headers: map[string]string{"Content-Length": cl}, Body: []byte(body)}}); err != nil {
			t.Fatal(err)
		}
		raw := rawGet(t, srv, "a.test", "/robots.txt")
		head, got, _ := strings.Cut(raw, "\r\n\r\n")
		if !strings.Contains(head, "\r\nContent-Length: "+cl+"\r\n") || strings.Contains(strings.ToLower(head), "transfer-encoding") {
			t.Errorf("Content-Length %q: head\n%s", cl, head)
		}
		if got != body {
			t.Errorf("Content-Length %q: body %q, want %q", cl, got, body)
		}
	}
}

// TestServerRespond fetches one response of each kind the server
// answers (a plain body, a Content-Length the case gives, a delayed and a
// generated body, a final 1xx, and the faults) over a raw connection, and
// checks the bytes on the wire.
func TestServerRespond(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /\n") // 26 bytes
	tests := []struct {
		name string
		resp Response
		// head lists lines the response head holds; body is what follows
		// it.
		head    []string
		body    string
		emptyOK bool // the connection closes unanswered (a fault)
		resetOK bool // a reset may surface as a read error
	}{
		{name: "plain", resp: Response{Status: 200, Body: body},
			head: []string{"HTTP/1.1 200 OK", "Content-Length: 26", "Content-Type: text/plain; charset=utf-8"}, body: string(body)},
		{name: "shorter Content-Length", resp: Response{Status: 200, Body: body, Headers: map[string]string{"Content-Length": "4"}},
			head: []string{"HTTP/1.1 200 OK", "Content-Length: 4"}, body: "User"},
		{name: "delay", resp: Response{Status: 200, Body: body, Delay: 20 * time.Millisecond},
			head: []string{"HTTP/1.1 200 OK", "Content-Length: 26"}, body: string(body)},
		{name: "generated", resp: Response{Status: 200, Gen: &Generator{Prefix: "User-agent: *\n", Repeat: "#", UntilBytes: 20, Suffix: "\n"}},
			head: []string{"HTTP/1.1 200 OK", "Content-Length: 21"}, body: "User-agent: *\n######\n"},
		{name: "redirect", resp: Response{Status: 301, Headers: map[string]string{"Location": "http://b.test/robots.txt"}},
			head: []string{"HTTP/1.1 301 Moved Permanently", "Location: http://b.test/robots.txt", "Content-Length: 0"}},
		{name: "final 1xx", resp: Response{Status: 103, Body: body},
			head: []string{"HTTP/1.1 103 Early Hints", "Content-Type: text/plain; charset=utf-8"}},
		{name: "truncated", resp: Response{Fault: "truncated", Body: body},
			head: []string{"HTTP/1.1 200 OK", "Content-Length: 1076", "Connection: close"}, body: string(body)},
		{name: "timeout with status", resp: Response{Status: 200, Fault: "timeout", Body: body},
			head: []string{"HTTP/1.1 200 OK", "Content-Length: 26"}},
		{name: "timeout", resp: Response{Fault: "timeout", Body: body}, emptyOK: true},
		{name: "reset", resp: Response{Status: 200, Fault: "reset", Body: body}, emptyOK: true, resetOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := NewServer()
			defer srv.Close()
			srv.hold = 200 * time.Millisecond // a timeout fault ends here
			tt.resp.URL = "http://a.test/robots.txt"
			if err := srv.Serve([]Response{tt.resp}); err != nil {
				t.Fatal(err)
			}
			raw, err := rawAnswer(srv, "a.test", "/robots.txt")
			if err != nil && !(tt.resetOK && errors.Is(err, syscall.ECONNRESET)) {
				t.Fatalf("reading the answer: %v (so far %q)", err, raw)
			}
			if tt.emptyOK {
				if raw != "" {
					t.Errorf("answer %q, want none", raw)
				}
				return
			}
			head, got, ok := strings.Cut(raw, "\r\n\r\n")
			if !ok {
				t.Fatalf("no end of head in %q", raw)
			}
			lines := strings.Split(head, "\r\n")
			for _, want := range tt.head {
				if !slices.Contains(lines, want) {
					t.Errorf("head lacks %q:\n%s", want, head)
				}
			}
			if diff := cmp.Diff(tt.body, got); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

// rawGet sends a GET for path on host to the plain server and returns
// everything it answers until it closes the connection.
func rawGet(t *testing.T, srv *Server, host, path string) string {
	t.Helper()
	b, err := rawAnswer(srv, host, path)
	if err != nil {
		t.Fatalf("reading the answer: %v (so far %q)", err, b)
	}
	return b
}

// rawAnswer sends a GET for path on host to the plain server and returns
// what it answers until it closes the connection, and the error that
// ended the reading.
func rawAnswer(srv *Server, host, path string) (string, error) {
	conn, err := net.DialTimeout("tcp", srv.plain.Listener.Addr().String(), 5*time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	req, _ := http.NewRequest(http.MethodGet, "http://"+host+path, nil)
	req.Close = true
	if err := req.Write(conn); err != nil {
		return "", err
	}
	b, err := io.ReadAll(bufio.NewReader(conn))
	return string(b), err
}
