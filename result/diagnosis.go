package result

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
	Robots    string        `json:"robots"`
	Status    int           `json:"status,omitempty"` // when not 200
	Agent     string        `json:"agent"`
	URL       string        `json:"url"`
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
