package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/result"
)

// cmdPromote turns differential findings (JSON lines) and Go fuzz corpus
// files into YAML case drafts whose expectation is the reference's verdict.
// It exits 1 when some inputs could not be promoted (each is named on
// stderr), 2 for a usage error or an unreadable file.
func cmdPromote(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, code, ok := parsePromote(args, stderr)
	if !ok {
		return code
	}
	drafts, skipped, err := promoteDrafts(ctx, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "reptest promote:", err)
		return exitUsage
	}
	if !writeDrafts(o.out, drafts, stdout, stderr) {
		return exitUsage
	}
	return status(skipped)
}

// promoteOptions are the flags and inputs of reptest promote.
type promoteOptions struct {
	out     string   // folder for one YAML file per draft; "" for stdout
	profile string   // profile of fuzz corpus inputs
	files   []string // finding and fuzz corpus files
}

// parsePromote parses the command line; when ok is false the command
// returns code.
func parsePromote(args []string, stderr io.Writer) (o promoteOptions, code int, ok bool) {
	fs := newFlags("promote", stderr)
	fs.StringVar(&o.out, "out", "", "write one YAML file per draft into `DIR` (default: all drafts to stdout)")
	fs.StringVar(&o.profile, "profile", result.ProfileRFC, "the profile of fuzz corpus inputs: rfc9309 or google")
	o.files, code, ok = parseOperands(fs, args, "usage: reptest promote [--out DIR] [--profile P] FINDING-FILE...\n\n"+
		"A FINDING-FILE holds JSON lines from 'reptest diff --json', or is a Go fuzz\n"+
		"corpus file (testdata/fuzz/FuzzX/HASH) of ([]byte robots, string agent, string url).", 1, -1)
	if !ok {
		return o, code, false
	}
	if !checkProfile("promote", o.profile, stderr) {
		return o, exitUsage, false
	}
	return o, 0, true
}

// promoteDrafts reads the input files and turns each input into a draft,
// once per draft ID. Inputs the case format cannot hold are named on
// stderr and counted in skipped; an unreadable file is an error.
func promoteDrafts(ctx context.Context, o promoteOptions, stderr io.Writer) (drafts []diff.Draft, skipped int, err error) {
	seen := make(map[string]bool)
	for _, name := range o.files {
		found, from, tag, err := readPromoteInput(ctx, name, o.profile)
		if err != nil {
			return nil, 0, err
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
	return drafts, skipped, nil
}

// readPromoteInput reads one findings or fuzz corpus file and says where
// its inputs come from (the draft's origin text and tag).
func readPromoteInput(ctx context.Context, name, profile string) (found []result.Finding, from, tag string, err error) {
	data, err := readInput(ctx, name)
	if err != nil {
		return nil, "", "", err
	}
	if !diff.IsFuzzFile(data) {
		found, err := diff.ReadFindings(bytes.NewReader(data))
		if err != nil {
			return nil, "", "", fmt.Errorf("%s: %w", name, err)
		}
		return found, "a differential finding", "from-diff", nil
	}
	in, err := diff.ReadFuzzFile(data)
	if err != nil {
		return nil, "", "", fmt.Errorf("%s: %w", name, err)
	}
	if profile == result.ProfileGoogle {
		in.Profile = profile
	}
	// The fuzz targets feed any agent and URL; a case needs a product
	// token and an absolute URL, so they are brought to the form the
	// targets themselves decide with.
	in = diff.CaseableInput(in)
	return []result.Finding{{Input: in}}, "fuzz corpus file " + filepath.Base(name), "from-fuzz", nil
}

// writeDrafts writes the drafts to stdout, or one file each into the
// folder out, naming each file on stdout.
func writeDrafts(out string, drafts []diff.Draft, stdout, stderr io.Writer) bool {
	if out == "" {
		b, err := diff.MarshalDrafts(drafts)
		if err == nil {
			_, err = stdout.Write(b)
		}
		if err != nil {
			fmt.Fprintln(stderr, "reptest promote:", err)
			return false
		}
		return true
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintln(stderr, "reptest promote:", err)
		return false
	}
	for _, d := range drafts {
		b, err := diff.MarshalDrafts([]diff.Draft{d})
		if err != nil {
			fmt.Fprintln(stderr, "reptest promote:", err)
			return false
		}
		path := filepath.Join(out, strings.ReplaceAll(strings.TrimPrefix(d.ID, "draft/"), "/", "-")+".yaml")
		if !writeOutput("promote", nil, stderr, path, func(w io.Writer) error { _, err := w.Write(b); return err }) {
			return false
		}
		fmt.Fprintln(stdout, path)
	}
	return true
}

// status is 1 when some inputs could not be promoted.
func status(skipped int) int {
	if skipped > 0 {
		return exitFail
	}
	return exitOK
}
