package diff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"strconv"
	"strings"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// WriteFindings writes findings as JSON lines (docs/FORMAT.md §4), one per
// finding, in the given order.
func WriteFindings(w io.Writer, findings []result.Finding) error {
	fw := newFindingWriter(w)
	for i := range findings {
		if err := fw.write(&findings[i]); err != nil {
			return err
		}
	}
	return fw.flush()
}

// MaxFindingLine is the longest findings line ReadFindings accepts.
const MaxFindingLine = 16 << 20

// ReadFindings reads JSON lines written by WriteFindings. Blank lines are
// skipped; unknown keys are errors that name the line.
func ReadFindings(r io.Reader) ([]result.Finding, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), MaxFindingLine)
	var out []result.Finding
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var f result.Finding
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("diff: findings line %d: %w", n, err)
		}
		if f.Agent == "" || f.URL == "" {
			return nil, fmt.Errorf("diff: findings line %d: agent and url are required", n)
		}
		out = append(out, f)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("diff: reading findings: %w", err)
	}
	return out, nil
}

// fuzzHeader is the first line of a Go fuzzing corpus file.
const fuzzHeader = "go test fuzz v1"

// IsFuzzFile reports whether data looks like a Go fuzzing corpus file.
func IsFuzzFile(data []byte) bool {
	return bytes.HasPrefix(data, []byte(fuzzHeader+"\n")) || bytes.HasPrefix(data, []byte(fuzzHeader+"\r\n"))
}

// ReadFuzzFile reads a Go fuzzing corpus file (testdata/fuzz/FuzzX/HASH)
// whose values are ([]byte robots, string agent, string url):
//
//	go test fuzz v1
//	[]byte("User-agent: *\nDisallow: /a\n")
//	string("FooBot")
//	string("/a")
//
// Values are Go literals; anything else is an error.
func ReadFuzzFile(data []byte) (result.Input, error) {
	if !IsFuzzFile(data) {
		return result.Input{}, fmt.Errorf("diff: not a Go fuzz corpus file (want first line %q)", fuzzHeader)
	}
	var vals []ast.Expr
	for _, line := range strings.Split(string(data), "\n")[1:] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		e, err := parser.ParseExpr(line)
		if err != nil {
			return result.Input{}, fmt.Errorf("diff: fuzz corpus value %q: %w", line, err)
		}
		vals = append(vals, e)
	}
	if len(vals) != 3 {
		return result.Input{}, fmt.Errorf("diff: fuzz corpus file has %d values, want 3 ([]byte, string, string)", len(vals))
	}
	robots, err := fuzzLiteral(vals[0], true)
	if err != nil {
		return result.Input{}, err
	}
	agent, err := fuzzLiteral(vals[1], false)
	if err != nil {
		return result.Input{}, err
	}
	url, err := fuzzLiteral(vals[2], false)
	if err != nil {
		return result.Input{}, err
	}
	return result.Input{Robots: []byte(robots), Agent: agent, URL: url}, nil
}

// fuzzLiteral reads []byte("...") (bytes true) or string("...").
func fuzzLiteral(e ast.Expr, bytes bool) (string, error) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", errors.New("diff: fuzz corpus value is not a conversion of a literal")
	}
	switch fun := call.Fun.(type) {
	case *ast.ArrayType:
		if id, ok := fun.Elt.(*ast.Ident); !bytes || fun.Len != nil || !ok || (id.Name != "byte" && id.Name != "uint8") {
			return "", errors.New("diff: fuzz corpus value has the wrong type, want ([]byte, string, string)")
		}
	case *ast.Ident:
		if bytes || fun.Name != "string" {
			return "", errors.New("diff: fuzz corpus value has the wrong type, want ([]byte, string, string)")
		}
	default:
		return "", errors.New("diff: fuzz corpus value has the wrong type, want ([]byte, string, string)")
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", errors.New("diff: fuzz corpus value is not a string literal")
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		return "", fmt.Errorf("diff: fuzz corpus literal: %w", err)
	}
	return s, nil
}

// CaseableInput brings an input from a fuzz corpus to a form the case
// format can hold, as the fuzz targets do before deciding: an agent that is
// not a product token is cut to its token characters (FooBot when none is
// left), and a URL without a scheme is taken as a path on
// https://example.com.
func CaseableInput(in result.Input) result.Input {
	if !reference.IsProductToken(in.Agent) {
		var b strings.Builder
		for i := 0; i < len(in.Agent); i++ {
			if reference.IsProductToken(string(in.Agent[i])) {
				b.WriteByte(in.Agent[i])
			}
		}
		in.Agent = b.String()
		if in.Agent == "" {
			in.Agent = "FooBot"
		}
	}
	if !strings.HasPrefix(in.URL, "http://") && !strings.HasPrefix(in.URL, "https://") {
		in.URL = "https://example.com" + reference.PathQuery(in.URL)
	}
	return in
}
