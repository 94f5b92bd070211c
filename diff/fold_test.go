package diff

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
)

// TestSpilledFindingsSame runs files with duplicates among them, with the
// findings kept in memory and in a temporary file (Options.SpillFindings),
// minimised (so that findings of several files merge) and not, and checks
// that the documents and the findings written are the same, and that the
// run leaves no file behind but the one it hands over.
func TestSpilledFindingsSame(t *testing.T) {
	files := Generate(11, 16)
	var inputs []File
	for i, f := range files {
		inputs = append(inputs, f)
		if i%3 == 0 {
			// A copy now and one after the others: folded before and
			// after the file it copies.
			inputs = append(inputs, File{Name: fmt.Sprintf("copy-%d", i), Robots: slices.Clone(f.Robots)})
		}
	}
	inputs = append(inputs, File{Name: "copy-last", Robots: slices.Clone(files[0].Robots)})
	mk := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), refGoogle(), &naive{name: "naive"}}, nil
	}
	for _, noMinimize := range []bool{false, true} {
		t.Run(fmt.Sprintf("NoMinimize=%t", noMinimize), func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("TMPDIR", dir)
			opts := Options{Workers: 3, MaxProbes: 60, NoMinimize: noMinimize}
			want, err := Run(context.Background(), inputs, mk, opts)
			if err != nil {
				t.Fatal(err)
			}
			var spilled *FindingsFile
			opts.SpillFindings = func(f *FindingsFile) { spilled = f }
			got, err := Run(context.Background(), inputs, mk, opts)
			if err != nil {
				t.Fatal(err)
			}
			if spilled == nil || got.Findings != nil || spilled.Count != len(want.Findings) || got.Summary.Findings != len(want.Findings) {
				t.Fatalf("spilled %+v, %d findings in the document, want none and a file of %d", spilled, len(got.Findings), len(want.Findings))
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*")); !slices.Equal(left, []string{spilled.Path}) {
				t.Errorf("files left: %v, want only %s", left, spilled.Path)
			}
			if diff := cmp.Diff(want.Summary, got.Summary); diff != "" {
				t.Errorf("summary (-memory +spilled):\n%s", diff)
			}
			var wantLines, gotLines bytes.Buffer
			if err := WriteFindings(&wantLines, want.Findings); err != nil {
				t.Fatal(err)
			}
			if _, err := spilled.WriteTo(&gotLines); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantLines.String(), gotLines.String()); diff != "" {
				t.Errorf("findings (-memory +spilled):\n%s", diff)
			}
			merged := 0
			for _, f := range want.Findings {
				if len(f.Sources) > 1 {
					merged++
				}
			}
			if merged == 0 {
				t.Error("no finding has more than one source: the test shows nothing of merging")
			}
			loaded, err := spilled.Load()
			if err != nil || len(loaded) != len(want.Findings) {
				t.Fatalf("loaded %d findings (%v), want %d", len(loaded), err, len(want.Findings))
			}
			if err := spilled.Remove(); err != nil {
				t.Error(err)
			}
			if _, err := os.Stat(spilled.Path); !os.IsNotExist(err) {
				t.Errorf("after Remove: %v", err)
			}
		})
	}
}
