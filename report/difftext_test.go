package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/reptest/reptest/result"
)

func TestWriteText(t *testing.T) {
	long := strings.Repeat("Disallow: /x\n", 9)
	fs := []result.Finding{
		{Input: result.Input{Robots: []byte("User-agent: *\r\nDisallow: /a\u202e\r\n"), Agent: "FooBot", URL: "/%61"}, Verdicts: map[string]result.Verdict{"a": "allow", "b": "disallow"}, Req: []string{"PCT-2"}, Sources: []string{"f1"}, Probes: 2},
		{Input: result.Input{Robots: []byte("User-agent: *\n" + long), Agent: "FooBot", URL: "/x"}, Verdicts: map[string]result.Verdict{"a": "allow", "b": "reject"}, Req: []string{"SYN-9"}, Sources: []string{"f2"}, Probes: 1},
	}
	for i := range fs {
		fs[i].Signature = result.Signature(fs[i].Verdicts)
	}
	s := &result.DiffSummary{Parsers: []string{"a", "b"}, Files: 2, Probes: 10, Disagreements: 3, FilesWithDisagreements: 2, Findings: 2,
		Pairs: []result.PairStat{{A: "a", B: "b", Probes: 10, ProbeDisagreements: 3, Files: 2, FileDisagreements: 2}}, Groups: result.GroupFindings(fs)}
	var b bytes.Buffer
	if err := writeDiffText(&b, s, 1); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"2 parsers (a, b), 2 files, 10 probes",
		"3 probes disagree (30.0%) in 2 files",
		"a  b      10         3  30.0%",
		"1. a=allow≠b=disallow  PCT-2",
		`   | Disallow: /a\u202e\r\n`,
		"other groups:\n2. a=allow≠b=reject  SYN-9",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\u202e") || strings.Contains(out, "\r") {
		t.Errorf("output holds raw control characters:\n%q", out)
	}
	b.Reset()
	writeDiffText(&b, s, 0)
	if n := strings.Count(b.String(), "   | "); n != 2+MaxExampleLines+1 {
		t.Errorf("%d example lines, want %d:\n%s", n, 2+MaxExampleLines+1, b.String())
	}
	if !strings.Contains(b.String(), "… 5 more lines") {
		t.Errorf("long example not cut:\n%s", b.String())
	}
}
