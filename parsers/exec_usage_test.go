package parsers

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

func TestExecUsage(t *testing.T) {
	e := newHelperExec(t, "usage", time.Second)
	if !e.Info().Has(result.CapUsage) {
		t.Fatalf("Info() = %+v, want the capability usage", e.Info())
	}
	ctx := context.Background()
	req := cases.Request{Agent: "FooBot", URL: "https://example.com/no-ai/x", Robots: []byte("User-agent: *\n")}
	got, err := e.Usage(ctx, req, []string{"search", "train-ai"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"search": "n", "train-ai": "n"}, got); diff != "" {
		t.Errorf("Usage (-want +got):\n%s", diff)
	}
	req.URL = "https://example.com/nousage"
	if _, err := e.Usage(ctx, req, []string{"search"}); err == nil {
		t.Error("an answer without usage: no error")
	}
	// A program without the capability is never asked.
	plain := newHelperExec(t, "parseonly", time.Second)
	if _, err := plain.Usage(ctx, req, []string{"search"}); !errors.Is(err, errCapability) {
		t.Errorf("Usage without the capability: %v, want errCapability", err)
	}
}

func TestReferenceUsage(t *testing.T) {
	p := NewReference()
	if !p.Info().Has(result.CapUsage) {
		t.Fatalf("Info() = %+v, want the capability usage", p.Info())
	}
	req := cases.Request{Profile: result.ProfileAIPref, Agent: "FooBot", URL: "https://example.com/a",
		Robots: []byte("User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: /a search=yes\n")}
	got, err := p.Usage(context.Background(), req, []string{"search", "train-ai", "ai-input"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"search": "y", "train-ai": "n", "ai-input": "unknown"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Usage (-want +got):\n%s", diff)
	}
	req.Status = 404
	if got, _ := p.Usage(context.Background(), req, []string{"search"}); got["search"] != "unknown" {
		t.Errorf("404: usage %v, want unknown", got)
	}
}
