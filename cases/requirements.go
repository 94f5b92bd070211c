package cases

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sync"

	"github.com/reptest/reptest/corpus"
	"github.com/reptest/reptest/result"
	"gopkg.in/yaml.v3"
)

// Coverage returns a copy of reqs with Cases and Checks counted over cs.
func Coverage(reqs []result.Requirement, cs []Case) []result.Requirement {
	ncases, nchecks := map[string]int{}, map[string]int{}
	for i := range cs {
		for _, r := range cs[i].Req {
			ncases[r]++
			nchecks[r] += len(cs[i].AllChecks())
		}
	}
	out := slices.Clone(reqs)
	for i := range out {
		out[i].Cases, out[i].Checks = ncases[out[i].ID], nchecks[out[i].ID]
	}
	return out
}

// embeddedTable parses the embedded table once; callers get copies.
var embeddedTable = sync.OnceValues(func() (result.Table, error) {
	data, err := fs.ReadFile(corpus.FS(), corpus.RequirementsFile)
	if err != nil {
		return result.Table{}, fmt.Errorf("cases: requirement table: %w", err)
	}
	return ParseRequirements(data, "corpus/"+corpus.RequirementsFile)
})

// Requirements returns the requirements of the embedded corpus's table,
// in the order of the file. The error is non-nil only if the table
// compiled into the binary is malformed.
func Requirements() ([]result.Requirement, error) {
	t, err := embeddedTable()
	return slices.Clone(t.Requirements), err
}

// RequirementTable returns the embedded corpus's requirement table, a
// copy that callers pass on as a value. The error is non-nil only if the
// table compiled into the binary is malformed.
func RequirementTable() (result.Table, error) {
	t, err := embeddedTable()
	return result.Table{Areas: slices.Clone(t.Areas), Requirements: slices.Clone(t.Requirements)}, err
}

// Areas returns the areas of the embedded corpus's table, in order.
func Areas() ([]result.Area, error) {
	t, err := embeddedTable()
	return slices.Clone(t.Areas), err
}

var requirementID = regexp.MustCompile(`^[A-Z][A-Z0-9]*-[A-Z0-9][A-Z0-9.]*$`)

// ParseRequirements reads a requirement table in the format of
// corpus/requirements.yaml (docs/FORMAT.md §1.3): a mapping with the key
// "areas" holding a list of {name, title, section} and the key
// "requirements" holding a list of {id, level, section, area, summary},
// all given and non-empty (an area's section may be empty), names and ids
// unique, each requirement's area one of the areas, and the IDs of one
// prefix in one area. name is the file name used in errors, which are
// *LoadError values joined as by errors.Join.
func ParseRequirements(data []byte, name string) (result.Table, error) {
	r := &reader{file: name}
	var t result.Table
	if f := r.documentKeys(data, "areas", "requirements"); f != nil {
		top := f["requirements"].val
		areas := r.areas(f["areas"].val)
		items, _ := r.list(top, "requirements")
		seen := map[string]int{}
		prefixArea := map[string]string{}
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
			prefix := result.IDPrefix(req.ID)
			switch a, ok := prefixArea[prefix]; {
			case areas != nil && !slices.ContainsFunc(areas, func(a result.Area) bool { return a.Name == req.Area }):
				r.errorf(mappingValue(it, "area"), "unknown area %q (the areas are listed under areas:)", req.Area)
			case ok && a != req.Area:
				r.errorf(mappingValue(it, "area"), "area %q, but the other %s-* requirements are in area %q", req.Area, prefix, a)
			default:
				prefixArea[prefix] = req.Area
			}
			t.Requirements = append(t.Requirements, req)
		}
		t.Areas = areas
		if len(items) == 0 && len(r.errs) == 0 {
			r.errorf(top, "the requirement table is empty")
		}
	}
	if len(r.errs) > 0 {
		return result.Table{}, joinErrors(r.errs)
	}
	return t, nil
}

var areaKeys = []string{"name", "title", "section"}

// areas reads the areas list of a requirement table.
func (r *reader) areas(n *yaml.Node) []result.Area {
	items, ok := r.list(n, "areas")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		r.errorf(n, "the requirement table lists no areas")
	}
	var out []result.Area
	for _, it := range items {
		f, ok := r.mapping(it, "an area", areaKeys)
		if !ok || !r.require(it, f, "the area", areaKeys...) {
			continue
		}
		var a result.Area
		a.Name, _ = r.str(f["name"].val, "name")
		a.Title, _ = r.str(f["title"].val, "title")
		a.Section, _ = r.str(f["section"].val, "section")
		switch {
		case a.Name == "" || a.Title == "":
			r.errorf(it, "an area needs a name and a title")
		case slices.ContainsFunc(out, func(b result.Area) bool { return b.Name == a.Name }):
			r.errorf(f["name"].val, "duplicate area %q", a.Name)
		default:
			out = append(out, a)
		}
	}
	return out
}

var requirementKeys = []string{"id", "level", "section", "area", "summary"}

func (r *reader) requirement(n *yaml.Node) (result.Requirement, bool) {
	f, ok := r.mapping(n, "a requirement", append(requirementKeys[:len(requirementKeys):len(requirementKeys)], "quote"))
	if !ok || !r.require(n, f, "the requirement", requirementKeys...) {
		return result.Requirement{}, false
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
		return result.Requirement{}, false
	}
	req := result.Requirement{ID: vals[0], Level: vals[1], Section: vals[2], Area: vals[3], Summary: vals[4]}
	if q, found := f["quote"]; found {
		req.Quote, ok = r.str(q.val, "quote")
	}
	if !requirementID.MatchString(req.ID) {
		r.errorf(f["id"].val, "bad requirement id %q (want letters, '-', then letters, digits or '.', e.g. MATCH-4)", req.ID)
		ok = false
	}
	switch result.Level(req.Level) {
	case result.MUST, result.SHOULD, result.MAY, result.Interpretation, result.LevelGoogle:
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
