package result

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// ConflictError lists what two shards say differently.
type ConflictError struct {
	Conflicts []string
}

// Error lists the first conflicts.
func (e *ConflictError) Error() string {
	const show = 10
	msg := fmt.Sprintf("result: %d conflicts between shards: %s", len(e.Conflicts), strings.Join(e.Conflicts[:min(show, len(e.Conflicts))], "; "))
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
// again to the merged document. The documents of a differential run
// (reptest diff) are merged as one run: their counts added, findings on
// the same input joined and grouped again, their diagnoses merged. t is
// the requirement table, whose order the merged lists follow.
func Merge(t Table, docs ...*Document) (*Document, error) {
	if len(docs) == 0 {
		return nil, errors.New("result: nothing to merge")
	}
	m := merger{
		out:      &Document{Tool: Tool, Version: docs[0].Version, Profile: docs[0].Profile, Strict: docs[0].Strict, Drafts: docs[0].Drafts},
		versions: map[string]string{},
		results:  map[Key]int{},
		reqs:     map[string]int{},
		findings: map[string]bool{},
		diff:     slices.ContainsFunc(docs, isDiff),
	}
	for i, d := range docs {
		if d.Tool != Tool {
			return nil, fmt.Errorf("result: document %d is not a %s results document", i+1, Tool)
		}
		m.add(i+1, d)
	}
	if len(m.conflicts) > 0 {
		return nil, &ConflictError{Conflicts: m.conflicts}
	}
	out := m.out
	if m.diff {
		var err error
		if out.Summary, out.Findings, out.Run, err = mergeFindings(t, docs); err != nil {
			return nil, err
		}
	} else if slices.ContainsFunc(docs, func(d *Document) bool { return d.Summary != nil }) {
		out.Summary = SummarizeFindings(out.Findings, nil)
	}
	for _, d := range docs {
		out.Reference = cmp.Or(out.Reference, d.Reference)
	}
	ds := make([][]Diagnosis, len(docs))
	for i, d := range docs {
		ds[i] = d.Diagnosis
	}
	if out.Diagnosis = MergeDiagnoses(ds...); len(out.Diagnosis) == 0 && !m.diff {
		out.Diagnosis = nil
	}
	out.Selection = mergedSelection(docs)
	out.Interrupted, out.InterruptReason = mergedInterruption(docs)
	slices.SortStableFunc(out.Requirements, t.compareReq)
	out.SortResults()
	out.Summarize()
	return out, nil
}

// merger accumulates the documents Merge combines: what it has taken so
// far, indexed for the duplicate checks, and the conflicts it found.
type merger struct {
	out       *Document
	conflicts []string
	versions  map[string]string // parser name → version
	results   map[Key]int       // → index in out.Results
	reqs      map[string]int    // requirement ID → index in out.Requirements
	findings  map[string]bool   // findingKey
	// diff is set when the documents are of a differential run, whose
	// findings mergeFindings joins.
	diff bool
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
	if d.Version != out.Version && !m.diff { // differential runs merged across versions before they were results documents
		m.conflict("reptest version %q in document 1, %q in document %d", out.Version, d.Version, n)
	}
	m.addParsers(n, d.Parsers)
	m.addResults(n, d.Results)
	m.addCases(n, d.Cases)
	m.addRequirements(n, d.Requirements)
	switch {
	case len(d.Areas) == 0:
	case len(out.Areas) == 0:
		out.Areas = d.Areas
	case !slices.Equal(out.Areas, d.Areas):
		m.conflict("document %d's areas of the requirement table differ from those before it", n)
	}
	for _, f := range d.Findings {
		if m.diff {
			break
		}
		k := findingKey(f)
		if m.findings[k] {
			continue
		}
		m.findings[k] = true
		out.Findings = append(out.Findings, f)
	}
}

func (m *merger) addParsers(n int, ps []Summary) {
	for _, p := range ps {
		v, seen := m.versions[p.Name]
		switch {
		case !seen:
			m.versions[p.Name] = p.Version
			m.out.Parsers = append(m.out.Parsers, Summary{Name: p.Name, Version: p.Version, Runtime: p.Runtime})
		case v != p.Version:
			m.conflict("parser %q has version %q and %q (document %d)", p.Name, v, p.Version, n)
		}
	}
}

func (m *merger) addResults(n int, rs []Result) {
	for _, r := range rs {
		k := KeyOf(r)
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

func (m *merger) addRequirements(n int, rqs []Requirement) {
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
func findingKey(f Finding) string {
	var b strings.Builder
	for _, s := range []string{f.Profile, string(f.Robots), f.Agent, f.URL, Signature(f.Verdicts)} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return b.String()
}

// mergedSelection is the selection of the merged documents: the whole
// selection ("1/1") when they are every shard of it, else the shards held
// joined by "+" ("1+2+4/4"); nil when a document records none.
func mergedSelection(docs []*Document) *Selection {
	var out *Selection
	var ks []int
	n := 0
	for _, d := range docs {
		if d.Selection == nil {
			return nil
		}
		if out == nil {
			out = &Selection{Cases: d.Selection.Cases}
		}
		k, sn, ok := parseShard(d.Selection.Shard)
		if !ok {
			return nil
		}
		n = sn
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
			out.ShardCases += d.Selection.ShardCases
		}
	}
	if out == nil {
		return nil
	}
	if whole(ks, n, docs) {
		out.Shard = "1/1"
		return out
	}
	slices.Sort(ks)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = strconv.Itoa(k)
	}
	out.Shard = strings.Join(parts, "+") + "/" + strconv.Itoa(n)
	return out
}

// parseShard reads a selection's "K/N".
func parseShard(s string) (k, n int, ok bool) {
	ks, ns, found := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	return k, n, found && err1 == nil && err2 == nil && n > 0 && k >= 1 && k <= n
}

// whole reports whether the shards ks are every shard 1..n of one
// selection, each document holding a distinct one.
func whole(ks []int, n int, docs []*Document) bool {
	if len(ks) != n || len(docs) != n {
		return false
	}
	cases := docs[0].Selection.Cases
	for _, d := range docs {
		if _, dn, _ := parseShard(d.Selection.Shard); dn != n || d.Selection.Cases != cases {
			return false
		}
	}
	return true
}

// isDiff reports whether d is a differential run's document.
func isDiff(d *Document) bool { return d.Summary != nil && !d.Summary.FindingsOnly }
