package diff

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// TestExamplesOncePerClass checks that a run minimises each class of
// disagreements once, from the file of smallest digest: the document is
// the one of a run that minimises every disagreement, whatever the
// number of workers; every class has one finding, with an input of its
// own, and every file of the class as a source; and in the files'
// reverse order each class has the same example and sources.
func TestExamplesOncePerClass(t *testing.T) {
	files := append(Generate(13, 30), File{Name: "hand", Robots: []byte("User-agent: *\nDisallow: /a\nREJECT\n")})
	files = append(files, File{Name: "copy", Robots: files[3].Robots})
	mk := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), refGoogle(), &naive{name: "naive"}}, nil
	}
	run := func(files []File, workers int, every bool) (*result.Document, int64) {
		t.Helper()
		ex := &exampleTable{every: every}
		doc, err := Run(context.Background(), files, mk, Options{Workers: workers, MaxProbes: 60, examples: ex})
		if err != nil {
			t.Fatal(err)
		}
		return doc, ex.minimised.Load()
	}
	once, n := run(files, 1, false)
	if len(once.Findings) < 5 {
		t.Fatalf("%d findings: the test shows little", len(once.Findings))
	}
	three, n3 := run(files, 3, false)
	if diff := cmp.Diff(once, three); diff != "" {
		t.Fatalf("1 and 3 workers differ (-1 +3):\n%s", diff)
	}
	every, nEvery := run(files, 2, true)
	if diff := cmp.Diff(once, every); diff != "" {
		t.Fatalf("minimising once per class and every disagreement differ (-once +every):\n%s", diff)
	}
	if n != int64(len(once.Findings)) || n3 != n || nEvery <= n {
		t.Errorf("%d minimisations (%d with 3 workers) for %d classes; %d minimising every disagreement",
			n, n3, len(once.Findings), nEvery)
	}
	classes, inputs := make(map[string]bool), make(map[string]bool)
	sources := 0
	for _, f := range once.Findings {
		if f.Class == "" || f.ExampleFrom == "" || classes[f.Class] || inputs[f.Input.ID()] || !f.Minimized {
			t.Errorf("finding of class %q from %q (minimised %t) repeats a class or an input", f.Class, f.ExampleFrom, f.Minimized)
		}
		classes[f.Class], inputs[f.Input.ID()] = true, true
		sources += len(f.Sources)
	}
	if sources <= len(once.Findings) {
		t.Errorf("%d sources for %d findings: no class was found in two files", sources, len(once.Findings))
	}

	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	back, _ := run(reversed, 2, false)
	type class struct {
		input   string
		sources []string
		probes  int
	}
	byClass := func(doc *result.Document) map[string]class {
		m := make(map[string]class)
		for _, f := range doc.Findings {
			m[f.Class] = class{f.Input.ID(), slices.Sorted(slices.Values(f.Sources)), f.Probes}
		}
		return m
	}
	if diff := cmp.Diff(byClass(once), byClass(back), cmp.AllowUnexported(class{})); diff != "" {
		t.Errorf("the classes differ when the files come in reverse order (-forward +reversed):\n%s", diff)
	}
}

// TestExamplesCached runs part of the files with a disk cache, then all
// of them, then all again: each run's document is the one of a run
// without the cache (a file read from the cache keeps its classes, and
// a class whose smallest file is new is minimised from it), and the
// last run minimises nothing.
func TestExamplesCached(t *testing.T) {
	files := Generate(17, 24)
	mk := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{ref(), refGoogle(), &naive{name: "naive"}}, nil
	}
	dir := t.TempDir()
	run := func(files []File, cached bool) (*result.Document, int64) {
		t.Helper()
		ex := new(exampleTable)
		opts := Options{Workers: 2, MaxProbes: 60, examples: ex}
		if cached {
			var err error
			if opts.Cache, err = OpenCache(dir, 0); err != nil {
				t.Fatal(err)
			}
		}
		doc, err := Run(context.Background(), files, mk, opts)
		if err != nil {
			t.Fatal(err)
		}
		return doc, ex.minimised.Load()
	}
	for _, step := range []struct {
		name  string
		files []File
	}{{"half", files[:12]}, {"all", files}, {"all again", files}} {
		want, _ := run(step.files, false)
		got, n := run(step.files, true)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: the cached run differs (-uncached +cached):\n%s", step.name, diff)
		}
		if step.name == "all again" && n != 0 {
			t.Errorf("%s: %d minimisations, want none", step.name, n)
		}
		if step.name == "all" && n == 0 {
			t.Errorf("%s: no minimisation: the new files brought no class or smaller file", step.name)
		}
	}
}
