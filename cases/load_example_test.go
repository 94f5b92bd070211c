package cases_test

import (
	"fmt"
	"testing/fstest"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

func ExampleLoad() {
	fsys := fstest.MapFS{
		"groups/merge.yaml": {Data: []byte(`cases:
  - id: merge/two-groups-same-agent
    title: Two groups naming the same agent are combined
    req: [UA-3]
    robots: |
      User-agent: ExampleBot
      Disallow: /foo
      User-agent: examplebot
      Disallow: /baz
    checks:
      - {agent: ExampleBot, url: /baz, expect: disallow, rule: 4}
      - {agent: ExampleBot, url: "https://example.com/foo?x=1", expect: disallow}
`)},
	}
	cs, err := cases.Load(fsys, "mycases")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cs {
		fmt.Println(c.ID, c.Level, c.Profile, c.Source)
		for _, chk := range c.Checks {
			fmt.Println(" ", chk.Agent, chk.URL, chk.Expect, chk.Source)
		}
	}

	// A mistake is reported with its file, line and column.
	fsys["groups/merge.yaml"].Data = []byte("cases:\n  - id: x\n    req: [UA-3]\n    robots: \"\"\n    checks:\n      - {agent: A, url: /, expect: alow}\n")
	_, err = cases.Load(fsys, "mycases")
	fmt.Println(err)
	// Output:
	// merge/two-groups-same-agent MUST rfc9309 mycases/groups/merge.yaml:2
	//   ExampleBot https://example.com/baz disallow mycases/groups/merge.yaml:11
	//   ExampleBot https://example.com/foo?x=1 disallow mycases/groups/merge.yaml:12
	// mycases/groups/merge.yaml:6:36: expect: bad verdict "alow" (want allow or disallow)
}

func ExampleSelect() {
	cs := []cases.Case{
		{ID: "match/longest/allow-inside", Req: []string{"MATCH-4"}, Profile: result.ProfileRFC},
		{ID: "match/dollar", Req: []string{"SPC-2"}, Profile: result.ProfileRFC},
		{ID: "merge/two-groups", Req: []string{"UA-3"}, Profile: result.ProfileRFC},
	}
	sel := cases.Select(cs, "", []string{"match/*", "UA-*"}, []string{"SPC-2"})
	for _, c := range sel {
		fmt.Println(c.ID)
	}
	// Output:
	// match/longest/allow-inside
	// merge/two-groups
}

func ExampleGlob() {
	fmt.Println(cases.Glob("encoding/*", "encoding/upper/hex"))
	fmt.Println(cases.Glob("MATCH-?", "MATCH-10"))
	// Output:
	// true
	// false
}

func ExampleParseShard() {
	sh, err := cases.ParseShard("2/3")
	if err != nil {
		fmt.Println(err)
		return
	}
	cs := []cases.Case{{ID: "a/one"}, {ID: "a/two"}, {ID: "a/three"}, {ID: "a/four"}}
	n := 0
	for k := 1; k <= 3; k++ {
		n += len(cases.Shard{K: k, N: 3}.Cases(cs))
	}
	fmt.Println(sh, "of", len(cs), "cases; the three shards hold", n)
	// Output: 2/3 of 4 cases; the three shards hold 4
}

func ExampleCoverage() {
	reqs := []result.Requirement{{ID: "MATCH-4"}, {ID: "MATCH-5"}}
	cs := []cases.Case{{ID: "m/longest", Req: []string{"MATCH-4"}, Checks: make([]cases.Check, 3)}}
	for _, r := range cases.Coverage(reqs, cs) {
		fmt.Println(r.ID, r.Cases, r.Checks)
	}
	// Output:
	// MATCH-4 1 3
	// MATCH-5 0 0
}
