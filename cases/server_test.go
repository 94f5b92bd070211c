package cases

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
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

// rawGet sends a GET for path on host to the plain server and returns
// everything it answers until it closes the connection.
func rawGet(t *testing.T, srv *Server, host, path string) string {
	t.Helper()
	conn, err := net.DialTimeout("tcp", srv.plain.Listener.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	req, _ := http.NewRequest(http.MethodGet, "http://"+host+path, nil)
	req.Close = true
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(bufio.NewReader(conn))
	if err != nil {
		t.Fatalf("reading the answer: %v (so far %q)", err, b)
	}
	return string(b)
}
