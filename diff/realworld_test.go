package diff_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
)

// TestRealworld compares the reference with grobotstxt and temoto on a
// collection of real robots.txt files and checks that the run finds, on
// its own, the peers' known differences. It is slow (tens of seconds), so
// it runs only when REPTEST_REALWORLD names the collection's directory:
//
//	REPTEST_REALWORLD=../shared/realworld go test ./diff/ -run Realworld -v
func TestRealworld(t *testing.T) {
	files := realworldFiles(t)
	factory := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{parsers.NewReference(), parsers.NewGrobotstxt(), parsers.NewTemoto()}, nil
	}
	start := time.Now()
	rep, err := diff.Run(context.Background(), files, factory, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d probes, %d disagreeing, %d findings in %d groups, %v",
		rep.Summary.Files, rep.Summary.Probes, rep.Summary.Disagreements, rep.Summary.Findings, len(rep.Summary.Groups), time.Since(start))

	// Each known difference, as the signature and primary requirement of
	// a group.
	known := []struct {
		what, signature, primary string
	}{
		{"both peers do not decode the URI's escapes", "grobotstxt,temoto=allow≠reference=disallow", "PCT-2"},
		{"temoto matches wildcard rules anywhere in the path", "grobotstxt,reference=allow≠temoto=disallow", "SPC-1"},
		{"temoto matches $-anchored rules anywhere in the path", "grobotstxt,reference=allow≠temoto=disallow", "SPC-2"},
		{"temoto breaks ties by file order and regexp length", "grobotstxt,reference=allow≠temoto=disallow", "MATCH-5"},
		{"temoto rejects whole files", "grobotstxt,reference=allow≠temoto=reject", "SYN-9"},
		{"grobotstxt mangles lower-case hex escapes in rules", "grobotstxt=allow≠reference,temoto=disallow", "PCT-3"},
		{"both peers disallow /robots.txt", "grobotstxt,temoto=disallow≠reference=allow", "MATCH-7"},
	}
	for _, k := range known {
		found := false
		for _, g := range rep.Summary.Groups {
			if g.Signature == k.signature && g.Primary == k.primary {
				found = true
			}
		}
		if !found {
			t.Errorf("no group %s %s: %s", k.signature, k.primary, k.what)
		}
	}
	for _, g := range rep.Summary.Groups {
		body := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(g.Example.Robots))
		if n := len(strings.Split(strings.TrimSuffix(body, "\n"), "\n")); n > 5 { // the lines the summary shows of an example
			t.Errorf("example of %s %s has %d lines:\n%s", g.Signature, g.Primary, n, g.Example.Robots)
		}
	}
}

// BenchmarkRealworldFloor measures the least a run of the reference and
// reference-google over the real-world files can cost: deriving each
// file's probes, and each option set's parse of the file and decision of
// every probe, with nothing else (no cache, comparison, tags, findings or
// fit). files/s is the bound on files per CPU-second of such a run. Like
// TestRealworld it runs only when REPTEST_REALWORLD names the collection:
//
//	REPTEST_REALWORLD=../shared/realworld go test ./diff/ -run - -bench RealworldFloor
func BenchmarkRealworldFloor(b *testing.B) {
	files := realworldFiles(b)
	probes := make([][]diff.Probe, len(files))
	for i, f := range files {
		probes[i] = diff.DeriveProbes(f.Robots, 0)
	}
	answer := func(i int) {
		for _, opts := range []reference.Options{reference.RFC(), reference.Google()} {
			r := reference.Parse(files[i].Robots, opts)
			for _, p := range probes[i] {
				r.Allowed(p.Agent, p.URL)
			}
		}
	}
	for _, bc := range []struct {
		name string
		run  func(i int)
	}{
		{"derive", func(i int) { diff.DeriveProbes(files[i].Robots, 0) }},
		{"answer", answer},
		{"both", func(i int) { diff.DeriveProbes(files[i].Robots, 0); answer(i) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range files {
					bc.run(i)
				}
			}
			b.ReportMetric(float64(b.N*len(files))/b.Elapsed().Seconds(), "files/s")
		})
	}
}

// realworldFiles reads the collection REPTEST_REALWORLD names, and skips
// tb when it names none.
func realworldFiles(tb testing.TB) []diff.File {
	dir := os.Getenv("REPTEST_REALWORLD")
	if dir == "" {
		tb.Skip("REPTEST_REALWORLD is not set")
	}
	files, err := diff.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return files
}
