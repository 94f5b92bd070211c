package result

// Requirement is one row of the requirement table
// (corpus/requirements.yaml, docs/FORMAT.md §1.3). Cases name
// requirements by ID. Its JSON form is an element of a results
// document's "requirements" (docs/FORMAT.md §5).
type Requirement struct {
	ID string `json:"id"` // stable ID, e.g. "MATCH-4"
	// Level is MUST, SHOULD, MAY or interpretation, or LevelGoogle for
	// the rows that describe Google's behaviour (G-*).
	Level   string `json:"level"`
	Section string `json:"section"` // RFC 9309 section, e.g. "2.2.2"
	Area    string `json:"area"`    // the Area's name, e.g. "matching"
	Summary string `json:"summary"` // one line
	// Quote is the RFC's sentence holding the keyword a MUST, SHOULD or
	// MAY level rests on; "" for the other levels.
	Quote string `json:"quote,omitempty"`

	// Cases and Checks count the cases, and their checks, that name the
	// requirement in a set of cases (Coverage); zero cases is a hole in
	// the suite. The table itself leaves them zero.
	Cases  int `json:"cases"`
	Checks int `json:"checks,omitempty"`
}

// Area is a part of the suite: a heading of the coverage report and a
// folder of the corpus, named alike (corpus/access/ holds the access
// cases). The requirement table lists the areas in the order reports
// show them; each requirement is in one.
type Area struct {
	Name    string `json:"name"`              // e.g. "access", also the corpus folder
	Title   string `json:"title"`             // e.g. "Access method"
	Section string `json:"section,omitempty"` // RFC 9309 section, "" for the google profile
}

// Table is the requirement table: its areas and requirements, in order.
type Table struct {
	Areas        []Area
	Requirements []Requirement
}
