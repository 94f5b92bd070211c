package cases

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/reptest/reptest/corpus"
	"github.com/reptest/reptest/result"
	"github.com/reptest/reptest/visible"
	"gopkg.in/yaml.v3"
)

// LoadError is one problem found while loading case files. Load returns
// all of them, sorted by position and joined with errors.Join; use
// errors.As on the joined error's Unwrap() []error to inspect them.
type LoadError struct {
	File      string // the file as named in messages, e.g. "corpus/matching/longest.yaml"
	Line, Col int    // 1-based; 0 when the problem concerns the file as a whole
	Msg       string // one line
}

// Error returns "file:line:col: msg", or "file: msg" without a position.
// A file name or message holding control, format or non-UTF-8 bytes is
// written with them escaped (package visible): errors go to terminals,
// and a hostile corpus must not drive them.
func (e *LoadError) Error() string {
	if e.Line == 0 {
		return shown(e.File) + ": " + shown(e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", shown(e.File), e.Line, e.Col, shown(e.Msg))
}

// shown returns s as it is when a terminal shows it faithfully, else
// escaped (package visible). Backslashes alone do not count, so that
// messages quoting values with %q are not escaped twice.
func shown(s string) string {
	for _, r := range visible.Runs(s, false) {
		if r.Escaped && r.Text != `\\` {
			return visible.String(s)
		}
	}
	return s
}

func compareLoadErrors(a, b *LoadError) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Col, b.Col),
		cmp.Compare(a.Msg, b.Msg),
	)
}

// Source is a tree of case files.
type Source struct {
	FS fs.FS
	// Name is put before file paths in Source fields and in errors: "corpus"
	// for the embedded corpus, the directory as given for --corpus.
	Name string
}

// maxFileSize bounds one case file; bodies larger than this are meant to
// be generated (robots_generate, body_generate).
const maxFileSize = 16 << 20

// Load reads the case files of fsys: every file ending in .yaml or .yml
// (in any case) at any depth, except requirements.yaml at the root, and
// except files and folders whose names start with '.' or '_' (as go:embed
// leaves them out: drafts and hidden files). name is put before file paths
// in messages and Source fields.
//
// Cases come back in file order (paths sorted), then in order within each
// file. On any problem Load returns no cases and every problem it found, in
// every file, each a *LoadError, sorted and joined with errors.Join.
func Load(fsys fs.FS, name string) ([]Case, error) {
	return LoadSources(Source{FS: fsys, Name: name})
}

// LoadEmbedded reads the corpus compiled into the binary, naming its files
// "corpus/...".
func LoadEmbedded() ([]Case, error) {
	return LoadSources(EmbeddedSource())
}

// EmbeddedSource is the corpus compiled into the binary, its files named
// "corpus/...".
func EmbeddedSource() Source {
	return Source{FS: corpus.FS(), Name: "corpus"}
}

// DirSource is the folder dir on disk (a --corpus flag), its files named
// by the folder as given.
func DirSource(dir string) (Source, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return Source{}, fmt.Errorf("corpus directory: %w", err)
	}
	if !fi.IsDir() {
		return Source{}, fmt.Errorf("corpus %s: not a directory", dir)
	}
	return Source{FS: os.DirFS(dir), Name: dir}, nil
}

// LoadDirs reads the case files of several directories on disk (the
// --corpus flags), naming files by the directory as given.
func LoadDirs(dirs ...string) ([]Case, error) {
	srcs := make([]Source, 0, len(dirs))
	for _, d := range dirs {
		src, err := DirSource(d)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, src)
	}
	return LoadSources(srcs...)
}

// LoadSources reads the case files of every source, as Load does for one.
// Case ids must be unique across all sources; a repeated id is reported at
// its later occurrence, naming the first. Requirement IDs are checked
// against the embedded requirement table (RequirementTable); a Loader
// takes another.
func LoadSources(srcs ...Source) ([]Case, error) {
	return Loader{}.Load(srcs...)
}

// Loader reads case files, as LoadSources does, and says what it skipped.
// The zero value is usable.
type Loader struct {
	// Warn, when set, is called for each problem that does not stop the
	// load: a file named *.yaml that is not a regular file (a FIFO, a
	// device) is skipped, since reading it could block for ever.
	Warn func(*LoadError)
	// Table is the requirement table that case files' requirement IDs and
	// levels are checked against; when it holds no requirements, the
	// embedded table (RequirementTable).
	Table result.Table
}

// Load reads the case files of every source (see LoadSources).
func (ld Loader) Load(srcs ...Source) ([]Case, error) {
	reqList := ld.Table.Requirements
	if len(reqList) == 0 {
		var err error
		if reqList, err = Requirements(); err != nil {
			return nil, err
		}
	}
	reqs := make(map[string]result.Requirement, len(reqList))
	for _, r := range reqList {
		reqs[r.ID] = r
	}
	l := &loader{reqs: reqs, ids: map[string]string{}, warn: ld.Warn}
	for _, src := range srcs {
		l.source(src)
	}
	if len(l.errs) > 0 {
		return nil, joinErrors(l.errs)
	}
	l.generateAll()
	return l.cases, nil
}

// loader holds the state of one Loader.Load call.
type loader struct {
	reqs  map[string]result.Requirement
	ids   map[string]string // case id -> where it was first defined
	cases []Case
	errs  []*LoadError
	warn  func(*LoadError)
	// generated counts the bytes of the robots_generate bodies asked for
	// so far, which are held in memory: see maxGenerated. The bodies are
	// made once the whole load has succeeded (gens), so that a load that
	// fails costs none of them.
	generated  int
	overBudget bool
	gen        *Generator         // the body of the case being parsed
	gens       map[int]*Generator // index in cases -> its body
}

