package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/reference"
)

// variants --json round-trips: it decodes into the catalogue, every entry
// and field of it.
func TestVariantsJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"variants", "--json"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("variants --json: exit %d\n%s", code, stderr.String())
	}
	var got variantListing
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	var want []listedMisreading
	for _, m := range reference.Misreadings() {
		want = append(want, listedMisreading{ID: m.ID, Title: m.Title, RFC: m.RFC, Req: m.Req, Kind: m.Kind, Parsers: m.Kind != reference.KindCrawl})
	}
	if diff := cmp.Diff(want, got.Misreadings); diff != "" {
		t.Errorf("variants --json (-want +got):\n%s", diff)
	}
}

// variants lists every id with its section in text; --kind filters, and
// an unknown kind is a usage error.
func TestVariantsText(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"variants"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("variants: exit %d\n%s", code, stderr.String())
	}
	for _, m := range reference.Misreadings() {
		if !strings.Contains(stdout.String(), m.ID+" ") || !strings.Contains(stdout.String(), m.Title) {
			t.Errorf("variants lacks %s: %s", m.ID, m.Title)
		}
	}
	stdout.Reset()
	if code := dispatch(context.Background(), []string{"variants", "--kind", "access"}, &stdout, &stderr); code != exitOK || strings.Contains(stdout.String(), "\nfirst-match ") || !strings.Contains(stdout.String(), "\n5xx-allows ") {
		t.Errorf("variants --kind access: exit %d\n%s", code, stdout.String())
	}
	stderr.Reset()
	if code := dispatch(context.Background(), []string{"variants", "--kind", "bogus"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "kinds:") {
		t.Errorf("variants --kind bogus: exit %d, stderr %q; want %d and the kinds", code, stderr.String(), exitUsage)
	}
}

// A variant runs as a parser under its own name; an unknown misreading is
// a usage error that lists the valid ones.
func TestRunVariantParser(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"run", "--parser", "reference+first-match+no-wildcards", "--run", "examples/*"}, &stdout, &stderr)
	if code != exitFail || !strings.Contains(stdout.String(), "reference+first-match+no-wildcards") {
		t.Errorf("run --parser reference+first-match+no-wildcards: exit %d, want %d (it fails the §5.2 example)\n%s%s", code, exitFail, stdout.String(), stderr.String())
	}
	for _, bad := range []string{"reference+longest-match", "reference-google+port-ignored", "reference+", "reference+first-match+first-match"} {
		stdout.Reset()
		stderr.Reset()
		code := dispatch(context.Background(), []string{"run", "--parser", bad}, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "first-match, allow-ignored") && !strings.Contains(stderr.String(), "twice") {
			t.Errorf("run --parser %s: exit %d, stderr %q; want %d and the valid ids", bad, code, stderr.String(), exitUsage)
		}
	}
}

// docs/FORMAT.md §6 and the README name every misreading: the ids are a
// public contract.
func TestVariantsDocumented(t *testing.T) {
	format, err := os.ReadFile("../../docs/FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range reference.Misreadings() {
		row := fmt.Sprintf("| `%s` | %s | §%s | %s | %s |", m.ID, m.Kind, m.RFC, strings.Join(m.Req, ", "), strings.ReplaceAll(m.Title, "|", `\|`))
		if !strings.Contains(string(format), row) {
			t.Errorf("docs/FORMAT.md §6 lacks the row\n%s", row)
		}
		if !strings.Contains(string(readme), "`"+m.ID+"`") {
			t.Errorf("README.md does not name %s", m.ID)
		}
	}
}
