package cases

import (
	"bytes"
	"testing"
)

func TestGeneratedReader(t *testing.T) {
	g := &Generator{Prefix: "P\n", Repeat: "r\n", UntilBytes: 10, Suffix: "S\n"}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(genReader(g)); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "P\nr\nr\nr\nr\nS\n"; got != want {
		t.Errorf("generated %q, want %q", got, want)
	}
}