// maxGenerated bounds the robots_generate bodies of one load together, so
// that a small file asking for many large bodies is an error at the body
// that goes over, not an exhausted memory. body_generate bodies are
// streamed and do not count.
const maxGenerated = 256 << 20

// generate takes note of a robots_generate body, to be made when the load
// has succeeded, unless the load's bodies would then hold more than
// maxGenerated bytes: that is an error at n. It returns nil: the body is
// set by generateAll.
func (l *loader) generate(r *reader, n *yaml.Node, g *Generator) []byte {
	size := g.UntilBytes + len(g.Suffix)
	if l.overBudget {
		return nil
	}
	if l.generated+size > maxGenerated {
		l.overBudget = true // once: the later bodies would repeat it
		r.errorf(n, "robots_generate: the corpus's generated bodies would exceed %d MiB (%d MiB before this one); generate fewer or smaller bodies", maxGenerated>>20, l.generated>>20)
		return nil
	}
	l.generated += size
	l.gen = g
	return nil
}

// generateAll makes the robots_generate bodies of the loaded cases.
func (l *loader) generateAll() {
	for i, g := range l.gens {
		l.cases[i].Robots = g.Bytes()
	}
}

// source reads every case file of one source.
func (l *loader) source(src Source) {
	display := func(p string) string {
		if src.Name == "" {
			return p
		}
		return path.Join(src.Name, p)
	}
	var files []string
	err := fs.WalkDir(src.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			l.errs = append(l.errs, &LoadError{File: display(p), Msg: err.Error()})
			return nil
		}
		name := d.Name()
		if !utf8.ValidString(name) {
			// io/fs paths are UTF-8: such a file cannot be opened by its
			// name here, so say why instead of "invalid argument".
			l.errs = append(l.errs, &LoadError{File: display(p), Msg: "the file name is not valid UTF-8; rename it"})
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		ext := strings.ToLower(path.Ext(name))
		if p == corpus.RequirementsFile || (ext != ".yaml" && ext != ".yml") {
			return nil
		}
		// Opening a FIFO blocks until a writer comes; a device may never
		// end. Stat follows a symbolic link to what it names.
		if fi, err := fs.Stat(src.FS, p); err != nil {
			l.errs = append(l.errs, &LoadError{File: display(p), Msg: err.Error()})
		} else if !fi.Mode().IsRegular() {
			if l.warn != nil {
				l.warn(&LoadError{File: display(p), Msg: fmt.Sprintf("skipped: not a regular file (%s)", fileKind(fi.Mode()))})
			}
		} else {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		l.errs = append(l.errs, &LoadError{File: display("."), Msg: err.Error()})
		return
	}
	if len(files) == 0 {
		l.errs = append(l.errs, &LoadError{File: display("."), Msg: "no case files (*.yaml) found"})
		return
	}
	for _, p := range files {
		data, err := readFile(src.FS, p)
		if err != nil {
			l.errs = append(l.errs, &LoadError{File: display(p), Msg: err.Error()})
			continue
		}
		l.file(display(p), data)
	}
}

// fileKind names the kind of a file that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// readFile reads a case file, refusing files over maxFileSize.
func readFile(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("file larger than %d MiB; generate large bodies with robots_generate or body_generate", maxFileSize>>20)
	}
	return data, nil
}

// file parses one case file and appends its cases and errors.
func (l *loader) file(name string, data []byte) {
	r := &reader{file: name}
	defer func() { l.errs = append(l.errs, r.errs...) }()
	top := r.document(data, "cases")
	if top == nil {
		return
	}
	items, ok := r.list(top, "cases")
	if !ok {
		return
	}
	if len(items) == 0 {
		r.errorf(top, "the file has no cases")
		return
	}
	for _, it := range items {
		l.gen = nil
		c, ok := l.parseCase(r, it)
		if !ok {
			continue
		}
		if l.gen != nil {
			if l.gens == nil {
				l.gens = map[int]*Generator{}
			}
			l.gens[len(l.cases)] = l.gen
		}
		l.cases = append(l.cases, c)
	}
}

// document parses data as one YAML document holding a mapping with the
// single key key, and returns that key's value; nil after recording an
// error.
func (r *reader) document(data []byte, key string) *yaml.Node {
	f := r.documentKeys(data, key)
	if f == nil {
		return nil
	}
	return f[key].val
}

// documentKeys parses data as one YAML document holding a mapping with
// the given keys, all of them, and no other, and returns its fields; nil
// after recording an error.
func (r *reader) documentKeys(data []byte, keys ...string) (f fields) {
	want := fmt.Sprintf("the key %q", keys[0])
	if len(keys) > 1 {
		want = fmt.Sprintf("the keys %q", keys)
	}
	defer func() {
		// yaml.v3 is not known to panic on v3.0.1, but a case file must
		// never crash the tool.
		if x := recover(); x != nil {
			r.errorf(nil, "YAML parser failed: %v", x)
			f = nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			r.errorf(nil, "empty file; want a mapping with %s", want)
		} else {
			r.syntaxError(data, err)
		}
		return nil
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		r.syntaxError(data, err)
		return nil
	default:
		r.errorf(&next, "a second YAML document; a file holds one mapping with %s", want)
		return nil
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		r.errorf(root, "want a mapping with %s, got %s", want, describe(root))
		return nil
	}
	f, _ = r.mapping(root, "the file", keys)
	for _, key := range keys {
		if !f.has(key) {
			if len(r.errs) == 0 {
				r.errorf(root, "the file has no %q key", key)
			}
			return nil
		}
	}
	return f
}
