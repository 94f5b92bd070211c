package report

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diff"
)

// ConflictError lists what two shards say differently.
type ConflictError struct {
	Conflicts []string
}

// Error lists the first conflicts.
func (e *ConflictError) Error() string {
	const show = 10
	msg := fmt.Sprintf("report: %d conflicts between shards: %s", len(e.Conflicts), strings.Join(e.Conflicts[:min(show, len(e.Conflicts))], "; "))
	if len(e.Conflicts) > show {
		msg += fmt.Sprintf("; and %d more", len(e.Conflicts)-show)
	}
	return msg
}

// Merge combines the documents of a sharded run into one and recomputes
// the parsers' summaries from the combined results. The shards must agree
// on the profile and strictness and on each parser's version; a check
// (parser, case, check index) that two shards both report must have the
// same result, and a case described twice the same description. Any
// disagreement is a *ConflictError listing them; identical duplicates are
// kept once. Findings are combined without duplicates; requirement tables
// are combined by ID. Expected-failure marks are dropped: apply the file
// again to the merged document.
func Merge(docs ...*Document) (*Document, error) {
	if len(docs) == 0 {
		return nil, errors.New("report: nothing to merge")
	}
	m := merger{
		out:      &Document{Tool: Tool, Version: docs[0].Version, Profile: docs[0].Profile, Strict: docs[0].Strict, Drafts: docs[0].Drafts},
		versions: map[string]string{},
		results:  map[resultKey]int{},
		reqs:     map[string]int{},
		findings: map[string]bool{},
	}
	for i, d := range docs {
		if d.Tool != Tool {
			return nil, fmt.Errorf("report: document %d is not a %s results document", i+1, Tool)
		}
		m.add(i+1, d)
	}
	if len(m.conflicts) > 0 {
		return nil, &ConflictError{Conflicts: m.conflicts}
	}
	out := m.out
	out.Selection = mergedSelection(docs)
	out.Interrupted, out.InterruptReason = mergedInterruption(docs)
	slices.SortFunc(out.Requirements, func(a, b cases.Requirement) int { return compareReq(a.ID, b.ID) })
	out.sortResults()
	out.Recount()
	return out, nil
}

// merger accumulates the documents Merge combines: what it has taken so
// far, indexed for the duplicate checks, and the conflicts it found.
type merger struct {
	out       *Document
	conflicts []string
	versions  map[string]string // parser name → version
	results   map[resultKey]int // → index in out.Results
	reqs      map[string]int    // requirement ID → index in out.Requirements
	findings  map[string]bool   // findingKey
}

func (m *merger) conflict(format string, args ...any) {
	m.conflicts = append(m.conflicts, fmt.Sprintf(format, args...))
}

// add takes document n (1-based, for the messages) into the merge.
func (m *merger) add(n int, d *Document) {
	out := m.out
	if d.Profile != out.Profile {
		m.conflict("profile %q in document 1, %q in document %d", out.Profile, d.Profile, n)
	}
	if d.Strict != out.Strict {
		m.conflict("document %d differs in --strict", n)
	}
	if d.Version != out.Version {
		m.conflict("reptest version %q in document 1, %q in document %d", out.Version, d.Version, n)
	}
	m.addParsers(n, d.Parsers)
	m.addResults(n, d.Results)
	m.addCases(n, d.Cases)
	m.addRequirements(n, d.Requirements)
	for _, f := range d.Findings {
		k := findingKey(f)
		if m.findings[k] {
			continue
		}
		m.findings[k] = true
		out.Findings = append(out.Findings, f)
	}
}

func (m *merger) addParsers(n int, ps []cases.Summary) {
	for _, p := range ps {
		v, seen := m.versions[p.Name]
		switch {
		case !seen:
			m.versions[p.Name] = p.Version
			m.out.Parsers = append(m.out.Parsers, cases.Summary{Name: p.Name, Version: p.Version, Runtime: p.Runtime})
		case v != p.Version:
			m.conflict("parser %q has version %q and %q (document %d)", p.Name, v, p.Version, n)
		}
	}
}

func (m *merger) addResults(n int, rs []cases.Result) {
	for _, r := range rs {
		k := keyOf(r)
		if j, ok := m.results[k]; ok {
			if !reflect.DeepEqual(m.out.Results[j], r) {
				m.conflict("parser %q, case %q, check %d: %s in one shard, %s in document %d",
					r.Parser, r.Case, r.Check, m.out.Results[j].Outcome, r.Outcome, n)
			}
			continue
		}
		m.results[k] = len(m.out.Results)
		m.out.Results = append(m.out.Results, r)
	}
}

func (m *merger) addCases(n int, cs map[string]*CaseInfo) {
	for id, c := range cs {
		if m.out.Cases == nil {
			m.out.Cases = map[string]*CaseInfo{}
		}
		if prev, ok := m.out.Cases[id]; ok {
			if !reflect.DeepEqual(prev, c) {
				m.conflict("case %q is described differently in document %d", id, n)
			}
			continue
		}
		m.out.Cases[id] = c
	}
}

func (m *merger) addRequirements(n int, rqs []cases.Requirement) {
	for _, rq := range rqs {
		if j, ok := m.reqs[rq.ID]; ok {
			if m.out.Requirements[j] != rq {
				m.conflict("requirement %q differs in document %d", rq.ID, n)
			}
			continue
		}
		m.reqs[rq.ID] = len(m.out.Requirements)
		m.out.Requirements = append(m.out.Requirements, rq)
	}
}

// mergedInterruption says whether any document was interrupted, and why,
// naming each.
func mergedInterruption(docs []*Document) (bool, string) {
	var whys []string
	for i, d := range docs {
		if !d.Interrupted {
			continue
		}
		why := fmt.Sprintf("document %d", i+1)
		if d.Selection != nil {
			why += " (shard " + d.Selection.Shard + ")"
		}
		if d.InterruptReason != "" {
			why += ": " + d.InterruptReason
		}
		whys = append(whys, why)
	}
	return len(whys) > 0, strings.Join(whys, "; ")
}

// findingKey identifies a finding for deduplication.
func findingKey(f diff.Finding) string {
	var b strings.Builder
	for _, s := range []string{f.Profile, string(f.Robots), f.Agent, f.URL, diff.Signature(f.Verdicts)} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return b.String()
}
