package diff

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// ReportKind marks the JSON form of a Report, so that a reader can tell
// it from other reptest documents.
const ReportKind = "reptest-diff"

// Merge combines the reports of the shards of one run (the same parsers,
// in the same order) into the report of the whole run: the counts are
// added, findings on the same input are one finding (their probes added,
// their sources joined), and the groups are made again. The result is in
// a canonical order, findings and their sources sorted, so that merging
// the shards of a run gives what merging the unsharded report alone
// gives.
func Merge(parts ...*Report) (*Report, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("diff: nothing to merge")
	}
	out := &Report{Kind: ReportKind}
	s := &out.Summary
	s.Parsers = parts[0].Summary.Parsers
	for _, p := range parts[0].Summary.Pairs {
		s.Pairs = append(s.Pairs, PairStat{A: p.A, B: p.B})
	}
	byInput := make(map[string]int)
	for n, part := range parts {
		ps := &part.Summary
		if !slices.Equal(ps.Parsers, s.Parsers) {
			return nil, fmt.Errorf("diff: report %d compares %v, report 1 %v", n+1, ps.Parsers, s.Parsers)
		}
		s.Files += ps.Files
		s.Probes += ps.Probes
		s.Disagreements += ps.Disagreements
		s.FilesWithDisagreements += ps.FilesWithDisagreements
		for k, p := range ps.Pairs {
			q := &s.Pairs[k]
			q.Probes += p.Probes
			q.ProbeDisagreements += p.ProbeDisagreements
			q.Files += p.Files
			q.FileDisagreements += p.FileDisagreements
		}
		s.Areas = addAreas(s.Areas, ps.Areas)
		for _, f := range part.Findings {
			id := inputID(&f.Input)
			if at, ok := byInput[id]; ok {
				g := &out.Findings[at]
				g.Probes += f.Probes
				g.Sources = append(g.Sources, f.Sources...)
				for _, name := range f.Sources {
					g.mergeLines(name, f.SourceLines[name])
				}
				continue
			}
			byInput[id] = len(out.Findings)
			f.Sources = slices.Clone(f.Sources)
			f.SourceLines = maps.Clone(f.SourceLines)
			out.Findings = append(out.Findings, f)
		}
	}
	for k := range s.Pairs {
		s.Pairs[k].share()
	}
	for k := range out.Findings {
		f := &out.Findings[k]
		slices.Sort(f.Sources)
		f.Sources = slices.Compact(f.Sources)
	}
	slices.SortFunc(out.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(first(a.Sources), first(b.Sources)), strings.Compare(inputID(&a.Input), inputID(&b.Input)))
	})
	s.Groups = GroupFindings(out.Findings)
	s.Findings = len(out.Findings)
	return out, nil
}

// inputID identifies a finding's input: two findings with the same one
// are the same finding.
func inputID(in *Input) string {
	return in.Profile + "\x00" + in.Agent + "\x00" + in.URL + "\x00" + string(in.Robots)
}

func first(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}

// WriteReport writes rep as one JSON document.
func WriteReport(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	r := *rep
	r.Kind = ReportKind
	return enc.Encode(&r)
}

// ReadReport reads a report WriteReport wrote; name is used in errors.
func ReadReport(r io.Reader, name string) (*Report, error) {
	var rep Report
	dec := json.NewDecoder(r)
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("diff: %s: %w", name, err)
	}
	if rep.Kind != ReportKind {
		return nil, fmt.Errorf("diff: %s: not a differential report (kind %q, want %q)", name, rep.Kind, ReportKind)
	}
	return &rep, nil
}
