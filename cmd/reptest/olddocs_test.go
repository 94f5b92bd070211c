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
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/result"
)

// oldDir holds documents the reptest before the one results model wrote,
// with its text and pages (testdata/v0/README.md says how they were made).
const oldDir = "testdata/v0"

// TestOldDocuments reads every kind of document the earlier reptest
// wrote: reptest report prints the text of the command that wrote it (for
// an audit, what the earlier reptest report printed), keeps every key of
// it when writing it again, and renders the same page from both.
func TestOldDocuments(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string // after "report"
		text     string   // what the writing command printed
		exitCode int
	}{
		{"run", []string{"run.json"}, "run.txt", 0},
		{"crawl", []string{"crawl.json"}, "crawl.txt", exitFail},
		// The audit's quoted requests are read from its judged requests,
		// as the earlier reptest audit quoted them; reptest audit has
		// said since that nothing is verified.
		{"audit", []string{"audit.json"}, "audit.txt", exitFail},
		{"diff", []string{"diff-report.json"}, "diff.txt", 0},
		{"run with findings", []string{"run.json", "--findings", "diff-findings.jsonl"}, "report-runfindings.txt", 0},
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
			// The pages were byte-identical to the earlier reptest's when
			// the results model changed (testdata/v0/README.md); pages
			// have changed since. What must hold is that nothing of the
			// old document is lost in reading it: the page equals the one
			// rendered from the document as this reptest writes it again.
			again := filepath.Join(t.TempDir(), "again.json")
			if code := dispatch(context.Background(), append(args[:len(args):len(args)], "--quiet", "--merge-out", again), &stdout, &stderr); code != tc.exitCode {
				t.Fatalf("writing the document again: exit %d\n%s", code, stderr.String())
			}
			page2 := filepath.Join(t.TempDir(), "page.html")
			if code := dispatch(context.Background(), []string{"report", again, "--html", page2}, &stdout, &stderr); code != tc.exitCode {
				t.Fatalf("reading it again: exit %d\n%s", code, stderr.String())
			}
			if lost := lostKeys(t, args[1], again); len(lost) > 0 {
				t.Errorf("keys of the old document missing once written again: %v", lost)
			}
			got, want := readPage(t, page, args[1:]), readPage(t, page2, []string{again})
			if !bytes.Equal(got, want) {
				t.Errorf("the page of the old document differs from that of the document written again:\n%s", firstDifference(string(want), string(got)))
			}
			stdout.Reset()
			if code := dispatch(context.Background(), args, &stdout, &stderr); code != tc.exitCode {
				t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
			}
			text := string(readOld(t, tc.text))
			if tc.name == "audit" {
				text = strings.Replace(text, "as *\n", "as *\n"+noneVerifiedLine, 1)
			}
			if diff := cmp.Diff(text, stdout.String()); diff != "" {
				t.Errorf("reptest report prints other text than the command that wrote the document (-command +report):\n%s", diff)
			}
		})
	}
}

// noneVerifiedLine is the line reptest audit prints, since the documents
// of testdata/v0 were written, when nothing is verified.
const noneVerifiedLine = "no request is verified (no --verified-ranges, and the log marks no verified bot): every request is claimed, its User-Agent names the bot and nothing shows it is that bot\n"

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

// lostKeys returns the key paths (array positions left out) of the JSON
// document at old that the one at again lacks, but "kind", which the
// earlier differential report had instead of "tool".
func lostKeys(t *testing.T, old, again string) []string {
	t.Helper()
	paths := func(name string) map[string]bool {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		var walk func(prefix string, v any)
		walk = func(prefix string, v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					out[prefix+"/"+k] = true
					walk(prefix+"/"+k, x)
				}
			case []any:
				for _, x := range v {
					walk(prefix, x)
				}
			}
		}
		walk("", v)
		return out
	}
	have := paths(again)
	var lost []string
	for p := range paths(old) {
		if !have[p] && p != "/kind" {
			lost = append(lost, p)
		}
	}
	slices.Sort(lost)
	return lost
}

// readPage reads the page written by reptest report with operands ops,
// the command line it names (a differential run's page does) made
// neutral.
func readPage(t *testing.T, path string, ops []string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(b, []byte(commandLine("report", append(ops[:len(ops):len(ops)], "--html", path))), []byte("reptest report"))
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
