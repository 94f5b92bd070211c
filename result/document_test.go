package result

import "testing"

func TestValidText(t *testing.T) {
	if got := validText("a\xffb\xc3("); got != `a\xFFb\xC3(` {
		t.Errorf("validText = %q", got)
	}
}
