package main

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The package documentation's usage lists every command, and no other.
func TestPackageDocListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^//\treptest ([a-z]+)`).FindAllStringSubmatch(string(b), -1) {
		documented = append(documented, m[1])
	}
	var commanded []string
	for name := range commands() {
		commanded = append(commanded, name)
	}
	sort.Strings(documented)
	sort.Strings(commanded)
	documented = slices.Compact(documented)
	if diff := cmp.Diff(commanded, documented); diff != "" {
		t.Errorf("commands (-dispatched +in the package doc of main.go):\n%s", diff)
	}
}
