package parsers

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
)

// names returns the parsers' names in order.
func names(ps []cases.Parser) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Info().Name)
	}
	return out
}

// TestOpen opens built-in parsers, one that cannot run here, and
// programs: the stand-ins, the default and numbered names, the identities
// and what Reopen leaves out.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	helper := helperEnv + "=parseonly " + helperCommand(t)
	nohello := helperEnv + "=nohello " + helperCommand(t)
	opts := SetOptions{Options: Options{PeersDir: t.TempDir(), Timeout: 5 * time.Second}, AllowedPattern: "^yes$"}
	progs := []Program{
		{Exec: true, Line: helper},  // the hello's name, "helper"
		{Exec: true, Line: helper},  // "helper" again: numbered
		{Exec: true, Line: nohello}, // does not start
		{Line: "true %robots%"},     // "command"
		{Line: "true %robots%", Name: "mine"},
		{Line: "true %robots%"}, // "command-2"
	}
	s, err := Open(ctx, []string{"reference", "protego"}, progs, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{"reference", "protego", "helper", "helper-2", "exec", "command", "mine", "command-2"}
	if diff := cmp.Diff(want, names(s.Parsers)); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	var un []string
	for _, u := range s.Unavailable {
		un = append(un, u.Name)
		if u.Builtin != (u.Name == "protego") {
			t.Errorf("%s: Builtin = %v", u.Name, u.Builtin)
		}
	}
	if diff := cmp.Diff([]string{"protego", "exec"}, un); diff != "" {
		t.Errorf("unavailable (-want +got):\n%s", diff)
	}
	if err := s.NotRun("protego"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("NotRun(protego) = %v, want ErrUnavailable", err)
	}
	if err := s.NotRun("exec"); err != nil {
		t.Errorf("NotRun(exec) = %v, want nil: a program that did not start is not a built-in", err)
	}
	req := cases.Request{Robots: []byte("User-agent: *\nDisallow: /\n"), Agent: "a", URL: "https://e.com/x"}
	if caps := s.Parsers[1].Info().Capabilities; len(caps) != 0 {
		t.Errorf("protego's stand-in has capabilities %v", caps)
	}
	if _, err := s.Parsers[4].Check(ctx, req); err == nil || !strings.Contains(err.Error(), "did not start") {
		t.Errorf("the broken program's check: %v; want its reason", err)
	}
	ids := s.Identities()
	if len(ids) != 6 || ids["helper"] != "exec "+helper || ids["mine"] != "command true %robots%\x00^yes$\x00" {
		t.Errorf("Identities = %q", ids)
	}

	r, err := s.Reopen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want = []string{"reference", "helper", "helper-2", "command", "mine", "command-2"}
	if diff := cmp.Diff(want, names(r.Parsers)); diff != "" {
		t.Errorf("reopened names (-want +got):\n%s", diff)
	}
	if len(r.Unavailable) != 0 {
		t.Errorf("reopened set has unavailable parsers %v", r.Unavailable)
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		names []string
		progs []Program
		want  string
	}{
		{[]string{"reference", "reference"}, nil, "--parser reference is given twice"},
		{[]string{"nope"}, nil, "unknown parser"},
		{[]string{"reference"}, []Program{{Line: "true", Name: "reference"}}, "--name reference is taken"},
		{nil, []Program{{Line: "p 'a"}}, `--command "p 'a"`},
		{nil, []Program{{Line: "p", Name: "a=b"}}, "contains '='"},
		{nil, []Program{{Exec: true, Line: "  "}}, "--exec: empty command"},
	}
	for _, tt := range tests {
		s, err := Open(context.Background(), tt.names, tt.progs, SetOptions{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q, %+v) = %v, %v; want an error with %q", tt.names, tt.progs, s, err, tt.want)
		}
	}
}
