package diff

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
	"github.com/reptest/reptest/warc"
)

// Inputs are the files of a run: bodies held in memory (Files: corpus
// cases, plain files, generated files) and WARC files read record by
// record while the run goes on (WARC). Add paths with AddPath.
type Inputs struct {
	Files []File
	// WARC lists WARC files (plain or gzip-compressed), in order.
	WARC []WARCFile
	// Stats counts what the WARC files held, once Run has read them.
	Stats WARCStats
}

// WARCStats counts the records of a run's WARC files and what became of
// them. Responses are classified as the access method of RFC 9309 §2.3.1
// classifies a fetch: a success (2xx) is compared, a redirect (3xx) is
// left to the record of its target, an unavailable file (4xx) and an
// unreachable one (5xx and the rest) have no rules to compare.
type WARCStats struct {
	Files       int `json:"files"`
	Records     int `json:"records"`
	Responses   int `json:"responses"`
	Success     int `json:"success"`
	Redirect    int `json:"redirect"`
	Unavailable int `json:"unavailable"`
	Unreachable int `json:"unreachable"`
	// NotText counts successes served with a media type other than
	// text/plain (often an HTML error page): crawlers read them as
	// robots.txt all the same, and so they are compared.
	NotText int `json:"not_text"`
	// Duplicates counts successes whose body was already compared.
	Duplicates int `json:"duplicates"`
	// Unreadable counts responses whose HTTP message could not be read or
	// whose body is larger than MaxFileBytes; they are not compared.
	Unreadable int `json:"unreadable"`
}

// WARCFile is a WARC file to read: Path opens it, Name places it in a
// shard (cases.Shard.Has). Name is the same on every machine: the line of
// a listing, the path below a directory given to AddPath, or the path as
// given.
type WARCFile struct {
	Name, Path string
}

// IsWARC reports whether a file name is that of a WARC file.
func IsWARC(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".warc") || strings.HasSuffix(n, ".warc.gz")
}

// isListing reports whether a file name is that of a listing of WARC
// files, as Common Crawl publishes them (robotstxt.paths.gz).
func isListing(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".paths") || strings.HasSuffix(n, ".paths.gz")
}

// AddPath adds an input: a directory (its WARC files are streamed, its
// other files read as ReadDir reads them), a WARC file, or a listing of
// WARC files (NAME.paths or NAME.paths.gz: one path a line, relative to
// the listing's directory unless absolute; blank lines and "#" comments
// are skipped).
func (in *Inputs) AddPath(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("diff: reading inputs: %w", err)
	}
	switch {
	case info.IsDir():
		files, warcs, err := readDir(path)
		if err != nil {
			return err
		}
		in.Files = append(in.Files, files...)
		for _, w := range warcs {
			name, err := filepath.Rel(path, w)
			if err != nil {
				name = w
			}
			in.WARC = append(in.WARC, WARCFile{Name: filepath.ToSlash(name), Path: w})
		}
	case IsWARC(path):
		in.WARC = append(in.WARC, WARCFile{Name: path, Path: path})
	case isListing(path):
		paths, err := readListing(path)
		if err != nil {
			return err
		}
		in.WARC = append(in.WARC, paths...)
	default:
		b, err := readFile(path)
		if err != nil {
			return err
		}
		in.Files = append(in.Files, File{Name: path, Robots: b})
	}
	return nil
}

// readListing returns the WARC files a listing names; the files need not
// exist yet.
func readListing(path string) ([]WARCFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("diff: %s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	var paths []WARCFile
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !IsWARC(line) {
			return nil, fmt.Errorf("diff: %s:%d: %q is not a WARC file (.warc or .warc.gz)", path, n, clipText(line))
		}
		file := line
		if !filepath.IsAbs(line) {
			file = filepath.Join(filepath.Dir(path), filepath.FromSlash(line))
		}
		paths = append(paths, WARCFile{Name: line, Path: file})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("diff: %s: %w", path, err)
	}
	return paths, nil
}

