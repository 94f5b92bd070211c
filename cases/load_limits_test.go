package cases

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

// Forty 64 MiB bodies asked for by a small file are an error at the body
// that goes over the corpus's budget, before anything is generated beyond
// it (the file would otherwise take 2.5 GiB to load).
func TestLoadGeneratedBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("cases:\n")
	for i := range 40 {
		fmt.Fprintf(&b, "  - id: big/%d\n    req: [LIM-1]\n    robots_generate: {repeat: \"# x\\n\", until_bytes: %d}\n    checks:\n      - {agent: FooBot, url: /, expect: allow}\n", i, maxRobotsGenerate)
	}
	_, err := Load(fstest.MapFS{"big.yaml": {Data: []byte(b.String())}}, "corpus")
	if err == nil {
		t.Fatal("Load accepted 40 bodies of 64 MiB")
	}
	// The fifth body would take the total past 256 MiB: its position.
	line := 2 + 4*5 + 2
	want := fmt.Sprintf("corpus/big.yaml:%d:22: robots_generate: the corpus's generated bodies would exceed 256 MiB", line)
	if got := err.Error(); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 0 {
		t.Errorf("error:\n%s\nwant one line starting %q", got, want)
	}
}

// A FIFO named *.yaml is skipped with a warning rather than opened, which
// would block until a writer came.
func TestLoadSkipsNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "good.yaml"), []byte(caseText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	src, err := DirSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	cs, err := Loader{Warn: func(e *LoadError) { warnings = append(warnings, e.Error()) }}.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 {
		t.Errorf("loaded %d cases, want the 1 of good.yaml", len(cs))
	}
	want := []string{dir + "/pipe.yaml: skipped: not a regular file (a named pipe)"}
	if fmt.Sprint(warnings) != fmt.Sprint(want) {
		t.Errorf("warnings %q, want %q", warnings, want)
	}
}

// A file whose name is not UTF-8 (io/fs cannot open it) is a load error
// that says so, not "invalid argument".
func TestLoadNonUTF8FileName(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad\xff.yaml"), []byte(caseText), 0o644); err != nil {
		t.Skip("no such file name here:", err)
	}
	src, err := DirSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Loader{}.Load(src)
	if err == nil || !strings.Contains(err.Error(), "not valid UTF-8") || !strings.Contains(err.Error(), `bad\xff.yaml`) {
		t.Errorf("Load: %v; want an error naming the escaped file and saying its name is not UTF-8", err)
	}
}

// Load errors escape what would drive a terminal, and only that: a
// message quoting a value with %q keeps its one level of backslashes.
func TestLoadErrorShown(t *testing.T) {
	for _, tt := range []struct {
		e    LoadError
		want string
	}{
		{LoadError{File: "a.yaml", Line: 1, Col: 2, Msg: `unknown key "a\tb"`}, `a.yaml:1:2: unknown key "a\tb"`},
		{LoadError{File: "bad\xff\x1b[2J.yaml", Msg: "no case files"}, `bad\xff\x1b[2J.yaml: no case files`},
		{LoadError{File: "a.yaml", Line: 3, Col: 1, Msg: "YAML syntax: \u202eevil"}, `a.yaml:3:1: YAML syntax: \u202eevil`},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
