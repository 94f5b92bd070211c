package result_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/result"
)

// A group's sources are those of its findings alone, in the order first
// named, each with its distinct lines sorted.
func TestGroupSources(t *testing.T) {
	vs := map[string]result.Verdict{"a": result.Allow, "b": result.Disallow}
	f := func(req string, sources []string, lines map[string][]int) result.Finding {
		return result.Finding{Signature: result.Signature(vs), Verdicts: vs, Req: []string{req}, Sources: sources, SourceLines: lines}
	}
	fs := []result.Finding{
		f("MATCH-4", []string{"x.txt", "y.txt"}, map[string][]int{"x.txt": {9, 3}}),
		f("UA-2", []string{"z.txt"}, map[string][]int{"z.txt": {1}}),
		f("MATCH-4", []string{"y.txt", "x.txt"}, map[string][]int{"x.txt": {3, 5}, "y.txt": {2}}),
	}
	g := result.GroupFindings(fs)[0]
	files, lines := g.Sources(fs)
	if diff := cmp.Diff([]string{"x.txt", "y.txt"}, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]int{"x.txt": {3, 5, 9}, "y.txt": {2}}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}
