package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/matrix"
	"github.com/reptest/reptest/reference"
)

// thirteenGroups is a file with 13 named groups that each allow
// everything, then a "*" group that disallows /go/: the author meant
// /go/ to be closed to all, but each named group replaces "*".
func thirteenGroups() ([]byte, []string) {
	names := []string{"AlphaBot", "BetaBot", "GammaBot", "DeltaBot", "EpsilonBot", "ZetaBot", "EtaBot",
		"ThetaBot", "IotaBot", "KappaBot", "LambdaBot", "MuBot", "NuBot"}
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "User-agent: %s\nAllow: /\n\n", n)
	}
	b.WriteString("User-agent: *\nDisallow: /go/\n")
	return []byte(b.String()), names
}

func TestMatrixNamedGroupsReplaceStar(t *testing.T) {
	body, names := thirteenGroups()
	m, err := matrix.Build(body, matrix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(append(names, "UnlistedBot"), m.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/", "/go/"}, m.Paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	gi := 1 // the /go/ column
	for i, a := range m.Agents {
		v := m.Cells[i][gi]
		if a == "UnlistedBot" {
			if v.Allowed || v.Line != 41 {
				t.Errorf("unnamed agent on /go/: %+v, want disallowed by line 41", v)
			}
			continue
		}
		if !v.Allowed || v.Line != 3*i+2 {
			t.Errorf("%s on /go/: %+v, want allowed by line %d", a, v, 3*i+2)
		}
	}
	warned := map[string]bool{}
	for _, w := range m.Warnings {
		if w.Kind != matrix.WarnStarNotInherited {
			t.Errorf("unexpected warning %+v", w)
			continue
		}
		if !strings.Contains(w.Message, "disallow: /go/ (line 41") {
			t.Errorf("warning does not name the lost rule: %s", w.Message)
		}
		warned[w.Agent] = true
	}
	for _, n := range names {
		if !warned[n] {
			t.Errorf("no warning for %s", n)
		}
	}
	if len(m.Warnings) != 13 {
		t.Errorf("%d warnings, want 13", len(m.Warnings))
	}

	var out bytes.Buffer
	if err := WriteMatrix(&out, m, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"AlphaBot               allow 2", "UnlistedBot (unnamed)  allow          DISALLOW 41", "13 warnings",
		"  13 × named groups replace the * group and lose some of its rules [star-rules-not-inherited]\n" +
			"    add \"Disallow: /go/\" (the * group's line 41) to the 13 groups that lack it: AlphaBot (line 1), BetaBot (line 4), GammaBot (line 7) and 10 more\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
}

// TestMatrixFixOneGroup checks the suggested fix for a single group that
// lacks the * group's rules; a group blocking everything is left out.
func TestMatrixFixOneGroup(t *testing.T) {
	body := "User-agent: *\nDisallow: /go/\n\nUser-agent: A\nDisallow: /\n\nUser-agent: B\nDisallow: /y\n"
	m, err := matrix.Build([]byte(body), matrix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteMatrix(&out, m, false); err != nil {
		t.Fatal(err)
	}
	want := "    add \"Disallow: /go/\" (the * group's line 2) to the group that lacks it: B (line 7)\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, out.String())
	}
}

func TestMatrixNoWarningWhenVerdictsAgree(t *testing.T) {
	// BadBot's own group blocks everything, so lacking "Disallow: /go/"
	// changes nothing; GoodBot repeats the rule.
	body := "User-agent: BadBot\nDisallow: /\n\nUser-agent: GoodBot\nDisallow: /go/\nAllow: /x\n\nUser-agent: *\nDisallow: /go/\n"
	m, err := matrix.Build([]byte(body), matrix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) != 0 {
		t.Errorf("warnings: %+v", m.Warnings)
	}
}

func TestMatrixWarnings(t *testing.T) {
	body := "Disallow: /early\n" + // 1: before any user-agent
		"User-agent: Googlebot/2.1\n" + // 2: not a token
		"User-agent: *\n" + // 3
		"Disallow: private\n" + // 4: no leading slash
		"Crawl-delay: 5\n" + // 5
		"this is not a record\n" + // 6
		"Allow: /*.css$\n" // 7
	m, err := matrix.Build([]byte(body), matrix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type w struct {
		Line int
		Kind string
	}
	var got []w
	for _, x := range m.Warnings {
		got = append(got, w{x.Line, x.Kind})
	}
	want := []w{{1, matrix.WarnOrphanRule}, {2, matrix.WarnNotToken}, {4, matrix.WarnNoLeadingSlash}, {5, matrix.WarnCrawlDelay}, {6, matrix.WarnUnparseable}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/", "/early", "/private", "/x.css"}, m.Paths); diff != "" {
		t.Errorf("derived paths (-want +got):\n%s", diff)
	}
	// Under RFC 9309 "Googlebot/2.1" names nobody, so only the unnamed
	// agent is listed; under the google profile it names Googlebot.
	if diff := cmp.Diff([]string{"UnlistedBot"}, m.Agents); diff != "" {
		t.Errorf("RFC agents (-want +got):\n%s", diff)
	}
	g, err := matrix.Build([]byte(body), matrix.Options{Options: reference.Google()})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Googlebot", "UnlistedBot"}, g.Agents); diff != "" {
		t.Errorf("google agents (-want +got):\n%s", diff)
	}
}

func TestMatrixLargeFile(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("# filler filler filler filler filler filler\n", 13000) + "Disallow: /late\n"
	m, err := matrix.Build([]byte(body), matrix.Options{Agents: []string{"FooBot"}, Paths: []string{"/late"}})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Cells[0][0].Allowed {
		t.Errorf("a rule past 500 KiB applies")
	}
	if len(m.Warnings) != 1 || m.Warnings[0].Kind != matrix.WarnTooLarge {
		t.Errorf("warnings = %+v, want one %s", m.Warnings, matrix.WarnTooLarge)
	}
}

func TestMatrixBadAgent(t *testing.T) {
	if _, err := matrix.Build([]byte("User-agent: *\n"), matrix.Options{Agents: []string{"Foo Bot"}}); err == nil {
		t.Error("an agent that is not a product token is accepted")
	}
}

func TestMatrixUnnamedAvoidsNamed(t *testing.T) {
	m, err := matrix.Build([]byte("User-agent: UnlistedBot\nDisallow: /\n"), matrix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Unnamed != "UnlistedBotX" {
		t.Errorf("unnamed agent = %q", m.Unnamed)
	}
}

// A group that blocks everything on purpose is not warned about, even
// where an allow rule of "*" would open a path to others; the text gives
// one line per kind with a count and three examples, and says when paths
// are cut.
func TestMatrixWarningSummary(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\n")
	for i := range 30 {
		fmt.Fprintf(&b, "User-agent: Bad%c%c\nDisallow: /\n\n", 'A'+i/26, 'A'+i%26)
	}
	for i := range 5 {
		fmt.Fprintf(&b, "User-agent: Bot%d/1.0\nDisallow: /p%d/\n\n", i, i)
	}
	for i := range 40 {
		fmt.Fprintf(&b, "User-agent: *\nDisallow: /dir%d/\n", i)
	}
	m, err := matrix.Build([]byte(b.String()), matrix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range m.Warnings {
		if w.Kind == matrix.WarnStarNotInherited {
			t.Errorf("a group blocking everything is warned about: %s", w.Message)
		}
	}
	var out bytes.Buffer
	if err := WriteMatrix(&out, m, false); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"24 of the 48 paths the file's rules give are shown; choose others with --path.",
		"  5 × user-agent values that are not product tokens [agent-not-a-token]\n    line 95: user-agent \"Bot0/1.0\"",
		"    … and 2 more\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "is not a product token"); n != 3 {
		t.Errorf("text shows %d not-a-token warnings, want 3 examples", n)
	}
}
