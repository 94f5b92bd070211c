package result

import "slices"

// Diagnosis is the fitter's account of one parser or crawler: the
// misreadings whose combined variant of the reference explains its
// departures from the reference, and what stays unexplained. Its JSON
// form is an element of the "diagnosis" array of docs/FORMAT.md.
type Diagnosis struct {
	Parser string `json:"parser"`
	// Behaviours are the misreadings found, in the order the fitter
	// chose them (the one explaining most first).
	Behaviours []Behaviour `json:"behaviours"`
	// Departures counts the questions on which the parser's verdict
	// differs from the reference's (and, for crawlers, the requests a
	// crawler-only misreading accounts for).
	Departures int `json:"departures"`
	// Unexplained counts the departures no behaviour explains.
	Unexplained int `json:"unexplained"`
	// Untested lists the misreadings the evidence cannot show for this
	// parser: their variant gives the reference's verdict on every
	// question the parser answered (or, for crawler-only ones, no
	// request could show them).
	Untested []string `json:"untested,omitempty"`
	// NoEvidence marks a parser or crawler that gave no verdict the
	// fitter could compare with the reference's (every check errored or
	// was skipped, no request was made): it is not diagnosed, which is
	// not the same as matching the reference.
	NoEvidence bool `json:"no_evidence,omitempty"`
	// Unfitted counts the files a diff compared but left out of the fit,
	// past its bound on the evidence kept for the diagnosis: their
	// departures are neither counted here nor explained. Zero when the
	// fit read every file.
	Unfitted int `json:"unfitted,omitempty"`
}

// Behaviour is one misreading found in a parser.
type Behaviour struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	RFC   string   `json:"rfc"`
	Req   []string `json:"req"`
	// Explains counts the departures it explains beyond the behaviours
	// before it: questions on which the variant gives the parser's
	// verdict and the reference does not.
	Explains int `json:"explains"`
	// Contradicts counts the questions on which the parser agreed with
	// the reference and the variant, with this misreading added, does
	// not.
	Contradicts int `json:"contradicts"`
	// Files counts the distinct bodies (Body.Source) of what it explains.
	Files int `json:"files"`
	// Alternatives are misreadings that the evidence cannot tell from
	// this one: each explains the same departures with the same
	// contradictions.
	Alternatives []string `json:"alternatives,omitempty"`
	// Example is the shortest evidence of it.
	Example *Example `json:"example,omitempty"`
}

// Example is a short piece of evidence: a body of at most a few lines,
// the question, the parser's verdict and the reference's.
type Example struct {
	Robots    string  `json:"robots"`
	Status    int     `json:"status,omitempty"` // when not 200
	Agent     string  `json:"agent"`
	URL       string  `json:"url"`
	Verdict   Verdict `json:"verdict"`
	Reference Verdict `json:"reference"`
	// Source names the body the example was cut from.
	Source string `json:"source,omitempty"`
	// Note describes crawl evidence in words ("… requested before any
	// robots.txt of its origin").
	Note string `json:"note,omitempty"`
}

// Explained returns the departures the behaviours explain.
func (d *Diagnosis) Explained() int { return d.Departures - d.Unexplained }

// IDs returns the ids of the behaviours found, in order.
func (d *Diagnosis) IDs() []string {
	ids := make([]string, len(d.Behaviours))
	for i, b := range d.Behaviours {
		ids[i] = b.ID
	}
	return ids
}

// MergeDiagnoses combines the diagnoses of the shards of one run, parser by
// parser: departures and unexplained departures are added, and so are
// the explains, contradicts and files of a behaviour found in several
// shards; a behaviour found in some shards only keeps what those found.
// The shorter example is kept, alternatives are joined, and a misreading
// is untested when no shard tested it. A shard in which the parser gave
// no verdict (NoEvidence) adds nothing; the merge is NoEvidence only
// when every shard is. It is not a new fit: a
// misreading that no shard claimed on its own part of the evidence is
// not claimed on the whole (run unsharded for one fit of all of it).
// Merged behaviours are ordered by what they explain; the diagnoses of
// one part keep the fitter's order.
func MergeDiagnoses(parts ...[]Diagnosis) []Diagnosis {
	out := []Diagnosis{}
	at := map[string]int{}
	untested := map[string]map[string]int{}
	withEvidence := map[string]int{} // parts that diagnosed the parser
	for _, part := range parts {
		for _, d := range part {
			k, ok := at[d.Parser]
			if !ok {
				k = len(out)
				at[d.Parser] = k
				out = append(out, Diagnosis{Parser: d.Parser, Behaviours: []Behaviour{}})
				untested[d.Parser] = map[string]int{}
			}
			if d.NoEvidence {
				continue
			}
			withEvidence[d.Parser]++
			o := &out[k]
			o.Departures += d.Departures
			o.Unexplained += d.Unexplained
			o.Unfitted += d.Unfitted
			for _, id := range d.Untested {
				untested[d.Parser][id]++
			}
			for _, b := range d.Behaviours {
				o.Behaviours = addBehaviour(o.Behaviours, b)
			}
		}
	}
	for k := range out {
		out[k].NoEvidence = withEvidence[out[k].Parser] == 0
		for id, n := range untested[out[k].Parser] {
			if n == withEvidence[out[k].Parser] {
				out[k].Untested = append(out[k].Untested, id)
			}
		}
		slices.Sort(out[k].Untested)
		if len(parts) > 1 { // one part keeps the fitter's order
			slices.SortStableFunc(out[k].Behaviours, func(a, b Behaviour) int { return b.Explains - a.Explains })
		}
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

// DepartureUnit names what the departures of d's diagnosis count, from
// what d records: "departures" for a crawl (checks and requests),
// "probes" for a diff (findings or a diff summary, no results), "checks"
// for a run.
func (d *Document) DepartureUnit() string {
	switch {
	case len(d.Crawls) > 0:
		return "departures"
	case len(d.Results) == 0 && (len(d.Findings) > 0 || d.Summary != nil):
		return "probes"
	}
	return "checks"
}
