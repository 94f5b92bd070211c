package parsers

import (
	"encoding/base64"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
)

// TestServeLastBody reads a sequence of request lines with the body of
// the line before kept (as Serve does) and without, and checks that both
// read every line as the same request: lines that resend the body the
// way encodeRequest writes them, and lines written otherwise.
func TestServeLastBody(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	body, other := "User-agent: *\nDisallow: /private\n", "User-agent: *\nAllow: /\n"
	batch := func(id, robots string) string {
		line, err := encodeRequest(id, cases.Request{Robots: []byte(robots), Status: 200}, []cases.Question{{Agent: "FooBot", URL: "https://example.com/private"}})
		if err != nil {
			t.Fatal(err)
		}
		return string(line[:len(line)-1])
	}
	lines := []string{
		batch("1", body),
		batch("2", body), // the body again: read without it
		batch("3", other),
		batch("4", body),
		`{"id":"5","robots_b64":"` + b64(body) + `","agent":"FooBot","url":"https://example.com/","robots_b64":"` + b64(other) + `"}`,
		`{"id":"6","robots_b64":"` + b64(body) + `","agent":"FooBot","url":"https://example.com/","Robots_B64":"` + b64(other) + `"}`,
		`{"id":"7","agent":"FooBot","url":"https://example.com/"}`, // no body: none kept is used
		batch("8", body),
		`{"id":"9","robots_b64":"` + b64(body)[:4] + `\/` + b64(body)[6:] + `","agent":"FooBot","url":"https://example.com/"}`,
		`{"id":"x10","robots_b64":"` + b64(body) + `","agent":"FooBot","url":"https://example.com/"}`,
		`{"id":"11","robots_b64":"` + b64(body) + `","agent":"FooBot","url":"https://example.com/"}`,
		`{"id":"12","robots_b64":"` + b64(body) + `", "agent":"FooBot"`, // cut
		`{"id":"13","robots_b64":"` + b64(body) + `"}`,
		`{"id":"14","robots_b64":"%%%"}`,
		`{"id":"15","robots_b64":"%%%"}`,
		`{"hello":"reptest/1"}`,
		batch("16", ""),
		batch("17", ""),
	}
	read := func(l *lastLine, line string) (cases.Request, incoming, []byte, error) {
		var in incoming
		body, err := l.read([]byte(line), &in)
		if err != nil {
			return cases.Request{}, in, nil, err
		}
		req, err := decodeRequest(in.request)
		if body != nil {
			req.Robots = body // as serveLine does
		}
		return req, in, body, err
	}
	var last lastLine
	reused := 0
	for _, line := range lines {
		prev := last.body
		got, kept, body, gerr := read(&last, line)
		want, whole, _, werr := read(new(lastLine), line)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%s: error %v with the body kept, %v without", line, gerr, werr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: read with the body kept (-whole +kept):\n%s", line, diff)
		}
		if kept.Hello == nil != (whole.Hello == nil) || kept.ID != whole.ID || len(kept.Questions) != len(whole.Questions) {
			t.Errorf("%s: id, hello or questions read otherwise with the body kept", line)
		}
		if len(body) > 0 && len(prev) > 0 && &body[0] == &prev[0] {
			reused++
		}
	}
	if reused != 3 {
		t.Errorf("the body kept was used %d times, want 3 (lines 2, 11, 13)", reused)
	}
}
