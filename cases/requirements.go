package cases

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sync"

	"github.com/reptest/reptest/corpus"
	"gopkg.in/yaml.v3"
)

// Requirement is one row of the requirement table (corpus/requirements.yaml,
// mirroring REQUIREMENTS.md). Cases name requirements by ID.
type Requirement struct {
	ID string // stable ID, e.g. "MATCH-4"
	// Level is MUST, SHOULD, MAY or interpretation, or LevelGoogle for
	// the rows that describe Google's behaviour (G-*).
	Level   string
	Section string // RFC 9309 section, e.g. "2.2.2"
	Area    string // part of the suite, e.g. "matching"
	Summary string // one line
}

// LevelGoogle is the level of the requirement rows that describe Google's
// documented behaviour rather than RFC 9309 (the G-* IDs). A case default
// level counts such a row as MUST when the case's profile is google (the
// profile is that behaviour) and as interpretation otherwise.
const LevelGoogle = "google"

// levelFor returns the level a requirement lends to a case of the given
// profile.
func (r Requirement) levelFor(profile string) Level {
	if r.Level == LevelGoogle {
		if profile == ProfileGoogle {
			return MUST
		}
		return Interpretation
	}
	return Level(r.Level)
}

// embeddedRequirements parses the embedded table once; callers get copies.
var embeddedRequirements = sync.OnceValues(func() ([]Requirement, error) {
	data, err := fs.ReadFile(corpus.FS(), corpus.RequirementsFile)
	if err != nil {
		return nil, fmt.Errorf("cases: requirement table: %w", err)
	}
	return ParseRequirements(data, "corpus/"+corpus.RequirementsFile)
})

// Requirements returns the requirement table of the embedded corpus, in
// the order of the file. The error is non-nil only if the table compiled
// into the binary is malformed.
func Requirements() ([]Requirement, error) {
	reqs, err := embeddedRequirements()
	return slices.Clone(reqs), err
}

var requirementID = regexp.MustCompile(`^[A-Z][A-Z0-9]*-[A-Z0-9][A-Z0-9.]*$`)

// ParseRequirements reads a requirement table in the format of
// corpus/requirements.yaml: a mapping with the key "requirements" holding a
// list of {id, level, section, area, summary}, all five given and
// non-empty, ids unique. name is the file name used in errors, which are
// *LoadError values joined as by errors.Join.
func ParseRequirements(data []byte, name string) ([]Requirement, error) {
	r := &reader{file: name}
	var out []Requirement
	if top := r.document(data, "requirements"); top != nil {
		items, _ := r.list(top, "requirements")
		seen := map[string]int{}
		for _, it := range items {
			req, ok := r.requirement(it)
			if !ok {
				continue
			}
			if line, dup := seen[req.ID]; dup {
				r.errorf(it, "duplicate requirement %s (first at line %d)", req.ID, line)
				continue
			}
			seen[req.ID] = it.Line
			out = append(out, req)
		}
		if len(items) == 0 && len(r.errs) == 0 {
			r.errorf(top, "the requirement table is empty")
		}
	}
	if len(r.errs) > 0 {
		return nil, joinErrors(r.errs)
	}
	return out, nil
}

var requirementKeys = []string{"id", "level", "section", "area", "summary"}

func (r *reader) requirement(n *yaml.Node) (Requirement, bool) {
	f, ok := r.mapping(n, "a requirement", requirementKeys)
	if !ok || !r.require(n, f, "the requirement", requirementKeys...) {
		return Requirement{}, false
	}
	var vals [5]string
	for i, k := range requirementKeys {
		s, good := r.str(f[k].val, k)
		if good && s == "" {
			r.errorf(f[k].val, "%s is empty", k)
			good = false
		}
		ok = ok && good
		vals[i] = s
	}
	if !ok {
		return Requirement{}, false
	}
	req := Requirement{ID: vals[0], Level: vals[1], Section: vals[2], Area: vals[3], Summary: vals[4]}
	if !requirementID.MatchString(req.ID) {
		r.errorf(f["id"].val, "bad requirement id %q (want letters, '-', then letters, digits or '.', e.g. MATCH-4)", req.ID)
		ok = false
	}
	switch Level(req.Level) {
	case MUST, SHOULD, MAY, Interpretation, LevelGoogle:
	default:
		r.errorf(f["level"].val, "bad level %q (want MUST, SHOULD, MAY, interpretation or google)", req.Level)
		ok = false
	}
	return req, ok
}

// joinErrors sorts load errors by position and joins them.
func joinErrors(list []*LoadError) error {
	slices.SortStableFunc(list, compareLoadErrors)
	errs := make([]error, len(list))
	for i, e := range list {
		errs[i] = e
	}
	return errors.Join(errs...)
}
