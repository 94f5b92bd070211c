package main

import (
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/reptest/reptest/reference"
)

func TestVersionText(t *testing.T) {
	tests := []struct {
		name string
		info *debug.BuildInfo
		want []string
	}{
		{"go install at a tag", &debug.BuildInfo{Main: debug.Module{Path: "github.com/reptest/reptest", Version: "v0.1.0"}},
			[]string{"reptest " + reference.Version + " (module github.com/reptest/reptest@v0.1.0; go1.x)"}},
		{"checkout", &debug.BuildInfo{Main: debug.Module{Path: "github.com/reptest/reptest", Version: "(devel)"}},
			[]string{"built from a checkout"}},
		{"no build info", nil, []string{"built from a checkout"}},
	}
	for _, tt := range tests {
		got := versionText(tt.info, "go1.x")
		for _, w := range append(tt.want, reference.AttachDraft, reference.VocabDraft, reference.ContentSignalsDraft, "2026-08-19", reference.ContentUseSource) {
			if !strings.Contains(got, w) {
				t.Errorf("%s: versionText lacks %q:\n%s", tt.name, w, got)
			}
		}
	}
}

// TestReleaseVersion checks that the pinned go install line at the top of
// the README names the version the reference reports (docs/RELEASING.md).
func TestReleaseVersion(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`go install github\.com/reptest/reptest/cmd/reptest@(v[0-9]+\.[0-9]+\.[0-9]+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("README.md has no pinned go install …/cmd/reptest@vX.Y.Z line")
	}
	if got, want := string(m[1]), "v"+reference.Version; got != want {
		t.Errorf("README pins %s, reference.Version is %s: set both (docs/RELEASING.md)", got, want)
	}
}
