package cmdline

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" \t\n", nil},
		{"./robots_main %robots% %user-agent% %url%", []string{"./robots_main", "%robots%", "%user-agent%", "%url%"}},
		{"  a\t b \n c  ", []string{"a", "b", "c"}},
		{`p 'a b' "c d" e\ f`, []string{"p", "a b", "c d", "e f"}},
		{`p '' ""`, []string{"p", "", ""}},
		{`p 'it'\''s' "say \"hi\" \$x \a"`, []string{"p", "it's", `say "hi" $x \a`}},
		{`p --url=%url% x"y"'z'`, []string{"p", "--url=%url%", "xyz"}},
		{"p a\\\nb", []string{"p", "ab"}},
		{"p \"a\\\nb\"", []string{"p", "ab"}},
		{`p $HOME * | > ;`, []string{"p", "$HOME", "*", "|", ">", ";"}},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		if err != nil {
			t.Errorf("Split(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Split(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`p 'a`, "unterminated single quote"},
		{`p "a`, "unterminated double quote"},
		{`p "a\"`, "unterminated double quote"},
		{`p a\`, "backslash at the end"},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Split(%q) = %q, %v; want error %q", tt.in, got, err, tt.want)
		}
	}
}
