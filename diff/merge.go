package diff

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diagnose"
)

// ReportKind marks the JSON form of a Report, so that a reader can tell
// it from other reptest documents.
const ReportKind = "reptest-diff"

// RunInfo describes a differential run: what was compared, how, and by which
// command. A report's JSON form records it (WriteReport) and the page of
// the run shows it in its header. Empty fields were not recorded.
type RunInfo struct {
	// Command is the command line that made the run; for a merged run,
	// the command that merged it.
	Command string `json:"command,omitempty"`
	// Date is when the run ended, as text (RFC 3339).
	Date string `json:"date,omitempty"`
	// Profile is the profile of the inputs.
	Profile string `json:"profile,omitempty"`
	// Inputs describes each input set in a few words ("DIR: 412 files").
	Inputs []string `json:"inputs,omitempty"`
	// Parsers are the compared parsers, in order, with their versions and
	// runtimes.
	Parsers []cases.Info `json:"parsers,omitempty"`
	// Shards holds, for a merged run, the command of each merged report
	// that recorded one, in the order merged.
	Shards []string `json:"shards,omitempty"`
	// Merged is how many reports a merged run was made from, and
	// Unrecorded how many of them recorded no run (reports written before
	// reptest recorded it).
	Merged     int `json:"merged,omitempty"`
	Unrecorded int `json:"unrecorded,omitempty"`
	// Summary is the run's summary, for the page; a report holds it
	// beside the run. Without one (findings read from a file) the page
	// counts disagreements from the findings alone and shows no shares.
	Summary *Summary `json:"-"`
}

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
		s.Responses += ps.Responses
		s.Duplicates += ps.Duplicates
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
				g.Duplicates += f.Duplicates
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
	ds := make([][]diagnose.Diagnosis, len(parts))
	for n, part := range parts {
		ds[n] = part.Diagnosis
	}
	out.Diagnosis = diagnose.Merge(ds...)
	out.Run = mergeRuns(parts)
	return out, nil
}

// mergeRuns describes the run of merged reports: each report's command
// kept, the inputs each once, every version of a parser the reports
// recorded listed, the latest date. The caller sets Command.
func mergeRuns(parts []*Report) *RunInfo {
	out := &RunInfo{}
	for _, part := range parts {
		r := part.Run
		if r == nil {
			out.Merged++
			out.Unrecorded++
			continue
		}
		out.Merged += max(r.Merged, 1)
		out.Unrecorded += r.Unrecorded
		if len(r.Shards) > 0 {
			out.Shards = append(out.Shards, r.Shards...)
		} else if r.Command != "" {
			out.Shards = append(out.Shards, r.Command)
		}
		out.Date = max(out.Date, r.Date) // RFC 3339 in UTC sorts by time
		out.Profile = joinDistinct(out.Profile, r.Profile)
		for _, in := range r.Inputs {
			if !slices.Contains(out.Inputs, in) {
				out.Inputs = append(out.Inputs, in)
			}
		}
		out.Parsers = mergeInfos(out.Parsers, r.Parsers)
	}
	return out
}

// mergeInfos adds the parsers of one report to those of others: a parser
// recorded with another version or runtime lists each ("1.2, 1.3").
func mergeInfos(have, add []cases.Info) []cases.Info {
	for _, p := range add {
		at := slices.IndexFunc(have, func(q cases.Info) bool { return q.Name == p.Name })
		if at < 0 {
			have = append(have, p)
			continue
		}
		q := &have[at]
		q.Version = joinDistinct(q.Version, p.Version)
		q.Runtime = joinDistinct(q.Runtime, p.Runtime)
	}
	return have
}

// joinDistinct adds b to the comma-separated list a unless it holds it.
func joinDistinct(a, b string) string {
	switch {
	case b == "" || slices.Contains(strings.Split(a, ", "), b):
		return a
	case a == "":
		return b
	}
	return a + ", " + b
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
