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

// Profiles a case can belong to.
const (
	ProfileRFC    = "rfc9309"
	ProfileGoogle = "google"
	// ProfileAIPref is the opt-in profile of the AI-preference drafts
	// (reference.AIPrefDrafts): RFC 9309 with Content-Usage and
	// Content-Signal lines read as rules, and usage preferences checked.
	ProfileAIPref = "aipref"
)

// LevelGoogle is the level of the requirement rows that describe Google's
// documented behaviour rather than RFC 9309 (the G-* IDs). Such a row
// counts as MUST when the case's profile is google (the profile is that
// behaviour) and as interpretation otherwise.
const LevelGoogle = "google"

// LevelFor returns the level r lends to a check of a case of the given
// profile.
func (r Requirement) LevelFor(profile string) Level {
	if r.Level == LevelGoogle {
		if profile == ProfileGoogle {
			return MUST
		}
		return Interpretation
	}
	return Level(r.Level)
}

// Level returns the level requirement id lends to a check of a case of
// the given profile, and whether the table has the requirement.
func (t Table) Level(id, profile string) (Level, bool) {
	for _, r := range t.Requirements {
		if r.ID == id {
			return r.LevelFor(profile), true
		}
	}
	return "", false
}
