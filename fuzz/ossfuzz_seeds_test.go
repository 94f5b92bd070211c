//go:build !gofuzz_libfuzzer

package fuzz

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// OSS-Fuzz builds native Go fuzz targets as libFuzzer binaries
// (go-118-fuzz-build). Such a binary ignores f.Add and the testdata/fuzz
// files, and it does not receive the arguments one by one: it gets one
// byte string and hands it to a go-fuzz-headers consumer, which takes each
// []byte or string argument as a 4-byte big-endian length followed by that
// many bytes. The seed corpus is therefore written in that encoding, one
// <Target>_seed_corpus.zip per target, by TestWriteOSSFuzzSeeds.

// seedDirEnv names the directory TestWriteOSSFuzzSeeds writes to.
const seedDirEnv = "REPTEST_OSSFUZZ_SEEDS"

// encodeArgs encodes fuzz arguments ([]byte or string) as the libFuzzer
// build consumes them. A []byte argument is taken as "length, then bytes"
// only when it is not empty (the consumer reads a zero length as 30), so
// callers drop seeds with an empty []byte.
func encodeArgs(args ...any) ([]byte, error) {
	var b []byte
	for _, a := range args {
		var v []byte
		switch x := a.(type) {
		case []byte:
			if len(x) == 0 {
				return nil, errors.New("an empty []byte argument cannot be encoded")
			}
			v = x
		case string:
			v = []byte(x)
		default:
			return nil, fmt.Errorf("cannot encode a %T argument", a)
		}
		b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
		b = append(b, v...)
	}
	return b, nil
}

// decodeArgs reads data as the consumer does, for the types given by
// kinds ("[]byte" or "string"): a 4-byte big-endian length, then the
// value. For []byte the consumer takes the length modulo the bytes left
// (unless it equals them) and reads a zero length as 30; for string a
// length past the end is an error.
func decodeArgs(data []byte, kinds ...string) ([]any, error) {
	var out []any
	pos := 0
	for _, k := range kinds {
		if len(data)-pos < 4 {
			return nil, errors.New("no length")
		}
		n := int(binary.BigEndian.Uint32(data[pos:]))
		pos += 4
		left := len(data) - pos
		switch k {
		case "[]byte":
			if n == 0 {
				n = 30
			}
			if left <= 0 {
				return nil, errors.New("no bytes left")
			}
			if n != left {
				n %= left
			}
			out = append(out, data[pos:pos+n])
		case "string":
			if n > left {
				return nil, errors.New("string past the end")
			}
			out = append(out, string(data[pos:pos+n]))
		}
		pos += n
	}
	return out, nil
}

func TestEncodeArgs(t *testing.T) {
	tests := []struct {
		args  []any
		kinds []string
	}{
		{[]any{[]byte("User-agent: *\nDisallow: /\n"), "FooBot", "/x"}, []string{"[]byte", "string", "string"}},
		{[]any{[]byte("x"), "", ""}, []string{"[]byte", "string", "string"}},
		{[]any{"/a*b$", "/ab"}, []string{"string", "string"}},
		{[]any{[]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, []string{"[]byte"}},
	}
	for _, tt := range tests {
		data, err := encodeArgs(tt.args...)
		if err != nil {
			t.Fatalf("encodeArgs(%q): %v", tt.args, err)
		}
		got, err := decodeArgs(data, tt.kinds...)
		if err != nil {
			t.Fatalf("decodeArgs(encodeArgs(%q)): %v", tt.args, err)
		}
		if diff := cmp.Diff(tt.args, got); diff != "" {
			t.Errorf("round trip of %q (-want +got):\n%s", tt.args, diff)
		}
	}
	if _, err := encodeArgs([]byte{}, "a"); err == nil {
		t.Errorf("encodeArgs accepted an empty []byte, which the consumer cannot read")
	}
}

// readCorpusDir reads the files of testdata/fuzz/<target> (the "go test
// fuzz v1" format: one Go literal per line, []byte("...") or
// string("...")), so that the regression inputs are seeds too.
func readCorpusDir(target string) ([][]any, error) {
	dir := filepath.Join("testdata", "fuzz", target)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var all [][]any
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		args, err := parseCorpusFile(data)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", dir, e.Name(), err)
		}
		all = append(all, args)
	}
	return all, nil
}

// parseCorpusFile reads one file of the "go test fuzz v1" format.
func parseCorpusFile(data []byte) ([]any, error) {
	var args []any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for first := true; sc.Scan(); first = false {
		line := sc.Text()
		if first {
			if line != "go test fuzz v1" {
				return nil, errors.New("not a fuzz corpus file")
			}
			continue
		}
		var s string
		var err error
		switch {
		case strings.HasPrefix(line, "[]byte(") && strings.HasSuffix(line, ")"):
			if s, err = strconv.Unquote(line[len("[]byte(") : len(line)-1]); err == nil {
				args = append(args, []byte(s))
			}
		case strings.HasPrefix(line, "string(") && strings.HasSuffix(line, ")"):
			if s, err = strconv.Unquote(line[len("string(") : len(line)-1]); err == nil {
				args = append(args, s)
			}
		default:
			err = fmt.Errorf("unexpected line %q", line)
		}
		if err != nil {
			return nil, err
		}
	}
	return args, sc.Err()
}

// ossFuzzSeeds returns every seed of every target, as argument lists.
// (The seeds' names are left behind: zip entries are named by content.)
func ossFuzzSeeds() (map[string][][]any, error) {
	seeds := map[string][][]any{}
	full, err := corpusSeeds(false)
	if err != nil {
		return nil, err
	}
	small, err := corpusSeeds(true)
	if err != nil {
		return nil, err
	}
	for _, s := range append(docSeeds(false), full...) {
		seeds["FuzzParse"] = append(seeds["FuzzParse"], []any{s.body, s.agent, s.url})
	}
	for _, s := range append(docSeeds(true), small...) {
		seeds["FuzzDifferential"] = append(seeds["FuzzDifferential"], []any{s.body, s.agent, s.url})
	}
	for _, s := range matchSeeds(false) {
		seeds["FuzzMatch"] = append(seeds["FuzzMatch"], []any{s.pattern, s.path})
	}
	for _, s := range invariantSeeds() {
		seeds["FuzzInvariants"] = append(seeds["FuzzInvariants"], []any{s})
	}
	for target := range seeds {
		regress, err := readCorpusDir(target)
		if err != nil {
			return nil, err
		}
		seeds[target] = append(seeds[target], regress...)
	}
	return seeds, nil
}

// TestWriteOSSFuzzSeeds writes <Target>_seed_corpus.zip for each target
// into the directory named by $REPTEST_OSSFUZZ_SEEDS (fuzz/oss-fuzz/build.sh
// sets it to $OUT). Without it, it only checks that every seed encodes.
func TestWriteOSSFuzzSeeds(t *testing.T) {
	seeds, err := ossFuzzSeeds()
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv(seedDirEnv)
	for target, list := range seeds {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		n := 0
		for _, args := range list {
			data, err := encodeArgs(args...)
			if err != nil {
				continue // an empty []byte: the consumer cannot be given one
			}
			name := fmt.Sprintf("%x", sha256.Sum256(data))[:16]
			w, err := zw.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(data); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("%s: no seed could be encoded", target)
		}
		if dir == "" {
			continue
		}
		path := filepath.Join(dir, target+"_seed_corpus.zip")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d seeds, %d bytes", path, n, buf.Len())
	}
}
