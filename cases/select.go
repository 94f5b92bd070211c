package cases

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Select returns the cases of the given profile ("" for every profile)
// that match a run pattern and no skip pattern (see Glob). A case matches
// a pattern when its id or any of its requirement IDs does: "access/*"
// selects "access/redirect-302-relative-root", "MATCH-*" selects the cases
// that name MATCH-10. With no run
// patterns every case of the profile is a candidate. The order of cs is
// kept.
func Select(cs []Case, profile string, run, skip []string) []Case {
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
	return out
}

// caseMatches reports whether the id or a requirement of c matches one of
// patterns.
func caseMatches(c *Case, patterns []string) bool {
	for _, g := range patterns {
		if Glob(g, c.ID) {
			return true
		}
		for _, r := range c.Req {
			if Glob(g, r) {
				return true
			}
		}
	}
	return false
}

// Glob reports whether name (a case id or a requirement ID) matches
// pattern, in which "*" matches any run of characters, "/" included, and
// "?" any one character; every other character stands for itself. It is
// the one pattern syntax for case ids: --run and --skip, SuiteOptions.Run
// and Skip, and the cases of an expected-failure file.
func Glob(pattern, name string) bool {
	// Iterative matching with backtracking to the last star: linear in
	// practice, never exponential.
	p, n := 0, 0
	star, mark := -1, 0
	for n < len(name) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, n
			p++
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == name[n]):
			p++
			n++
		case star >= 0:
			p = star + 1
			mark++
			n = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
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

// IndexEnv is the environment variable a Kubernetes Indexed Job sets to
// the index of each of its pods, from 0.
const IndexEnv = "JOB_COMPLETION_INDEX"

// ParseShardEnv reads "K/N" as ParseShard does, and "/N" as shard K of N
// with K one more than the index in $JOB_COMPLETION_INDEX (getenv looks
// it up), so that one pod template serves every pod of an Indexed Job.
func ParseShardEnv(s string, getenv func(string) string) (Shard, error) {
	if n, ok := strings.CutPrefix(s, "/"); ok {
		idx := getenv(IndexEnv)
		if idx == "" {
			return Shard{}, fmt.Errorf("shard %q leaves K to $%s, which is not set", s, IndexEnv)
		}
		i, err := strconv.Atoi(idx)
		if err != nil || i < 0 {
			return Shard{}, fmt.Errorf("$%s is %q, not an index", IndexEnv, idx)
		}
		s = strconv.Itoa(i+1) + "/" + n
	}
	return ParseShard(s)
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
