package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOutputFlags checks that each command that judges a results
// document accepts the output flags it has always had, with the one
// shared help text per flag, and rejects the others.
func TestOutputFlags(t *testing.T) {
	all := []string{"json", "junit", "html", "badge", "expect", "write-expect", "merge-out", "title"}
	tests := []struct {
		cmd  string
		want []string // the flags of all that the command takes
	}{
		{"run", []string{"json", "junit", "html", "badge", "expect", "write-expect"}},
		{"crawl", []string{"json", "junit", "html", "badge", "expect"}},
		{"audit", []string{"json", "junit", "html"}},
		{"report", []string{"junit", "html", "badge", "expect", "merge-out", "title"}},
	}
	// The help text of a flag shared by several commands.
	shared := map[string]string{
		"json":   "write the results as JSON to FILE",
		"junit":  "write JUnit XML to FILE",
		"html":   "write a self-contained HTML report to FILE",
		"badge":  "write a shields.io endpoint JSON per parser into DIR",
		"expect": "a YAML FILE of expected failures; only new failures fail the run",
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			var got []string
			for _, f := range all {
				// -h after the flag: a flag the command has is parsed and
				// help printed (status 0); any other stops the parse.
				var stdout, stderr bytes.Buffer
				code := dispatch(context.Background(), []string{tt.cmd, "--" + f, "x", "-h"}, &stdout, &stderr)
				undefined := strings.Contains(stderr.String(), "flag provided but not defined: -"+f)
				switch {
				case code == 0 && !undefined:
					got = append(got, f)
					if want, ok := shared[f]; ok && !strings.Contains(stderr.String(), want) {
						t.Errorf("%s -h: --%s lacks the help %q:\n%s", tt.cmd, f, want, stderr.String())
					}
				case code != exitUsage || !undefined:
					t.Errorf("%s --%s x -h: exit %d, stderr %q; want 0 and help, or 2 and the flag undefined", tt.cmd, f, code, stderr.String())
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: output flags (-want +got):\n%s", tt.cmd, diff)
			}
		})
	}
}
