package fuzz

import (
	"strings"
	"testing"

	"github.com/reptest/reptest/reference"
)

// Sizes FuzzMatch works with: longer inputs are cut, which keeps the
// oracle's O(pattern × path) simulation fast.
const (
	maxMatchPattern = 512
	maxMatchPath    = 1024
)

// matchProfile is one option set with the oracle's mode for it.
type matchProfile struct {
	opts   reference.Options
	google bool // Google's escaping of rules, URI compared as given
}

func matchProfiles() []matchProfile {
	return []matchProfile{{reference.RFC(), false}, {reference.Google(), true}}
}

// rulePattern turns any string into a rule path that survives as the
// value of a "Disallow:" line unchanged: it is cut to maxMatchPattern
// octets, "#", CR and LF (which would start a comment or end the line) are
// written as their escapes, and the white space the options trim from a
// value's ends is removed (SP and HTAB for the RFC; SP, HTAB, VT and FF
// for Google, whose parser trims ASCII white space). For Google a NUL ends
// the line, so the pattern is cut there first. Both the reference and the
// oracle see the result.
func rulePattern(s string, google bool) string {
	if len(s) > maxMatchPattern {
		s = s[:maxMatchPattern]
	}
	s = strings.NewReplacer("#", "%23", "\r", "%0D", "\n", "%0A").Replace(s)
	if google {
		s, _, _ = strings.Cut(s, "\x00")
		return strings.Trim(s, " \t\v\f")
	}
	return strings.Trim(s, " \t")
}

// uriPath turns any string into a URI path: cut to maxMatchPath octets and
// starting with "/".
func uriPath(s string) string {
	if len(s) > maxMatchPath {
		s = s[:maxMatchPath]
	}
	if !strings.HasPrefix(s, "/") {
		s = "/" + s
	}
	return s
}

// FuzzMatch checks the reference's matching and percent-encoding
// normalisation (MATCH-3, MATCH-9, SPC-1 to SPC-4, PCT-1 to PCT-3, PAT-1,
// PAT-2, MATCH-7) against the oracle of oracle_test.go, through the public
// API only: the pattern becomes the file "User-agent: *", "Disallow:
// <pattern>", and the reference decides "http://example.com<path>" for
// agent "a". The verdict must be disallow exactly when the oracle's
// pattern matches its normalised path (the RFC options always allow
// "/robots.txt"), and the reference's normalised path must be the
// oracle's.
func FuzzMatch(f *testing.F) {
	addMatchSeeds(f)
	f.Fuzz(func(t *testing.T, pattern, path string) {
		path = uriPath(path)
		for _, mp := range matchProfiles() {
			pat := rulePattern(pattern, mp.google)
			r := reference.ParseString("User-agent: *\nDisallow: "+pat+"\n", mp.opts)
			d, err := r.Decide("a", "http://example.com"+path)
			if err != nil {
				t.Fatalf("%s: Decide: %v", mp.opts.Name, err)
			}
			norm := oraclePath(path, mp.google)
			match := compileOracle(pat, mp.google).matches(norm)
			wantAllowed := !match || !mp.google && isRobotsTxtPath(norm)
			if d.Path != string(norm) {
				t.Errorf("%s: path %q normalised to %q, oracle says %q", mp.opts.Name, path, d.Path, norm)
			}
			if d.Allowed != wantAllowed {
				t.Errorf("%s: Disallow: %q on path %q: reference allowed=%v (%s), oracle: pattern %q matches %q = %v",
					mp.opts.Name, pat, path, d.Allowed, d, compileOracle(pat, mp.google).octets, norm, match)
			}
		}
	})
}

// TestOracle pins the oracle itself on cases whose answers the RFC and
// requirement table (corpus/requirements.yaml) state, so that FuzzMatch compares against something
// known to be right.
func TestOracle(t *testing.T) {
	tests := []struct {
		pattern, path string
		google        bool
		want          bool
	}{
		{"/fish", "/fish.html", false, true},                // MATCH-9
		{"/fish", "/Fish", false, false},                    // MATCH-2
		{"/b", "/a/b", false, false},                        // MATCH-3
		{"/*.pdf$", "/a.pdf.pdf", false, true},              // SPC-1
		{"/*.pdf$", "/a.pdf?x=1", false, false},             // SPC-2
		{"/a$b", "/a$b", false, true},                       // SPC-3
		{"/a$b", "/a%24b", false, true},                     // SPC-3, SPC-4
		{"/file-%2A.html", "/file-*.html", false, true},     // SPC-4
		{"/file-*.html", "/file-*.html", false, true},       // "*" still a wildcard
		{"/ツ", "/%E3%83%84", false, true},                   // PCT-1
		{"/foo/bar/baz", "/foo/bar/%62%61%7A", false, true}, // PCT-2
		{"/a/b", "/a%2Fb", false, false},                    // PCT-2: %2F stays
		{"/a%2fb", "/a%2Fb", false, true},                   // PCT-3
		{"/100%", "/100%25", false, true},                   // a stray "%"
		{"/a b", "/a%20b", false, true},                     // space encoded
		{"*.gif$", "/x.gif", false, true},                   // PAT-1
		{"foo", "/foo", false, false},                       // PAT-1
		{"", "/", false, false},                             // PAT-2
		{"$", "/", false, false},
		{"/" + strings.Repeat("*a", 400) + "*b", "/" + strings.Repeat("a", 1000), false, false},
		{"/a%2fb", "/a%2Fb", true, true},  // Google: hex upper-cased
		{"/a%2fb", "/a%2fb", true, false}, // Google: URI as given
		{"/ツ", "/ツ", true, false},         // Google: rule encoded, URI not
		{"/ツ", "/%E3%83%84", true, true},
		{"/%41", "/A", true, false}, // Google: no decoding
	}
	for _, tt := range tests {
		got := compileOracle(tt.pattern, tt.google).matches(oraclePath(tt.path, tt.google))
		if got != tt.want {
			t.Errorf("oracle(google=%v): %q matches %q = %v, want %v", tt.google, tt.pattern, tt.path, got, tt.want)
		}
	}
}
