package corpus

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// yamlFiles lists the *.yaml files of fsys, leaving out names that start
// with '.' or '_' as the case loader does.
func yamlFiles(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			out = append(out, p)
		}
		if ext := strings.ToLower(path.Ext(p)); !d.IsDir() && (ext == ".yml" || ext == ".yaml") && !strings.HasSuffix(p, ".yaml") {
			// The loader reads these from --corpus folders, but the
			// embed pattern takes *.yaml only.
			t.Errorf("%s: name the files of the embedded corpus *.yaml", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestEmbedsEveryFile checks the embed pattern against the directory on
// disk: every YAML file here must be in FS, and nothing else.
func TestEmbedsEveryFile(t *testing.T) {
	disk := yamlFiles(t, os.DirFS("."))
	embedded := yamlFiles(t, FS())
	if diff := cmp.Diff(disk, embedded); diff != "" {
		t.Errorf("the embedded files differ from the YAML files on disk (-disk +embedded); "+
			"case files belong one folder down, corpus/<area>/<name>.yaml:\n%s", diff)
	}
	if !slices.Contains(embedded, RequirementsFile) {
		t.Errorf("%s is not embedded", RequirementsFile)
	}
	if len(embedded) < 2 {
		t.Errorf("FS holds %v; want the requirement table and case files", embedded)
	}
	// Only YAML is embedded: this package's Go files stay out.
	if _, err := fs.Stat(FS(), "corpus.go"); err == nil {
		t.Error("corpus.go is embedded; the pattern should take YAML files only")
	}
}

func TestRequirementsFileReadable(t *testing.T) {
	data, err := fs.ReadFile(FS(), RequirementsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "#") || !strings.Contains(string(data), "\nrequirements:\n") {
		t.Errorf("%s does not start with its header comment and a requirements list", RequirementsFile)
	}
}
