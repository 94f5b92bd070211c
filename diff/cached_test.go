package diff

import (
	"strings"
	"testing"
)

// TestDigesterBytes checks that a part added as bytes hashes as the same
// part added as a string, short or longer than a chunk.
func TestDigesterBytes(t *testing.T) {
	long := strings.Repeat("Disallow: /x\n", 5000)
	for _, parts := range [][]string{{"a", "", "bc"}, {"evidence", "name", long}, {long, "x", long}} {
		d := newDigester()
		for k, p := range parts {
			if k%2 == 1 {
				d.addBytes([]byte(p))
			} else {
				d.add(p)
			}
		}
		if got, want := d.sum(), digest(parts...); got != want {
			t.Errorf("parts of %v bytes: %x, want %x", len(parts), got, want)
		}
	}
}
