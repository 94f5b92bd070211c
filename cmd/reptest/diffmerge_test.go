package main

import (
	"bytes"
	"context"
	"net/textproto"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/warc"
)

// TestDiffShardsMerge runs diff over a listing of two WARC files as two
// shards, the second taking K from JOB_COMPLETION_INDEX, and merges the
// reports with reptest report: the merged report is the unsharded one.
func TestDiffShardsMerge(t *testing.T) {
	dir := t.TempDir()
	gen := diff.Generate(4, 6)
	for w, name := range []string{"a.warc.gz", "b.warc"} {
		var b bytes.Buffer
		wr := warc.NewWriter(&b, strings.HasSuffix(name, ".gz"))
		for _, f := range gen[w*3 : w*3+3] {
			h := textproto.MIMEHeader{}
			h.Set("WARC-Type", "response")
			h.Set("WARC-Target-URI", "http://"+f.Name+"/robots.txt")
			h.Set("Content-Type", "application/http; msgtype=response")
			if err := wr.Write(h, append([]byte("HTTP/1.1 200 OK\r\n\r\n"), f.Robots...)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	listing := filepath.Join(dir, "robotstxt.paths")
	os.WriteFile(listing, []byte("a.warc.gz\nb.warc\n"), 0o644)
	run := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := dispatch(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
		}
		return stdout.String()
	}
	// The shards' WARC files, as a job that downloads them asks.
	var names []string
	for _, sh := range []string{"1/2", "2/2"} {
		names = append(names, strings.Fields(run("diff", "--inputs", listing, "--shard", sh, "--print-shard"))...)
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"a.warc.gz", "b.warc"}, names); diff != "" {
		t.Errorf("--print-shard of 1/2 and 2/2 (-want +got):\n%s", diff)
	}
	common := []string{"diff", "--parser", "reference", "--parser", "reference-google", "--inputs", listing, "--quiet"}
	whole := filepath.Join(dir, "whole.json")
	run(append(common, "--report", whole)...)
	run(append(common, "--shard", "1/2", "--report", filepath.Join(dir, "s1.json"))...)
	t.Setenv(cases.IndexEnv, "1")
	run(append(common, "--shard", "/2", "--report", filepath.Join(dir, "s2.json"))...)

	want := filepath.Join(dir, "want.json")
	run("report", whole, "--merge-out", want, "--quiet")
	got := filepath.Join(dir, "got.json")
	out := run("report", filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json"), "--merge-out", got, "--html", filepath.Join(dir, "r.html"))
	if !strings.Contains(out, "6 files") {
		t.Errorf("merged summary:\n%s", out)
	}
	b, _ := os.ReadFile(got)
	// The per-area counts are merged too (compared below with the rest).
	if !strings.Contains(string(b), `"area": "matching"`) {
		t.Errorf("merged report has no per-area counts:\n%s", b)
	}
	// The runs differ (their commands and inputs); the results must not.
	if diff := cmp.Diff(findingsAndSummary(t, want), findingsAndSummary(t, got)); diff != "" {
		t.Errorf("merged shards differ from the whole run (-whole +merged):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.html")); err != nil {
		t.Error(err)
	}
}

// findingsAndSummary reads a differential report and returns it without
// its run, as JSON.
func findingsAndSummary(t *testing.T, name string) string {
	t.Helper()
	rep, err := readDocument(name)
	if err != nil {
		t.Fatal(err)
	}
	rep.Run = nil
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReportDiffHeader merges reports of reptest diff --report with
// reptest report --html: the page's header holds what the shards recorded
// (parsers with versions, inputs, each shard's command) and the command
// that merged them, and says plainly what a report without its run does
// not record.
func TestReportDiffHeader(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := dispatch(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
		}
	}
	common := []string{"diff", "--parser", "reference", "--parser", "reference-google", "--generate", "6", "--quiet"}
	var shards []string
	for _, sh := range []string{"1/2", "2/2"} {
		name := filepath.Join(dir, "s"+sh[:1]+".json")
		run(append(common, "--shard", sh, "--report", name)...)
		shards = append(shards, name)
	}
	// A report as reptest wrote it before it recorded the run.
	old := filepath.Join(dir, "old.json")
	os.WriteFile(old, []byte(findingsAndSummary(t, shards[0])), 0o644)
	for _, tc := range []struct {
		name      string
		files     []string
		want, not []string
	}{
		{"two shards", shards, []string{
			"<b>reference</b> " + reference.Version, "<b>reference-google</b> " + reference.Version,
			"6 generated files (seed 1)", "shard 1/2", "shard 2/2", "rfc9309",
			"from 2 shards", "--shard 1/2 --report", "--shard 2/2 --report",
			"<code>reptest report " + shards[0] + " " + shards[1] + " --html",
		}, []string{"not recorded"}},
		{"a report without its run", []string{old}, []string{
			"from 1 report", "1 of them record no run", "<dt>Inputs</dt><dd class=\"dim\">not recorded",
			"<code>reptest report " + old + " --html",
		}, []string{"generated files", "--shard 1/2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "r.html")
			run(append(append([]string{"report"}, tc.files...), "--html", page, "--quiet")...)
			html, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			head, _, _ := strings.Cut(string(html), `<section id="pairs">`)
			for _, w := range tc.want {
				if !strings.Contains(head, w) {
					t.Errorf("the header lacks %q:\n%s", w, head)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(head, w) {
					t.Errorf("the header holds %q:\n%s", w, head)
				}
			}
		})
	}
}

// TestDeployFiles checks that the shipped Indexed Job and workflow agree
// with reptest: an Indexed Job with one pod per shard that passes
// "--shard /N" and a workflow matrix that passes "--shard K/N", each
// downloading what --print-shard names.
func TestDeployFiles(t *testing.T) {
	var job struct {
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Parallelism    int    `yaml:"parallelism"`
			Template       struct {
				Spec struct {
					Containers []struct {
						Env  []struct{ Name, Value string }
						Args []string
					}
				}
			}
		}
	}
	b, err := os.ReadFile("../../deploy/kubernetes/diff-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &job); err != nil {
		t.Fatal(err)
	}
	s := job.Spec
	if s.CompletionMode != "Indexed" || s.Completions != s.Parallelism || len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("job spec %+v", s)
	}
	c := s.Template.Spec.Containers[0]
	shards := ""
	for _, e := range c.Env {
		if e.Name == "SHARDS" {
			shards = e.Value
		}
	}
	if shards != "16" || s.Completions != 16 {
		t.Errorf("SHARDS %q and %d completions", shards, s.Completions)
	}
	script := strings.Join(c.Args, "\n")
	for _, want := range []string{`--shard "/$SHARDS" --print-shard`, `--shard "/$SHARDS" \`, "--report"} {
		if !strings.Contains(script, want) {
			t.Errorf("job script lacks %q", want)
		}
	}
	wf, err := os.ReadFile("../../deploy/github/commoncrawl-diff.yml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(wf, &doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--shard '${{ matrix.shard }}/${{ inputs.shards }}' --print-shard", "--shard '${{ matrix.shard }}/${{ inputs.shards }}' \\", "reptest report diff-*.json"} {
		if !strings.Contains(string(wf), want) {
			t.Errorf("workflow lacks %q", want)
		}
	}
}
