package diagnose

import "slices"

// Merge combines the diagnoses of the shards of one run, parser by
// parser: departures and unexplained departures are added, and so are
// the explains, contradicts and files of a behaviour found in several
// shards; a behaviour found in some shards only keeps what those found.
// The shorter example is kept, alternatives are joined, and a misreading
// is untested when no shard tested it. It is not a new fit: a
// misreading that no shard claimed on its own part of the evidence is
// not claimed on the whole (run unsharded for one fit of all of it).
func Merge(parts ...[]Diagnosis) []Diagnosis {
	out := []Diagnosis{}
	at := map[string]int{}
	untested := map[string]map[string]int{}
	for _, part := range parts {
		for _, d := range part {
			k, ok := at[d.Parser]
			if !ok {
				k = len(out)
				at[d.Parser] = k
				out = append(out, Diagnosis{Parser: d.Parser, Behaviours: []Behaviour{}})
				untested[d.Parser] = map[string]int{}
			}
			o := &out[k]
			o.Departures += d.Departures
			o.Unexplained += d.Unexplained
			for _, id := range d.Untested {
				untested[d.Parser][id]++
			}
			for _, b := range d.Behaviours {
				o.Behaviours = addBehaviour(o.Behaviours, b)
			}
		}
	}
	for k := range out {
		for id, n := range untested[out[k].Parser] {
			if n == len(parts) {
				out[k].Untested = append(out[k].Untested, id)
			}
		}
		slices.Sort(out[k].Untested)
		slices.SortStableFunc(out[k].Behaviours, func(a, b Behaviour) int { return b.Explains - a.Explains })
	}
	return out
}

// addBehaviour adds b to bs, into the behaviour of the same id if any.
func addBehaviour(bs []Behaviour, b Behaviour) []Behaviour {
	i := slices.IndexFunc(bs, func(x Behaviour) bool { return x.ID == b.ID })
	if i < 0 {
		b.Req, b.Alternatives = slices.Clone(b.Req), slices.Clone(b.Alternatives)
		return append(bs, b)
	}
	x := &bs[i]
	x.Explains += b.Explains
	x.Contradicts += b.Contradicts
	x.Files += b.Files
	for _, a := range b.Alternatives {
		if !slices.Contains(x.Alternatives, a) {
			x.Alternatives = append(x.Alternatives, a)
		}
	}
	if b.Example != nil && (x.Example == nil || len(b.Example.Robots) < len(x.Example.Robots)) {
		x.Example = b.Example
	}
	return bs
}
