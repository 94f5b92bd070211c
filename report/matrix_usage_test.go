package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/matrix"
	"github.com/reptest/reptest/reference"
)

func TestMatrixUsage(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: search=yes\n")
	m, err := matrix.Build(body, matrix.Options{Agents: []string{"foobot"}, Options: reference.AIPref()})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"search", "train-ai"}, m.Usage); diff != "" {
		t.Errorf("default categories (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/", "/ai-ok/", "/never/"}, m.Paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	want := []map[string]string{
		{"search": "y", "train-ai": "n"},
		{"search": "y", "train-ai": "y"},
		{"search": "unknown", "train-ai": "unknown"},
	}
	var got []map[string]string
	for _, v := range m.Cells[0] {
		got = append(got, v.Usage)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("usage cells (-want +got):\n%s", diff)
	}
	var out bytes.Buffer
	if err := WriteMatrix(&out, m, false); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"search=y train-ai=n", "search=? train-ai=?", reference.AIPrefDrafts} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, out.String())
		}
	}
	// Under RFC 9309 the cells show preferences only when asked.
	m, err = matrix.Build(body, matrix.Options{Agents: []string{"foobot"}})
	if err != nil || m.Usage != nil || m.Cells[0][0].Usage != nil {
		t.Errorf("rfc9309 matrix: usage %v, cell %+v, %v", m.Usage, m.Cells[0][0], err)
	}
}
