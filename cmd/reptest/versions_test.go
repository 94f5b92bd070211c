package main

import (
	"context"
	"testing"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

type infoParser struct{ info result.Info }

func (p infoParser) Info() result.Info { return p.info }
func (infoParser) Check(context.Context, cases.Request) (result.Verdict, error) {
	return result.Allow, nil
}

func TestVersionList(t *testing.T) {
	ps := []cases.Parser{
		infoParser{result.Info{Name: "reference", Version: "0.1.0"}},
		infoParser{result.Info{Name: "python-urllib", Version: "3.11.7", Runtime: "CPython 3.11.7"}},
		infoParser{result.Info{Name: "mine"}},
	}
	const want = "reference 0.1.0, python-urllib 3.11.7 (CPython 3.11.7), mine"
	if got := versionList(ps); got != want {
		t.Errorf("versionList = %q, want %q", got, want)
	}
}
