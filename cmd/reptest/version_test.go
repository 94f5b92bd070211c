package main

import (
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
