package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

// writeCorpus writes files into a new corpus folder and returns it.
func writeCorpus(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readDoc reads a results document the command wrote.
func readDoc(t *testing.T, path string) *result.Document {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := result.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A parser asked for that cannot run (its runtime is missing) fails the
// run: status 1, "not run" in the JSON with the reason, a grey badge.
func TestRunUnavailableParserFails(t *testing.T) {
	dir := writeCorpus(t, map[string]string{"a.yaml": goodCase})
	t.Setenv(parsers.PeersEnv, t.TempDir()) // no peer program to be found
	out, badges := filepath.Join(dir, "out.json"), filepath.Join(dir, "badges")
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"run", "--corpus", dir, "--parser", "protego", "--json", out, "--badge", badges}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit status %d, want 1\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "protego did not run") {
		t.Errorf("stderr does not say protego did not run:\n%s", stderr.String())
	}
	d := readDoc(t, out)
	if s := d.Parsers[0]; s.Conforms || s.NotRun == "" {
		t.Errorf("summary %+v: want conforms false and not_run set", s)
	}
	b, err := os.ReadFile(filepath.Join(badges, "protego.json"))
	if err != nil {
		t.Fatal(err)
	}
	var badge report.Badge
	if err := json.Unmarshal(b, &badge); err != nil || badge.Color != "lightgrey" || badge.Message != "not run" {
		t.Errorf("badge %s (%v), want a grey \"not run\"", b, err)
	}
	if !strings.Contains(stdout.String(), "NOT RUN") {
		t.Errorf("summary does not say NOT RUN:\n%s", stdout.String())
	}
}

// Every document records its shard and the selection's size; a shard
// with no case is a usage error; report refuses a merge with a shard
// missing unless --partial, and then says so.
func TestShardsRecordedAndChecked(t *testing.T) {
	var body strings.Builder
	body.WriteString("cases:\n")
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		body.WriteString(strings.Replace(strings.TrimPrefix(goodCase, "cases:\n"), "t/one", "t/"+id, 1))
	}
	dir := writeCorpus(t, map[string]string{"a.yaml": body.String()})
	var stdout, stderr bytes.Buffer
	var files []string
	total := 0
	for k := 1; k <= 2; k++ {
		out := filepath.Join(dir, "shard-"+string(rune('0'+k))+".json")
		if code := dispatch(context.Background(), []string{"run", "--corpus", dir, "--quiet", "--shard", string(rune('0'+k)) + "/2", "--json", out}, &stdout, &stderr); code != 0 {
			t.Fatalf("shard %d: exit status %d\n%s", k, code, stderr.String())
		}
		d := readDoc(t, out)
		if d.Selection == nil || d.Selection.Cases != 8 || d.Selection.Shard != string(rune('0'+k))+"/2" {
			t.Errorf("shard %d: selection %+v, want 8 cases, shard %d/2", k, d.Selection, k)
		} else {
			total += d.Selection.ShardCases
		}
		files = append(files, out)
	}
	if total != 8 {
		t.Errorf("the shards hold %d cases together, want 8", total)
	}

	stderr.Reset()
	if code := dispatch(context.Background(), []string{"report", "--quiet", files[0]}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "missing shard 2/2") {
		t.Errorf("report of one shard of two: exit %d, stderr %q; want 2 naming shard 2/2", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := dispatch(context.Background(), []string{"report", "--partial", files[1]}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "shard 2/2") || !strings.Contains(stderr.String(), "partial") {
		t.Errorf("report --partial: exit %d, stdout %q, stderr %q; want 0, the shard shown, a warning", code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	if code := dispatch(context.Background(), []string{"report", "--quiet", files[0], files[1]}, &stdout, &stderr); code != 0 {
		t.Errorf("report of both shards: exit %d, stderr %q", code, stderr.String())
	}

	stderr.Reset()
	code := dispatch(context.Background(), []string{"run", "--corpus", dir, "--quiet", "--shard", "1000/1000"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "shard 1000/1000 holds none of the 8 cases") {
		t.Errorf("an empty shard: exit %d, stderr %q; want 2 and a message", code, stderr.String())
	}
}

// --write-expect starts an expected-failure file from a run's failures:
// the same run with --expect then passes. --level selects by level.
func TestRunWriteExpectAndLevel(t *testing.T) {
	dir := writeCorpus(t, map[string]string{"a.yaml": goodCase})
	expect := filepath.Join(t.TempDir(), "known.yaml")
	failing := []string{"run", "--corpus", dir, "--quiet", "--command", "true %robots% %url% %user-agent%"}
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), append(failing, "--write-expect", expect), &stdout, &stderr); code != 1 {
		t.Fatalf("failing run: exit %d, want 1\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(expect)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "command:\n  - cases: [t/one]\n    reason: 'check 0: violation, expected disallow, got allow'") {
		t.Errorf("expected-failure file:\n%s", data)
	}
	if code := dispatch(context.Background(), append(failing, "--expect", expect), &stdout, &stderr); code != 0 {
		t.Errorf("the same run with --expect: exit %d, want 0\n%s", code, stderr.String())
	}

	stderr.Reset()
	if code := dispatch(context.Background(), []string{"run", "--corpus", dir, "--quiet", "--level", "should"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "level SHOULD") {
		t.Errorf("--level should on a MUST-only corpus: exit %d, stderr %q; want 2", code, stderr.String())
	}
	if code := dispatch(context.Background(), []string{"run", "--corpus", dir, "--quiet", "--level", "MUST,may"}, &stdout, &stderr); code != 0 {
		t.Errorf("--level MUST,may: exit %d, want 0\n%s", code, stderr.String())
	}
	stderr.Reset()
	if code := dispatch(context.Background(), []string{"run", "--corpus", dir, "--level", "often"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `level "often"`) {
		t.Errorf("--level often: exit %d, stderr %q", code, stderr.String())
	}
}

// report flags an interrupted document first and last, and fails.
func TestReportInterrupted(t *testing.T) {
	dir := writeCorpus(t, map[string]string{"a.yaml": goodCase})
	out := filepath.Join(dir, "out.json")
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"run", "--corpus", dir, "--quiet", "--json", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr.String())
	}
	d := readDoc(t, out)
	d.Interrupted, d.InterruptReason = true, "terminated signal received"
	if err := report.WriteFile(out, d.WriteJSON); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	code := dispatch(context.Background(), []string{"report", out}, &stdout, &stderr)
	if code != 1 || strings.Count(stdout.String(), "INTERRUPTED: the run did not finish (terminated signal received)") != 2 {
		t.Errorf("report of an interrupted run: exit %d, want 1 and the mark first and last:\n%s", code, stdout.String())
	}
}
