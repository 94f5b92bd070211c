package diff

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
)

// TestStoredResult checks that a file's result reads back from its
// stored form as it was, minimised or not, and that a stored form cut
// anywhere, or with any byte changed, reads as a miss or as some result,
// never a panic.
func TestStoredResult(t *testing.T) {
	p, err := newPanel([]cases.Parser{ref(), &naive{name: "a"}, refGoogle()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := Generate(5, 8)
	for _, noMin := range []bool{false, true} {
		opts := withDefaults(Options{MaxProbes: 80, NoMinimize: noMin}, len(files))
		opts.examples = new(exampleTable)
		stored := 0
		for i := range files {
			f := &files[i]
			f.Profile = opts.Profile
			r := compareFile(context.Background(), p, f, i, &opts)
			data, err := encodeResult(r, f.Name)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := decodeResult(data, f, len(p.names))
			if !ok {
				t.Fatalf("no-minimize %v, %s: its stored result does not read", noMin, f.Name)
			}
			got.rank, r.areas.index = r.rank, nil
			if diff := cmp.Diff(r, got, cmp.AllowUnexported(fileResult{}, areaCounts{}, areaCount{}, classed{}, pending{}, rank{})); diff != "" {
				t.Fatalf("no-minimize %v, %s: read back (-stored +read):\n%s", noMin, f.Name, diff)
			}
			if len(r.classes)+len(r.findings) > 0 {
				stored++
			}
			// Some 300 places spread over the entry, and each of its first 256.
			step := max(1, len(data)/300)
			for cut := 0; cut < len(data); cut = next(cut, step) {
				if _, ok := decodeResult(data[:cut], f, len(p.names)); ok {
					t.Fatalf("no-minimize %v, %s: cut at %d of %d bytes, it reads", noMin, f.Name, cut, len(data))
				}
			}
			for at := 0; at < len(data); at = next(at, step) {
				spoilt := []byte(string(data))
				spoilt[at] ^= 0x5a
				decodeResult(spoilt, f, len(p.names))
			}
		}
		if stored == 0 {
			t.Errorf("no-minimize %v: no file disagreed: the test reads nothing but counts", noMin)
		}
	}
}

// next is the place after at, stepping one at a time over the first 256.
func next(at, step int) int {
	if at < 256 {
		return at + 1
	}
	return at + step
}
