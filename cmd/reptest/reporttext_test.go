package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// reptest report prints, from a saved document, what the command that
// wrote it printed.
func TestReportPrintsCommandText(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string // the command, writing its document to the path after it
		code int
	}{
		{"run", []string{"run", "--parser", "reference", "--parser", "temoto", "--run", "matching/longest*", "--json"}, exitOK},
		{"diff", []string{"diff", "--no-cache", "--parser", "reference", "--parser", "reference-google", "--generate", "4", "--report"}, exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := filepath.Join(dir, tc.name+".json")
			var wrote, stderr bytes.Buffer
			if code := dispatch(context.Background(), append(tc.args, doc), &wrote, &stderr); code != tc.code {
				t.Fatalf("%v: exit %d\n%s", tc.args, code, stderr.String())
			}
			var read bytes.Buffer
			if code := dispatch(context.Background(), []string{"report", doc}, &read, &stderr); code != tc.code {
				t.Fatalf("report: exit %d\n%s", code, stderr.String())
			}
			if wrote.Len() == 0 {
				t.Fatal("the command printed nothing")
			}
			if diff := cmp.Diff(wrote.String(), read.String()); diff != "" {
				t.Errorf("reptest report prints other text (-%s +report):\n%s", tc.name, diff)
			}
		})
	}
}