func clipText(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Select returns the shard's held files and WARC files: those whose name
// the shard has (cases.Shard.Has), so that a shard reads only its own WARC
// files and a WARC file is in the same shard on every machine.
func (in *Inputs) Select(shard cases.Shard) ([]File, []WARCFile) {
	var held []File
	for _, f := range in.Files {
		if shard.Has(f.Name) {
			held = append(held, f)
		}
	}
	var warcs []WARCFile
	for _, w := range in.WARC {
		if shard.Has(w.Name) {
			warcs = append(warcs, w)
		}
	}
	return held, warcs
}

// Run compares the shard's inputs (see Select): the held files first,
// then the successful responses of the WARC files in the order the files
// hold them, each body once per run.
func (in *Inputs) Run(ctx context.Context, shard cases.Shard, factory Factory, opts Options) (*result.Document, error) {
	held, warcs := in.Select(shard)
	if len(warcs) == 0 {
		return Run(ctx, held, factory, opts)
	}
	in.Stats = WARCStats{}
	jobs := func(yield func(job) bool) error {
		for i := range held {
			if !yield(job{i, &held[i]}) {
				return nil
			}
		}
		n := len(held)
		seen := make(map[[sha256.Size]byte]bool)
		for _, w := range warcs {
			err := readWARC(w.Path, seen, &in.Stats, func(f File) bool {
				ok := yield(job{n, &f})
				n++
				return ok
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	total := 0 // not known before the WARC files are read
	return runJobs(ctx, jobs, total, factory, opts)
}

// readWARC streams one WARC file, calling fn with each successful
// response and counting those whose body is in seen; fn returns false to
// stop.
func readWARC(path string, seen map[[sha256.Size]byte]bool, st *WARCStats, fn func(File) bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	defer f.Close()
	r, err := warc.NewReader(path, f)
	if err != nil {
		return err
	}
	defer r.Close()
	st.Files++
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		st.Records++
		if rec.Type() != "response" || !strings.HasPrefix(strings.ToLower(rec.Header.Get("Content-Type")), "application/http") {
			continue
		}
		st.Responses++
		body, ok := classify(rec.Block, st)
		if !ok {
			continue
		}
		// The run compares a body once (and lists the duplicates in
		// its findings); the count here is the WARC files' own.
		sum := sha256.Sum256(body)
		if seen[sum] {
			st.Duplicates++
		}
		seen[sum] = true
		name := fmt.Sprintf("%s (%s#%d)", rec.TargetURI(), path, rec.Number)
		if !fn(File{Name: name, Robots: body}) {
			return nil
		}
	}
}

// classify reads the HTTP response in a WARC block, counts it, and
// returns its body when it is a success.
func classify(block io.Reader, st *WARCStats) ([]byte, bool) {
	resp, err := http.ReadResponse(bufio.NewReader(block), nil)
	if err != nil {
		st.Unreadable++
		return nil, false
	}
	defer resp.Body.Close()
	res := reference.FromStatus(resp.StatusCode, nil, reference.RFC())
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "":
		st.Redirect++
		return nil, false
	case res.Info.Access == reference.NotAvailable:
		st.Unavailable++
		return nil, false
	case res.Info.Access == reference.NotReachable:
		st.Unreachable++
		return nil, false
	}
	var r io.Reader = resp.Body
	switch enc := strings.ToLower(resp.Header.Get("Content-Encoding")); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		gz, err := gzip.NewReader(resp.Body)
		if err != nil {
			st.Unreadable++
			return nil, false
		}
		defer gz.Close()
		r = gz
	default:
		st.Unreadable++
		return nil, false
	}
	body, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil || len(body) > MaxFileBytes {
		st.Unreadable++
		return nil, false
	}
	st.Success++
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); resp.Header.Get("Content-Type") != "" && (err != nil || mt != "text/plain") {
		st.NotText++
	}
	return body, true
}
