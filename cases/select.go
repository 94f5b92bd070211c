package cases

import (
	"fmt"
	"hash/fnv"
	"path"
	"strconv"
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

// Shard is part K of N of a run (1 ≤ K ≤ N), as in "--shard 2/4"; the
// zero Shard is the whole run. An item is in a shard by the FNV-1a hash
// of its name (a case id, a diff input's name) modulo N, not by its
// position: the shards of 1..N partition any set of items, and an item
// stays in its shard whatever other items are added or removed, so a
// sharded CI job or Kubernetes Indexed Job keeps its part of the work as
// the corpus grows.
type Shard struct{ K, N int }

// ParseShard reads "K/N"; "" is the zero Shard.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	var k, n int
	var err error
	if ok {
		if k, err = strconv.Atoi(a); err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("shard %q: want K/N with 1 ≤ K ≤ N", s)
	}
	return Shard{K: k, N: n}, nil
}

// String returns "K/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Has reports whether the item of the given name is in the shard.
func (s Shard) Has(name string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(s.N)) == s.K-1
}

// Cases returns the cases of cs that are in the shard, in their order.
func (s Shard) Cases(cs []Case) []Case {
	var out []Case
	for _, c := range cs {
		if s.Has(c.ID) {
			out = append(out, c)
		}
	}
	return out
}
