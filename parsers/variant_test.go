package parsers

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// reference+ID and reference-google+ID are parsers named as given, whose
// options carry the misreadings on the base of each profile, and whose
// verdicts follow them.
func TestNewVariant(t *testing.T) {
	ctx := context.Background()
	req := cases.Request{Profile: result.ProfileRFC, Robots: []byte("User-agent: *\nDisallow: /\nAllow: /public/\n"), Agent: "a", URL: "https://example.com/public/x"}
	tests := []struct {
		name, profile, opts string
		want                result.Verdict
	}{
		{"reference", result.ProfileRFC, "rfc9309", result.Allow},
		{"reference+first-match", result.ProfileRFC, "rfc9309+first-match", result.Disallow},
		{"reference+first-match+no-wildcards", result.ProfileGoogle, "google+first-match+no-wildcards", result.Disallow},
		{"reference-google+first-match", result.ProfileRFC, "google+first-match", result.Disallow},
	}
	for _, tc := range tests {
		p, err := New(ctx, tc.name, Options{})
		if err != nil {
			t.Fatalf("New(%q): %v", tc.name, err)
		}
		ref := p.(*Reference)
		if got := p.Info().Name; got != tc.name {
			t.Errorf("New(%q).Info().Name = %q", tc.name, got)
		}
		if got := ref.Options(tc.profile).Name; got != tc.opts {
			t.Errorf("%s: options for %s named %q, want %q", tc.name, tc.profile, got, tc.opts)
		}
		r := req
		r.Profile = tc.profile
		if v, err := p.Check(ctx, r); err != nil || v != tc.want {
			t.Errorf("%s: Check = %v, %v; want %v", tc.name, v, err, tc.want)
		}
	}
	for _, bad := range []string{"reference+longest-match", "reference+port-ignored", "reference+", "reference+tie-disallow+tie-disallow", "reference+substring-agent+prefix-agent", "grobotstxt+first-match"} {
		_, err := New(ctx, bad, Options{})
		if !errors.Is(err, ErrUnknown) {
			t.Errorf("New(%q): error %v, want ErrUnknown", bad, err)
		}
		if err != nil && bad != "grobotstxt+first-match" && !strings.Contains(err.Error(), "first-match") && !strings.Contains(err.Error(), "given twice") && !strings.Contains(err.Error(), "cannot be combined") {
			t.Errorf("New(%q): error %q lists no valid id", bad, err)
		}
	}
}
