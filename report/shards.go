package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ShardError says why a set of documents is not every shard of one run.
type ShardError struct {
	// Missing lists the shards ("3/4") that no document holds.
	Missing []string
	// Problems lists the other reasons: a shard given twice, shards of
	// different runs, a document that does not record its shard.
	Problems []string
}

// Error names the missing shards and the problems.
func (e *ShardError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		noun := "shard"
		if len(e.Missing) > 1 {
			noun = "shards"
		}
		parts = append(parts, "missing "+noun+" "+strings.Join(e.Missing, ", "))
	}
	parts = append(parts, e.Problems...)
	return "report: the documents are not a whole run: " + strings.Join(parts, "; ")
}

// ParseShard reads "K/N" (1 ≤ K ≤ N).
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("shard %q: want K/N with 1 ≤ K ≤ N", s)
	}
	return k, n, nil
}

// CheckShards reports whether docs are every shard of one selection, each
// once: the same number of shards N and of selected cases, and shards 1 to
// N all present. A single unsharded document ("1/1") is whole. Documents
// that record no selection (written by an older reptest) cannot be checked
// and pass, unless others do record one. The error is a *ShardError.
func CheckShards(docs []*Document) error {
	e := &ShardError{}
	n, cases := 0, -1
	seen := map[int]int{} // shard number -> document
	unknown := 0
	for i, d := range docs {
		if d.Selection == nil {
			unknown++
			continue
		}
		k, dn, err := ParseShard(d.Selection.Shard)
		if err != nil {
			e.Problems = append(e.Problems, fmt.Sprintf("document %d: %v", i+1, err))
			continue
		}
		switch {
		case n == 0:
			n, cases = dn, d.Selection.Cases
		case dn != n:
			e.Problems = append(e.Problems, fmt.Sprintf("document %d is shard %s of %d shards, not %d", i+1, d.Selection.Shard, dn, n))
			continue
		case d.Selection.Cases != cases:
			e.Problems = append(e.Problems, fmt.Sprintf("document %d is from a selection of %d cases, not %d", i+1, d.Selection.Cases, cases))
			continue
		}
		if j, dup := seen[k]; dup {
			e.Problems = append(e.Problems, fmt.Sprintf("shard %d/%d is given twice (documents %d and %d)", k, n, j+1, i+1))
			continue
		}
		seen[k] = i
	}
	if unknown == len(docs) {
		return nil
	}
	if unknown > 0 {
		e.Problems = append(e.Problems, fmt.Sprintf("%d of %d documents do not record their shard", unknown, len(docs)))
	}
	held := 0
	for k := 1; k <= n; k++ {
		if i, ok := seen[k]; ok {
			held += docs[i].Selection.ShardCases
		} else {
			e.Missing = append(e.Missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(e.Missing) == 0 && len(e.Problems) == 0 && held != cases {
		e.Problems = append(e.Problems, fmt.Sprintf("the shards hold %d cases, the selection %d", held, cases))
	}
	if len(e.Missing) > 0 || len(e.Problems) > 0 {
		return e
	}
	return nil
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
		k, dn, err := ParseShard(d.Selection.Shard)
		if err != nil {
			return nil
		}
		n = dn
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
			out.ShardCases += d.Selection.ShardCases
		}
	}
	if out == nil {
		return nil
	}
	if CheckShards(docs) == nil {
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
