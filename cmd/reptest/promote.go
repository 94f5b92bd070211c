package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
)

// maxPromoteInput bounds one findings or fuzz corpus file.
const maxPromoteInput = 64 << 20

// cmdPromote turns differential findings (JSON lines) and Go fuzz corpus
// files into YAML case drafts whose expectation is the reference's verdict.
// It exits 1 when some inputs could not be promoted (each is named on
// stderr), 2 for a usage error or an unreadable file.
func cmdPromote(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("promote", stderr)
	out := fs.String("out", "", "write one YAML file per draft into `DIR` (default: all drafts to stdout)")
	profile := fs.String("profile", cases.ProfileRFC, "the profile of fuzz corpus inputs: rfc9309 or google")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reptest promote [--out DIR] [--profile P] FINDING-FILE...")
		fmt.Fprintln(stderr, "\nA FINDING-FILE holds JSON lines from 'reptest diff --json', or is a Go fuzz")
		fmt.Fprintln(stderr, "corpus file (testdata/fuzz/FuzzX/HASH) of ([]byte robots, string agent, string url).")
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		fs.Usage()
		return exitUsage
	}
	if !checkProfile("promote", *profile, stderr) {
		return exitUsage
	}

	var drafts []diff.Draft
	seen := make(map[string]bool)
	skipped := 0
	for _, name := range pos {
		data, err := readLimited(name)
		if err != nil {
			fmt.Fprintln(stderr, "reptest promote:", err)
			return exitUsage
		}
		var found []diff.Finding
		from, tag := "a differential finding", "from-diff"
		if diff.IsFuzzFile(data) {
			in, err := diff.ReadFuzzFile(data)
			if err != nil {
				fmt.Fprintf(stderr, "reptest promote: %s: %v\n", name, err)
				return exitUsage
			}
			if *profile == cases.ProfileGoogle {
				in.Profile = *profile
			}
			// The fuzz targets feed any agent and URL; a case needs a
			// product token and an absolute URL, so they are brought to
			// the form the targets themselves decide with.
			in = diff.CaseableInput(in)
			found = []diff.Finding{{Input: in}}
			from, tag = "fuzz corpus file "+filepath.Base(name), "from-fuzz"
		} else if found, err = diff.ReadFindings(bytes.NewReader(data)); err != nil {
			fmt.Fprintf(stderr, "reptest promote: %s: %v\n", name, err)
			return exitUsage
		}
		for i, f := range found {
			d, err := diff.NewDraft(f, from, tag)
			if err != nil {
				// One input the case format cannot hold does not stop
				// the others.
				fmt.Fprintf(stderr, "reptest promote: %s: input %d skipped: %v\n", name, i+1, err)
				skipped++
				continue
			}
			if !seen[d.ID] {
				seen[d.ID] = true
				drafts = append(drafts, d)
			}
		}
	}

	if *out == "" {
		b, err := diff.MarshalDrafts(drafts)
		if err != nil {
			fmt.Fprintln(stderr, "reptest promote:", err)
			return exitUsage
		}
		if _, err := stdout.Write(b); err != nil {
			fmt.Fprintln(stderr, "reptest promote:", err)
			return exitUsage
		}
		return status(skipped)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "reptest promote:", err)
		return exitUsage
	}
	for _, d := range drafts {
		b, err := diff.MarshalDrafts([]diff.Draft{d})
		if err != nil {
			fmt.Fprintln(stderr, "reptest promote:", err)
			return exitUsage
		}
		path := filepath.Join(*out, strings.ReplaceAll(strings.TrimPrefix(d.ID, "draft/"), "/", "-")+".yaml")
		if !writeOutput("promote", nil, stderr, path, func(w io.Writer) error { _, err := w.Write(b); return err }) {
			return exitUsage
		}
		fmt.Fprintln(stdout, path)
	}
	return status(skipped)
}

// status is 1 when some inputs could not be promoted.
func status(skipped int) int {
	if skipped > 0 {
		return exitFail
	}
	return exitOK
}

// readLimited reads a file of at most maxPromoteInput bytes.
func readLimited(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPromoteInput+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxPromoteInput {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxPromoteInput)
	}
	return data, nil
}
