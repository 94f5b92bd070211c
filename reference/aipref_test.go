package reference

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSFDictionary(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want map[string]sfValue
	}{
		{"", true, map[string]sfValue{}},
		{"train-ai=n", true, map[string]sfValue{"train-ai": {true, "n"}}},
		{"  train-ai=y,\tsearch=n  ", true, map[string]sfValue{"train-ai": {true, "y"}, "search": {true, "n"}}},
		{"a=1, b=-2.5, c=\"x\\\"y\", d=:aGk=:, e=?1, f=@1700000000, g=%\"caf%c3%a9\", h", true,
			map[string]sfValue{"a": {}, "b": {}, "c": {}, "d": {}, "e": {}, "f": {}, "g": {}, "h": {}}},
		{"a=(y n \"s\");p=1, b=n;q;r=2", true, map[string]sfValue{"a": {}, "b": {true, "n"}}},
		{"a=y, a=\"n\"", true, map[string]sfValue{"a": {}}},
		{"*x=tok/en:1", true, map[string]sfValue{"*x": {true, "tok/en:1"}}},
		// Failures: upper-case key, trailing comma, bad items, stray bytes.
		{"TRAIN-AI=N", false, nil},
		{"a=y,", false, nil},
		{"a=y b=n", false, nil},
		{"=y", false, nil},
		{"a=(y", false, nil},
		{"a=\"open", false, nil},
		{"a=\"bad\\x\"", false, nil},
		{"a=1.", false, nil},
		{"a=1.2345", false, nil},
		{"a=1234567890123456", false, nil},
		{"a=?2", false, nil},
		{"a=:not base64!:", false, nil},
		{"a=%\"%C3\"", false, nil},
		{"a=%\"%ff\"", false, nil},
		{"a=@1.5", false, nil},
		{"a=y;", false, nil},
		{"a=\u00e9", false, nil},
		{"\ta=y", false, nil},
	}
	for _, tt := range tests {
		got, ok := parseSFDictionary(tt.in)
		if ok != tt.ok {
			t.Errorf("parseSFDictionary(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(sfValue{})); ok && diff != "" {
			t.Errorf("parseSFDictionary(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// usageExample is the example file of draft-ietf-aipref-attach-05 §3.4,
// extended with a Content-Signal line.
const usageExample = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
Content-Signal: /news/ search=yes, ai-train=no
`

func TestUsage(t *testing.T) {
	tests := []struct {
		name, robots, agent, url, category string
		want                               Usage
		lines                              []int
	}{
		{"draft example, root", usageExample, "foobot", "/test", "train-ai", UsageDisallowed, []int{4}},
		{"draft example, not crawlable", usageExample, "foobot", "/never/test", "train-ai", UsageUnknown, nil},
		{"draft example, longer path", usageExample, "foobot", "/ai-ok/test", "train-ai", UsageAllowed, []int{5}},
		{"named group", usageExample, "ExampleBot", "/never/test", "train-ai", UsageAllowed, []int{9}},
		{"no hierarchy: all is an unknown label", "User-agent: *\nContent-Usage: /e/ all=n\n", "foobot", "/e/x", "train-ai", UsageUnknown, []int{2}},
		{"no hierarchy: all says nothing of search", "User-agent: *\nContent-Usage: /e/ all=n\n", "foobot", "/e/x", "search", UsageUnknown, []int{2}},
		{"no hierarchy: train-genai is an unknown label", "User-agent: *\nContent-Usage: train-genai=n\n", "foobot", "/x", "train-ai", UsageUnknown, []int{2}},
		{"two categories", "User-agent: *\nContent-Usage: train-ai=n, search=y\n", "foobot", "/x", "search", UsageAllowed, []int{2}},
		{"use key", "User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\n", "foobot", "/x", "use", UseReference, []int{2}},
		{"use key, most restrictive level", "User-agent: *\nContent-Signal: /a use=full\nContent-Signal: /a use=immediate\n", "foobot", "/a", "use", UseImmediate, []int{2, 3}},
		{"use key, yes is no level", "User-agent: *\nContent-Signal: use=yes\n", "foobot", "/x", "use", UsageUnknown, []int{2}},
		{"use level is no preference", "User-agent: *\nContent-Signal: search=full\n", "foobot", "/x", "search", UsageUnknown, []int{2}},
		{"use is no Content-Usage label", "User-agent: *\nContent-Usage: use=immediate\n", "foobot", "/x", "use", UsageUnknown, []int{2}},
		{"other category", usageExample, "foobot", "/x", "search", UsageUnknown, []int{4}},
		{"content-signal", usageExample, "examplebot", "/news/a", "ai-train", UsageDisallowed, []int{9, 10}},
		{"content-signal search", usageExample, "examplebot", "/news/a", "search", UsageAllowed, []int{9, 10}},
		{"content-signal path", usageExample, "examplebot", "/a", "search", UsageUnknown, []int{9}},
		{"conflict, most restrictive", "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n",
			"foobot", "/a", "train-ai", UsageDisallowed, []int{2, 3}},
		{"methods combined", "User-agent: *\nContent-Usage: search=y\nContent-Signal: search=no\n",
			"foobot", "/a", "search", UsageDisallowed, []int{2, 3}},
		{"octets of the encoded path", "User-agent: *\nContent-Usage: /%E4%B8%AD train-ai=y\nContent-Usage: /\u4e2d train-ai=n\nContent-Usage: /ab train-ai=y\n",
			"foobot", "/%E4%B8%ADx", "train-ai", UsageDisallowed, []int{2, 3}},
		{"unparseable longest match states nothing", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a TRAIN-AI=Y\n",
			"foobot", "/a", "train-ai", UsageUnknown, []int{3}},
		{"non-token value, and all is no category", "User-agent: *\nContent-Usage: train-ai=\"n\", all=n\n",
			"foobot", "/a", "train-ai", UsageUnknown, []int{2}},
		{"path without statement", "User-agent: *\nContent-Usage: /a\n", "foobot", "/a", "train-ai", UsageUnknown, []int{2}},
		{"before any group", "Content-Usage: train-ai=n\nUser-agent: *\nDisallow: /x\n", "foobot", "/a", "train-ai", UsageUnknown, nil},
		{"no group for the agent", "User-agent: other\nContent-Usage: train-ai=n\n", "foobot", "/a", "train-ai", UsageUnknown, nil},
		{"wildcard path", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n", "foobot", "/a/b.pdf", "train-ai", UsageDisallowed, []int{2}},
	}
	for _, tt := range tests {
		r := ParseString(tt.robots, AIPref())
		d, err := r.Usage(tt.agent, tt.url, tt.category)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if d.Usage != tt.want || !cmp.Equal(d.Lines, tt.lines) {
			t.Errorf("%s: Usage = %s %v, want %s %v", tt.name, d.Usage, d.Lines, tt.want, tt.lines)
		}
	}
	r := ParseString(usageExample, AIPref())
	if _, err := r.Usage("foobot", "/", "tdm"); err == nil {
		t.Error("unknown category: no error")
	}
	if _, err := r.Usage("foo bot", "/", "search"); err == nil {
		t.Error("agent that is not a product token: no error")
	}
}

// TestUsageRules checks the group structure of the aipref profile: a
// Content-Usage line ends a run of user-agent lines, so both parse paths
// see two groups, where RFC 9309 sees one.
func TestUsageRules(t *testing.T) {
	const body = "User-agent: alphabot\nContent-Usage: train-ai=n\nUser-agent: betabot\nDisallow: /p\n"
	tests := []struct {
		opts  Options
		agent string
		want  bool
	}{
		{RFC(), "alphabot", false},
		{RFC(), "betabot", false},
		{AIPref(), "alphabot", true},
		{AIPref(), "betabot", false},
	}
	for _, tt := range tests {
		got, err := ParseString(body, tt.opts).Allowed(tt.agent, "/p")
		once, err2 := AllowedOnce(body, tt.opts, tt.agent, "/p")
		if err != nil || err2 != nil || got != tt.want || once != tt.want {
			t.Errorf("%s %s: Allowed %v, AllowedOnce %v (%v, %v), want %v", tt.opts.Name, tt.agent, got, once, err, err2, tt.want)
		}
	}
	if o, ok := OptionsFor("aipref"); !ok || !o.UsageRules {
		t.Errorf("OptionsFor(aipref) = %+v, %v", o, ok)
	}
}

func ExampleRobots_Usage() {
	r := ParseString("User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\n", AIPref())
	for _, path := range []string{"/", "/blog/post", "/private/x"} {
		d, _ := r.Usage("ExampleBot", path, "train-ai")
		fmt.Printf("%s %s\n", path, d)
	}
	// Output:
	// / train-ai=n: from lines [3]
	// /blog/post train-ai=y: from lines [4]
	// /private/x train-ai=unknown: the path may not be crawled, so no preference applies
}

func ExampleUsageCategories() {
	fmt.Println(UsageCategories())
	fmt.Println(IsUsageCategory("train-ai"), IsUsageCategory("all"), IsUsageCategory("train-genai"))
	// Output:
	// [ai-input ai-train search train-ai use]
	// true false false
}

func ExampleAIPref() {
	// Under the aipref profile a Content-Usage line is a rule, so the
	// second user-agent line starts a group of its own.
	const body = "User-agent: alphabot\nContent-Usage: train-ai=n\nUser-agent: betabot\nDisallow: /\n"
	for _, opts := range []Options{RFC(), AIPref()} {
		ok, _ := ParseString(body, opts).Allowed("alphabot", "/page")
		fmt.Println(opts.Name, ProfileDrafts(opts.Name) != "", ok)
	}
	// Output:
	// rfc9309 false false
	// aipref true true
}

func ExampleRobots_UsageCategoriesStated() {
	r := ParseString("User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /docs/ train-ai=n\n", AIPref())
	fmt.Println(r.UsageCategoriesStated(), UsageRulePath("Content-Usage", "/docs/ train-ai=n"))
	// Output:
	// [ai-train search train-ai] /docs/
}

// FuzzUsage checks, for any body under the aipref options, that Usage
// never fails for a known category and a product token, that a path that
// may not be crawled has no preference, and that both parse paths agree
// on the verdict with Content-Usage lines read as rules.
func FuzzUsage(f *testing.F) {
	f.Add(usageExample, "/ai-ok/x")
	f.Add("User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /\n", "/p")
	f.Add("User-agent: *\nContent-Signal: /a search=yes, ai-train=(no \"x\");q=?1\n", "/a")
	f.Fuzz(func(t *testing.T, body, path string) {
		r := ParseString(body, AIPref())
		allowed, err := r.Allowed("FooBot", path)
		if err != nil {
			t.Fatal(err)
		}
		once, err := AllowedOnce(body, AIPref(), "FooBot", path)
		if err != nil || once != allowed {
			t.Fatalf("AllowedOnce = %v, %v; Allowed = %v", once, err, allowed)
		}
		for _, c := range UsageCategories() {
			d, err := r.Usage("FooBot", path, c)
			if err != nil {
				t.Fatalf("Usage(%s): %v", c, err)
			}
			if d.Crawlable != allowed || !allowed && d.Usage != UsageUnknown {
				t.Fatalf("Usage(%s) = %+v with Allowed %v", c, d, allowed)
			}
		}
	})
}

// TestUsageDraftExamples runs the examples of the two pinned drafts with
// the outcomes the drafts state.
func TestUsageDraftExamples(t *testing.T) {
	// attach-05 §3.4 (Figure and Table "Sample of usage preferences").
	const attach = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n" +
		"User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n"
	tests := []struct {
		section, robots, agent, path string
		want                         map[string]Usage
	}{
		{"attach-05 §3.4 /test", attach, "foobot", "/test", map[string]Usage{"train-ai": UsageDisallowed}},
		{"attach-05 §3.4 /never/test", attach, "foobot", "/never/test", map[string]Usage{"train-ai": UsageUnknown}},
		{"attach-05 §3.4 /ai-ok/test", attach, "foobot", "/ai-ok/test", map[string]Usage{"train-ai": UsageAllowed}},
		{"attach-05 §3.4 ExampleBot", attach, "ExampleBot", "/never/test", map[string]Usage{"train-ai": UsageAllowed}},
		{"attach-05 §1.2", "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n", "foobot", "/", map[string]Usage{"train-ai": UsageDisallowed, "search": UsageUnknown}},
		{"vocab-07 §6", "User-agent: *\nContent-Usage: train-ai=y, search=n\n", "foobot", "/", map[string]Usage{"train-ai": UsageAllowed, "search": UsageDisallowed}},
		{"vocab-07 §6.5.1 duplicates", "User-agent: *\nContent-Usage: train-ai=y, train-ai, search=n, search=\"n\"\n", "foobot", "/", map[string]Usage{"train-ai": UsageUnknown, "search": UsageUnknown}},
		{"vocab-07 §6.5.1 upper case", "User-agent: *\nContent-Usage: Train-AI=n\n", "foobot", "/", map[string]Usage{"train-ai": UsageUnknown}},
		{"vocab-07 §6.5.2 last value's parameters", "User-agent: *\nContent-Usage: train-ai;allow=n, train-ai=y\n", "foobot", "/", map[string]Usage{"train-ai": UsageAllowed}},
		{"vocab-07 §6.5.2 parameters, unknown", "User-agent: *\nContent-Usage: train-ai;has;parameters=\"?\";\n", "foobot", "/", map[string]Usage{"train-ai": UsageUnknown}},
	}
	for _, tt := range tests {
		r := ParseString(tt.robots, AIPref())
		for c, want := range tt.want {
			d, err := r.Usage(tt.agent, tt.path, c)
			if err != nil || d.Usage != want {
				t.Errorf("%s: %s = %s (%v), want %s", tt.section, c, d.Usage, err, want)
			}
		}
	}
}
