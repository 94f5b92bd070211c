package main

import (
	"context"
	"testing"

	"github.com/reptest/reptest/cases"
)

type infoParser struct{ info cases.Info }

func (p infoParser) Info() cases.Info { return p.info }
func (infoParser) Check(context.Context, cases.Request) (cases.Verdict, error) {
	return cases.Allow, nil
}

func TestVersionList(t *testing.T) {
	ps := []cases.Parser{
		infoParser{cases.Info{Name: "reference", Version: "0.1.0"}},
		infoParser{cases.Info{Name: "python-urllib", Version: "3.11.7", Runtime: "CPython 3.11.7"}},
		infoParser{cases.Info{Name: "mine"}},
	}
	const want = "reference 0.1.0, python-urllib 3.11.7 (CPython 3.11.7), mine"
	if got := versionList(ps); got != want {
		t.Errorf("versionList = %q, want %q", got, want)
	}
}
