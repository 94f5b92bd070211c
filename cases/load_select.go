package cases

import (
	"fmt"
	"hash/fnv"
	"path"
	"strings"
)

// Select returns the cases of the given profile ("" for every profile)
// that match the run globs and none of the skip globs. A case matches a
// glob when its id or any of its requirement IDs does. With no run globs
// every case of the profile is a candidate.
//
// Globs have the syntax of path.Match; in addition a "*" at the end of a
// glob also matches across '/', so "http/*" selects "http/redirect/five"
// and "MATCH-*" selects "MATCH-10". Matching is case-sensitive. A
// malformed glob is an error. The order of cs is kept.
func Select(cs []Case, profile string, run, skip []string) ([]Case, error) {
	for _, g := range append(append([]string(nil), run...), skip...) {
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("cases: bad glob %q: %w", g, err)
		}
	}
	var out []Case
	for _, c := range cs {
		if profile != "" && c.Profile != profile {
			continue
		}
		if len(run) > 0 && !caseMatches(&c, run) {
			continue
		}
		if caseMatches(&c, skip) {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// caseMatches reports whether the id or a requirement of c matches one of
// globs.
func caseMatches(c *Case, globs []string) bool {
	for _, g := range globs {
		if globMatch(g, c.ID) {
			return true
		}
		for _, r := range c.Req {
			if globMatch(g, r) {
				return true
			}
		}
	}
	return false
}

// globMatch is path.Match, except that a trailing unescaped "*" also
// matches across '/': then the glob without it need only match a prefix of
// s. The glob is known to be well formed.
func globMatch(glob, s string) bool {
	if ok, _ := path.Match(glob, s); ok {
		return true
	}
	if !trailingStar(glob) {
		return false
	}
	head := glob[:len(glob)-1]
	for i := 0; i <= len(s); i++ {
		if ok, _ := path.Match(head, s[:i]); ok {
			return true
		}
	}
	return false
}

// trailingStar reports whether glob ends in a "*" that is not escaped by a
// backslash.
func trailingStar(glob string) bool {
	if !strings.HasSuffix(glob, "*") {
		return false
	}
	n := 0
	for i := len(glob) - 2; i >= 0 && glob[i] == '\\'; i-- {
		n++
	}
	return n%2 == 0
}

// Shard returns shard k of n (k from 1 to n, as in "--shard 2/4"): the
// cases whose id hashes (FNV-1a) to k-1 modulo n, in their order. The
// shards of 1..n partition cs, and a case stays in its shard whatever
// other cases are added or removed.
func Shard(cs []Case, k, n int) ([]Case, error) {
	if n < 1 || k < 1 || k > n {
		return nil, fmt.Errorf("cases: bad shard %d/%d (want 1 <= k <= n)", k, n)
	}
	var out []Case
	for _, c := range cs {
		h := fnv.New32a()
		h.Write([]byte(c.ID))
		if int(h.Sum32()%uint32(n)) == k-1 {
			out = append(out, c)
		}
	}
	return out, nil
}
