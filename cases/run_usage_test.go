package cases

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/reptest/reptest/result"
)

// usageParser answers allow, and "n" for every category asked.
type usageParser struct{ caps []result.Capability }

func (p usageParser) Info() result.Info { return result.Info{Name: "u", Capabilities: p.caps} }
func (usageParser) Check(context.Context, Request) (result.Verdict, error) {
	return result.Allow, nil
}
func (usageParser) Usage(_ context.Context, _ Request, cs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, c := range cs {
		out[c] = "n"
	}
	return out, nil
}

func TestRunUsage(t *testing.T) {
	c := []Case{{
		ID: "t/usage", Level: result.MUST, Req: []string{"MATCH-4"}, Profile: result.ProfileAIPref,
		Robots: []byte("User-agent: *\n"),
		Checks: []Check{
			{Agent: "FooBot", URL: "https://example.com/a", Expect: result.Allow, Usage: map[string]string{"train-ai": "n"}},
			{Agent: "FooBot", URL: "https://example.com/b", Expect: result.Allow, Usage: map[string]string{"train-ai": "n", "search": "y"}},
		},
	}}
	tests := []struct {
		caps     []result.Capability
		outcomes []result.Outcome
		detail   string
	}{
		{[]result.Capability{result.CapParse, result.CapUsage}, []result.Outcome{result.Pass, result.Violation}, "usage preferences differ: search=n, want y"},
		{[]result.Capability{result.CapParse}, []result.Outcome{result.Pass, result.Pass}, "usage preferences not checked"},
	}
	for _, tt := range tests {
		rep, err := Run(context.Background(), c, []Parser{usageParser{tt.caps}}, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []result.Outcome
		for _, r := range rep.Results {
			got = append(got, r.Outcome)
		}
		if diff := cmp.Diff(tt.outcomes, got); diff != "" {
			t.Errorf("caps %v: outcomes (-want +got):\n%s", tt.caps, diff)
		}
		if d := rep.Results[1].Detail; !strings.Contains(d, tt.detail) {
			t.Errorf("caps %v: detail %q, want %q", tt.caps, d, tt.detail)
		}
	}
}

func TestLoadUsage(t *testing.T) {
	good := edit(t, caseText, "expect: allow}", "expect: allow, usage: {train-ai: n, search: unknown}}")
	good = strings.Replace(good, "    robots:", "    profile: aipref\n    robots:", 1)
	cs, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(good)}}, "src")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"train-ai": "n", "search": "unknown"}, cs[0].Checks[0].Usage); diff != "" || cs[0].Profile != result.ProfileAIPref {
		t.Errorf("profile %q, usage (-want +got):\n%s", cs[0].Profile, diff)
	}
	for _, bad := range []struct{ usage, msg string }{
		{"{tdm: n}", `unknown key "tdm" in usage`},
		{"{train-ai: maybe}", `usage train-ai: bad preference "maybe"`},
		{"{}", "usage: name at least one category"},
		{"n", "usage: want a mapping"},
	} {
		text := edit(t, caseText, "expect: allow}", "expect: allow, usage: "+bad.usage+"}")
		_, err := Load(fstest.MapFS{"f.yaml": {Data: []byte(text)}}, "src")
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("usage %s: error %v, want %q", bad.usage, err, bad.msg)
		}
	}
}
