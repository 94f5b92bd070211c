package diagnose_test

import (
	"context"
	"encoding/gob"
	"fmt"
	"os"
	"testing"
	"time"

	. "github.com/reptest/reptest/diagnose"
)

func TestZZPrint(t *testing.T) {
	path := os.Getenv("REPTEST_FIT_EVIDENCE")
	if path == "" {
		t.Skip()
	}
	f, _ := os.Open(path)
	var ev Evidence
	gob.NewDecoder(f).Decode(&ev)
	start := time.Now()
	ds, _ := Fit(context.Background(), &ev)
	fmt.Println("fit", time.Since(start))
	for _, d := range ds {
		fmt.Println(Line(d))
		for _, b := range d.Behaviours {
			fmt.Printf("   %s explains %d contradicts %d files %d alts %v\n", b.ID, b.Explains, b.Contradicts, b.Files, b.Alternatives)
			if b.Example != nil {
				fmt.Printf("      %q %s %s: %s ref %s\n", b.Example.Robots, b.Example.Agent, b.Example.URL, b.Example.Verdict, b.Example.Reference)
			}
		}
	}
}
