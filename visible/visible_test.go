package visible_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/visible"
)

// The suite had three escapes: cases.printable quoted a whole line with
// strconv.Quote as soon as one character was not printable (so a plain
// line and a quoted one looked alike), report's escape wrote \x09 and
// \u202E but left a backslash and a no-break space alone (so "\x41" in a
// file and an escaped byte looked alike, and NBSP passed for a space),
// diff.Visible wrote Go escapes. The Go escapes won: they touch only the
// characters that need it, escape the backslash and non-ASCII spaces,
// and read back with strconv.UnquoteChar (TestRoundTrip).
func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Disallow: /a b", "Disallow: /a b"},
		{"tab\there", `tab\there`},
		{"nul\x00 del\x7f", `nul\x00 del\x7f`},
		{"\xff\xfe", `\xff\xfe`},
		{`back\slash \x41`, `back\\slash \\x41`},
		{"nbsp\u00a0bom\ufeff", `nbsp\u00a0bom\ufeff`},
		{"rlo\u202egnp", `rlo\u202egnp`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"tag\U000E0041", `tag\U000e0041`},
		{"repl\ufffd", `repl\ufffd`},
		{"héllo ツ ü", "héllo ツ ü"},
		{"cr\r\nlf", `cr\r\nlf`},
	} {
		if got := visible.String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestRuns(t *testing.T) {
	got := visible.Runs("a\u202eb\nc\xff", true)
	want := []visible.Run{{Text: "a"}, {Text: `\u202e`, Escaped: true}, {Text: "b\nc"}, {Text: `\xff`, Escaped: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Runs (-want +got):\n%s", diff)
	}
	if got := visible.Runs("a\nb", false); len(got) != 3 || got[1].Text != `\n` {
		t.Errorf("Runs without keepNewlines = %v, want the line feed escaped", got)
	}
}

// unescape reads String's output back.
func unescape(t *testing.T, s string) string {
	var out []byte
	for s != "" {
		r, multi, tail, err := strconv.UnquoteChar(s, 0)
		if err != nil {
			t.Fatalf("UnquoteChar(%q): %v", s, err)
		}
		if multi {
			out = append(out, string(r)...)
		} else {
			out = append(out, byte(r))
		}
		s = tail
	}
	return string(out)
}

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "a\\b", "\x00\x01\xff\xc3", "\u202e\u00a0\t\r\n", "日本\U000E0001", "%41\\x41"} {
		if got := unescape(t, visible.String(s)); got != s {
			t.Errorf("unescape(String(%q)) = %q", s, got)
		}
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add("a\\b\xff\u202e")
	f.Fuzz(func(t *testing.T, s string) {
		if got := unescape(t, visible.String(s)); got != s {
			t.Errorf("unescape(String(%q)) = %q", s, got)
		}
	})
}
