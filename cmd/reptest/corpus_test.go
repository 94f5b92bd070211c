package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/result"
)

// Every command that takes --corpus reads it with the one set of corpus
// flags: --with-embedded loads the embedded corpus beside the folder, and
// a *.yaml that is not a regular file is skipped with a warning.
func TestCorpusFlagsShared(t *testing.T) {
	const embeddedID = "access/status-200-rules-apply"
	embedded, err := cases.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	dirFiles := len(diff.FromCases(embedded)) + 1 // and t/one
	dir := writeCorpus(t, map[string]string{"a.yaml": goodCase})
	if err := syscall.Mkfifo(filepath.Join(dir, "x.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.json")
	sel := []string{"--run", "t/one", "--run", embeddedID}
	// docIDs reads the case ids of the results document written to out.
	docIDs := func(t *testing.T, _ []byte) []string {
		var ids []string
		for _, r := range readDoc(t, out).Results {
			ids = append(ids, r.Case)
		}
		return ids
	}
	tests := []struct {
		cmd  string
		args []string
		ids  func(t *testing.T, stdout []byte) []string // what was loaded
		want []string
	}{
		{"run", append([]string{"--json", out, "--quiet"}, sel...), docIDs, []string{embeddedID, "t/one"}},
		{"crawl", append([]string{"--crawler", "sh -c 'exit 0'", "--json", out, "--quiet"}, sel...), docIDs, []string{embeddedID, "t/one"}},
		{"list", append([]string{"--json"}, sel...), func(t *testing.T, stdout []byte) []string {
			var l struct{ Cases []struct{ ID string } }
			if err := json.Unmarshal(stdout, &l); err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, c := range l.Cases {
				ids = append(ids, c.ID)
			}
			return ids
		}, []string{embeddedID, "t/one"}},
		// diff has no case selection: it compares every file of both.
		{"diff", []string{"--parser", "reference", "--parser", "temoto", "--no-minimize", "--quiet", "--summary", out},
			func(t *testing.T, _ []byte) []string {
				var s result.DiffSummary
				data, err := os.ReadFile(out)
				if err == nil {
					err = json.Unmarshal(data, &s)
				}
				if err != nil {
					t.Fatal(err)
				}
				return []string{fmt.Sprint(s.Files, " files")}
			}, []string{fmt.Sprint(dirFiles, " files")}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			os.Remove(out)
			args := append([]string{tt.cmd, "--corpus", dir, "--with-embedded"}, tt.args...)
			var stdout, stderr bytes.Buffer
			code := dispatch(context.Background(), args, &stdout, &stderr)
			if code == exitUsage {
				t.Fatalf("%v: exit %d; stderr:\n%s", args, code, stderr.String())
			}
			if want := "x.yaml: skipped: not a regular file (a named pipe)"; !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr lacks the warning %q:\n%s", want, stderr.String())
			}
			got := tt.ids(t, stdout.Bytes())
			if d := cmp.Diff(tt.want, unique(got)); d != "" {
				t.Errorf("%s: cases loaded (-want +got):\n%s", tt.cmd, d)
			}
		})
	}
}

// unique returns the sorted distinct strings of ss.
func unique(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}
