package result

import (
	"fmt"
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
	return "result: the documents are not a whole run: " + strings.Join(parts, "; ")
}

// CheckShards reports whether docs are every shard of one selection, each
// once: the same number of shards N and of selected cases, and shards 1 to
// N all present. A single unsharded document ("1/1") is whole. Documents
// that record no selection (written by an older reptest) cannot be checked
// and pass, unless others do record one. The error is a *ShardError.
func CheckShards(docs []*Document) error {
	e := &ShardError{}
	n, want := 0, -1
	seen := map[int]int{} // shard number -> document
	unknown := 0
	for i, d := range docs {
		if d.Selection == nil {
			unknown++
			continue
		}
		k, dn, ok := parseShard(d.Selection.Shard)
		if !ok {
			why := fmt.Sprintf("shard %q: want K/N with 1 ≤ K ≤ N", d.Selection.Shard)
			if d.Selection.Shard == "" {
				why = "no shard recorded"
			}
			e.Problems = append(e.Problems, fmt.Sprintf("document %d: %s", i+1, why))
			continue
		}
		switch {
		case n == 0:
			n, want = dn, d.Selection.Cases
		case dn != n:
			e.Problems = append(e.Problems, fmt.Sprintf("document %d is shard %s of %d shards, not %d", i+1, d.Selection.Shard, dn, n))
			continue
		case d.Selection.Cases != want:
			e.Problems = append(e.Problems, fmt.Sprintf("document %d is from a selection of %d cases, not %d", i+1, d.Selection.Cases, want))
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
	if len(e.Missing) == 0 && len(e.Problems) == 0 && held != want {
		e.Problems = append(e.Problems, fmt.Sprintf("the shards hold %d cases, the selection %d", held, want))
	}
	if len(e.Missing) > 0 || len(e.Problems) > 0 {
		return e
	}
	return nil
}
