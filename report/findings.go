package report

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Finding is one differential finding as diff writes it (CASES.md §4):
// an input on which parsers disagree. The report reads the JSON form and
// does not depend on the diff package's types.
type Finding struct {
	RobotsB64 string            `json:"robots_b64"`
	Agent     string            `json:"agent"`
	URL       string            `json:"url"`
	Verdicts  map[string]string `json:"verdicts"`
	Signature string            `json:"signature"`
	Minimized bool              `json:"minimized,omitempty"`
	Req       []string          `json:"req,omitempty"`
}

// Robots returns the finding's robots.txt body.
func (f *Finding) Robots() ([]byte, error) {
	p, err := base64.StdEncoding.DecodeString(f.RobotsB64)
	if err != nil {
		return nil, fmt.Errorf("report: finding robots_b64: %w", err)
	}
	return p, nil
}

// maxFindingLine bounds one line of a findings file.
const maxFindingLine = 64 << 20

// ReadFindings reads findings as JSON lines (CASES.md §4). Blank lines are
// skipped; a line that is not a finding is an error naming the line.
func ReadFindings(r io.Reader) ([]Finding, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxFindingLine)
	var out []Finding
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var f Finding
		if err := json.Unmarshal(line, &f); err != nil {
			return nil, fmt.Errorf("report: findings line %d: %w", n, err)
		}
		if len(f.Verdicts) == 0 {
			return nil, fmt.Errorf("report: findings line %d: no verdicts", n)
		}
		if _, err := f.Robots(); err != nil {
			return nil, fmt.Errorf("report: findings line %d: %w", n, err)
		}
		out = append(out, f)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("report: findings line %d is longer than %d bytes: %w", n+1, maxFindingLine, err)
		}
		return nil, fmt.Errorf("report: reading findings: %w", err)
	}
	return out, nil
}

// FindingGroup is the findings that share a signature.
type FindingGroup struct {
	Signature string
	Count     int
	// Example is the smallest finding of the group, a minimised one when
	// there is one.
	Example Finding
	// Sides lists each verdict given and the parsers that gave it, in
	// the order of the verdict names.
	Sides []Side
	Req   []string
}

// Side is one verdict and the parsers that gave it.
type Side struct {
	Verdict string
	Parsers []string
}

// GroupFindings groups findings by signature, the largest group first
// (then by signature).
func GroupFindings(fs []Finding) []FindingGroup {
	idx := map[string]int{}
	var gs []FindingGroup
	for _, f := range fs {
		sig := f.Signature
		if sig == "" {
			sig = signatureOf(f.Verdicts)
		}
		i, ok := idx[sig]
		if !ok {
			i = len(gs)
			idx[sig] = i
			gs = append(gs, FindingGroup{Signature: sig, Example: f})
		}
		g := &gs[i]
		g.Count++
		if smaller(f, g.Example) {
			g.Example = f
		}
		for _, r := range f.Req {
			if !slices.Contains(g.Req, r) {
				g.Req = append(g.Req, r)
			}
		}
	}
	for i := range gs {
		gs[i].Sides = sides(gs[i].Example.Verdicts)
		slices.SortFunc(gs[i].Req, compareReq)
	}
	slices.SortStableFunc(gs, func(a, b FindingGroup) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Signature, b.Signature)
	})
	return gs
}

// smaller prefers minimised findings, then shorter ones.
func smaller(a, b Finding) bool {
	if a.Minimized != b.Minimized {
		return a.Minimized
	}
	la, lb := len(a.RobotsB64)+len(a.URL), len(b.RobotsB64)+len(b.URL)
	if la != lb {
		return la < lb
	}
	return a.RobotsB64+a.URL < b.RobotsB64+b.URL
}

// sides groups parsers by verdict.
func sides(verdicts map[string]string) []Side {
	by := map[string][]string{}
	for _, p := range sortedKeys(verdicts) {
		v := verdicts[p]
		by[v] = append(by[v], p)
	}
	var out []Side
	for _, v := range sortedKeys(by) {
		out = append(out, Side{Verdict: v, Parsers: by[v]})
	}
	return out
}

// signatureOf names a disagreement when a finding has no signature: the
// verdict groups joined by "≠".
func signatureOf(verdicts map[string]string) string {
	var parts []string
	for _, s := range sides(verdicts) {
		parts = append(parts, strings.Join(s.Parsers, ","))
	}
	return strings.Join(parts, "≠")
}
