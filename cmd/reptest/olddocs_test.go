package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/result"
)

// oldDir holds documents the reptest before the one results model wrote,
// with its text and pages (testdata/v0/README.md says how they were made).
const oldDir = "testdata/v0"

// TestOldDocuments reads every kind of document the earlier reptest
// wrote: reptest report renders each as that reptest did (the same page),
// and prints the text of the command that wrote it (for an audit, what
// the earlier reptest report printed).
func TestOldDocuments(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string // after "report"
		text     string   // what the writing command printed
		page     string
		exitCode int
	}{
		{"run", []string{"run.json"}, "run.txt", "report-run.html", 0},
		{"crawl", []string{"crawl.json"}, "crawl.txt", "report-crawl.html", exitFail},
		// reptest audit prints its own account (accesslog.WriteText) from
		// judgements the document does not hold; reptest report prints
		// the results' summary, as before.
		{"audit", []string{"audit.json"}, "report-audit.txt", "report-audit.html", exitFail},
		{"diff", []string{"diff-report.json"}, "diff.txt", "report-diff.html", 0},
		{"run with findings", []string{"run.json", "--findings", "diff-findings.jsonl"}, "report-runfindings.txt", "report-runfindings.html", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "page.html")
			args := []string{"report"}
			for _, a := range tc.args {
				if strings.HasSuffix(a, ".json") || strings.HasSuffix(a, ".jsonl") {
					a = filepath.Join(oldDir, a)
				}
				args = append(args, a)
			}
			var stdout, stderr bytes.Buffer
			code := dispatch(context.Background(), append(args[:len(args):len(args)], "--html", page), &stdout, &stderr)
			if code != tc.exitCode {
				t.Fatalf("%v: exit %d, want %d\n%s", args, code, tc.exitCode, stderr.String())
			}
			want := readOld(t, tc.page)
			got, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			// The page of a differential run names the command that made it.
			got = bytes.ReplaceAll(got, []byte(commandLine("report", append(args[1:], "--html", page))),
				[]byte("reptest report diff-report.json --html report-diff.html"))
			if !bytes.Equal(got, want) {
				t.Errorf("the page differs from the earlier reptest's:\n%s", firstDifference(string(want), string(got)))
			}
			stdout.Reset()
			if code := dispatch(context.Background(), args, &stdout, &stderr); code != tc.exitCode {
				t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
			}
			if diff := cmp.Diff(string(readOld(t, tc.text)), stdout.String()); diff != "" {
				t.Errorf("reptest report prints other text than the command that wrote the document (-command +report):\n%s", diff)
			}
		})
	}
}

// TestOldDiffOutputs reads the findings lines and the --summary JSON the
// earlier reptest diff wrote and writes them again unchanged.
func TestOldDiffOutputs(t *testing.T) {
	lines := readOld(t, "diff-findings.jsonl")
	fs, err := diff.ReadFindings(bytes.NewReader(lines))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := diff.WriteFindings(&b, fs); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(lines), b.String()); diff != "" {
		t.Errorf("findings lines (-old +again):\n%s", diff)
	}
	summary := readOld(t, "diff-summary.json")
	dec := json.NewDecoder(bytes.NewReader(summary))
	dec.DisallowUnknownFields()
	var s result.DiffSummary
	if err := dec.Decode(&s); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.Encode(&s)
	if diff := cmp.Diff(string(summary), b.String()); diff != "" {
		t.Errorf("summary (-old +again):\n%s", diff)
	}
}

func readOld(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(oldDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDifference shows where two long texts part.
func firstDifference(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("at byte %d:\n-", i) + want[lo:min(len(want), i+200)] + "\n+" + got[lo:min(len(got), i+200)]
}
