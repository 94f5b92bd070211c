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
	out := &Document{Tool: Tool, Version: docs[0].Version, Profile: docs[0].Profile, Strict: docs[0].Strict, Drafts: docs[0].Drafts}
	var conflicts []string
	conflict := func(format string, args ...any) { conflicts = append(conflicts, fmt.Sprintf(format, args...)) }

	versions := map[string]string{}
	results := map[resultKey]int{}
	reqs := map[string]int{}
	findings := map[string]bool{}
	for i, d := range docs {
		if d.Tool != Tool {
			return nil, fmt.Errorf("report: document %d is not a %s results document", i+1, Tool)
		}
		if d.Profile != out.Profile {
			conflict("profile %q in document 1, %q in document %d", out.Profile, d.Profile, i+1)
		}
		if d.Strict != out.Strict {
			conflict("document %d differs in --strict", i+1)
		}
		if d.Version != out.Version {
			conflict("reptest version %q in document 1, %q in document %d", out.Version, d.Version, i+1)
		}
		for _, p := range d.Parsers {
			v, seen := versions[p.Name]
			switch {
			case !seen:
				versions[p.Name] = p.Version
				out.Parsers = append(out.Parsers, cases.Summary{Name: p.Name, Version: p.Version, Runtime: p.Runtime})
			case v != p.Version:
				conflict("parser %q has version %q and %q (document %d)", p.Name, v, p.Version, i+1)
			}
		}
		for _, r := range d.Results {
			k := keyOf(r)
			if j, ok := results[k]; ok {
				if !reflect.DeepEqual(out.Results[j], r) {
					conflict("parser %q, case %q, check %d: %s in one shard, %s in document %d",
						r.Parser, r.Case, r.Check, out.Results[j].Outcome, r.Outcome, i+1)
				}
				continue
			}
			results[k] = len(out.Results)
			out.Results = append(out.Results, r)
		}
		for id, c := range d.Cases {
			if out.Cases == nil {
				out.Cases = map[string]*CaseInfo{}
			}
			if prev, ok := out.Cases[id]; ok {
				if !reflect.DeepEqual(prev, c) {
					conflict("case %q is described differently in document %d", id, i+1)
				}
				continue
			}
			out.Cases[id] = c
		}
		for _, rq := range d.Requirements {
			if j, ok := reqs[rq.ID]; ok {
				if out.Requirements[j] != rq {
					conflict("requirement %q differs in document %d", rq.ID, i+1)
				}
				continue
			}
			reqs[rq.ID] = len(out.Requirements)
			out.Requirements = append(out.Requirements, rq)
		}
		for _, f := range d.Findings {
			k := findingKey(f)
			if findings[k] {
				continue
			}
			findings[k] = true
			out.Findings = append(out.Findings, f)
		}
	}
	if len(conflicts) > 0 {
		return nil, &ConflictError{Conflicts: conflicts}
	}
	out.Selection = mergedSelection(docs)
	out.Interrupted, out.InterruptReason = mergedInterruption(docs)
	slices.SortFunc(out.Requirements, func(a, b cases.Requirement) int { return compareReq(a.ID, b.ID) })
	out.sortResults()
	out.Recount()
	return out, nil
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
