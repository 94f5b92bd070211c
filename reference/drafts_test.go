package reference

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// draftName matches a full aipref draft name with its version; draftCite
// matches a short citation ("vocab-07 §6.5", "attach-05 3.2") with the
// section that follows it, if any.
var (
	draftCite = regexp.MustCompile(`\b(draft-[a-z0-9]+-aipref-[a-z]+-[0-9]{2}|attach-[0-9]{2}|vocab-[0-9]{2}|contentsignals-[0-9]{2})\b(?:,? (?:§ ?)?([0-9]+(?:\.[0-9]+)*)\b)?`)
)

// TestDraftCitations reads the project's code, corpus and documentation:
// every aipref draft it names is one of Drafts, and every section it cites
// next to a draft's name is a section of that version.
func TestDraftCitations(t *testing.T) {
	known := map[string]Draft{}
	for _, d := range Drafts() {
		known[d.Name] = d
		known[shortDraft(d.Name)] = d
	}
	root := ".."
	cited := 0
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); n == ".git" || n == "node_modules" || n == "testdata" && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".yaml", ".yml", ".tmpl", ".js", ".py", ".pl", ".rb":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range draftCite.FindAllStringSubmatch(line, -1) {
				cited++
				d, ok := known[m[1]]
				if !ok {
					t.Errorf("%s:%d: %s is not a draft version the code knows (reference.Drafts)", path, i+1, m[1])
					continue
				}
				if m[2] == "" || strings.HasPrefix(m[1], "draft-") && !strings.Contains(m[0], "§") {
					continue
				}
				if !d.Pinned {
					t.Errorf("%s:%d: %s cites a section of %s, which the profile does not follow", path, i+1, m[0], d.Name)
				} else if _, ok := d.Sections[m[2]]; !ok {
					t.Errorf("%s:%d: %s: %s has no section %s", path, i+1, m[0], d.Name, m[2])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Error("no draft cited anywhere: the walk read nothing")
	}
}

// shortDraft returns the short name of a draft ("vocab-07").
func shortDraft(name string) string {
	parts := strings.Split(name, "-")
	return strings.Join(parts[len(parts)-2:], "-")
}

func TestDraftsPinned(t *testing.T) {
	pinned := map[string]bool{}
	for _, d := range Drafts() {
		if d.Pinned {
			pinned[d.Name] = true
			if len(d.Sections) == 0 || d.Source == "" || d.Date == "" {
				t.Errorf("%s: pinned without sections, source or date", d.Name)
			}
		}
	}
	for _, n := range strings.Split(AIPrefDrafts, ", ") {
		if !pinned[n] {
			t.Errorf("AIPrefDrafts names %s, which is not pinned in Drafts", n)
		}
	}
}
