package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// reptest diff stopped by a signal writes what it compared, marked
// interrupted, and exits 1: here while a --command parser grinds on the
// last file (the smallest, compared last with one worker).
func TestDiffInterruptedWritesWhatItCompared(t *testing.T) {
	dir := t.TempDir()
	inputs := filepath.Join(dir, "in")
	os.Mkdir(inputs, 0o755)
	for name, body := range map[string]string{
		"a.txt":    "User-agent: *\nDisallow: /private\nAllow: /private/open\n# padding so that it is compared first\n",
		"b.txt":    "User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\n",
		"slow.txt": "#SLOW\n",
	} {
		if err := os.WriteFile(filepath.Join(inputs, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	marker := filepath.Join(dir, "reached")
	// Allowed everywhere, save on the slow file, where it waits.
	script := `if grep -q SLOW "$1"; then touch ` + marker + `; sleep 60; fi; echo allowed`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(marker); err == nil {
				cancel()
				return
			}
		}
	}()
	out := filepath.Join(dir, "report.json")
	var stdout, stderr bytes.Buffer
	code := dispatch(ctx, []string{"diff", "--no-cache", "--quiet", "--workers", "1", "--inputs", inputs, "--parser", "reference",
		"--name", "lenient", "--command", "sh -c '" + script + "' sh %robots%", "--allowed-pattern", "allowed", "--report", out}, &stdout, &stderr)
	if code != exitFail {
		t.Errorf("exit %d, want %d; stderr %s", code, exitFail, stderr.String())
	}
	var doc struct {
		Interrupted bool `json:"interrupted"`
		Summary     struct {
			Files int `json:"files"`
		} `json:"summary"`
		Diagnosis []json.RawMessage `json:"diagnosis"`
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no report written: %v; stderr %s", err, stderr.String())
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Interrupted || doc.Summary.Files != 2 || doc.Diagnosis != nil {
		t.Errorf("report: interrupted %v, %d files, diagnosis %s; want interrupted, the 2 files before the slow one, no diagnosis", doc.Interrupted, doc.Summary.Files, doc.Diagnosis)
	}
}
