package cases

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// This file holds the strict reading of yaml.Node trees shared by the case
// loader and the requirement table: every value is checked for its kind and
// every error is recorded at the node it concerns, so that messages name
// the exact line and column.

// reader collects the errors of one file.
type reader struct {
	file string
	errs []*LoadError
	// misspelt holds, per mapping, the known keys that an unknown key was
	// taken for ("expct" for "expect"), so that the key is not reported
	// missing as well: one mistake, one message.
	misspelt map[*yaml.Node][]string
}

// errorf records an error at node n (line and column 0 when n is nil).
func (r *reader) errorf(n *yaml.Node, format string, args ...any) {
	e := &LoadError{File: r.file, Msg: oneLine(fmt.Sprintf(format, args...))}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	r.errs = append(r.errs, e)
}

// oneLine keeps an error message on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// field is one key of a mapping and its value.
type field struct {
	key, val *yaml.Node
}

// fields is a checked mapping: key name to key and value nodes.
type fields map[string]field

// has reports whether key is present.
func (f fields) has(key string) bool {
	_, ok := f[key]
	return ok
}

// mapping checks that n is a mapping whose keys are strings among allowed,
// each given once, and returns its fields. what names the mapping in
// messages ("a case", "a check"). It returns false when n is not a mapping
// at all; unknown and repeated keys are recorded and left out.
func (r *reader) mapping(n *yaml.Node, what string, allowed []string) (fields, bool) {
	if n.Kind != yaml.MappingNode {
		r.errorf(n, "%s: want a mapping, got %s", what, describe(n))
		return nil, false
	}
	f := make(fields, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			if k.ShortTag() == "!!merge" {
				r.errorf(k, "merge keys (<<) are not supported; write the keys out")
			} else {
				r.errorf(k, "%s: want a key name, got %s", what, describe(k))
			}
			continue
		}
		name := k.Value
		if !slices.Contains(allowed, name) {
			if near := nearest(name, allowed); near != "" {
				r.errorf(k, "unknown key %q in %s; did you mean %q?", name, what, near)
				if r.misspelt == nil {
					r.misspelt = make(map[*yaml.Node][]string)
				}
				r.misspelt[n] = append(r.misspelt[n], near)
			} else {
				r.errorf(k, "unknown key %q in %s (known keys: %s)", name, what, strings.Join(allowed, ", "))
			}
			continue
		}
		if prev, dup := f[name]; dup {
			r.errorf(k, "duplicate key %q in %s (first at line %d)", name, what, prev.key.Line)
			continue
		}
		f[name] = field{k, v}
	}
	return f, true
}

// require records an error at the mapping n for each key of keys that f
// lacks, and reports whether all are present.
func (r *reader) require(n *yaml.Node, f fields, what string, keys ...string) bool {
	ok := true
	for _, k := range keys {
		if !f.has(k) {
			if !slices.Contains(r.misspelt[n], k) {
				r.errorf(n, "%s has no %s", what, k)
			}
			ok = false
		}
	}
	return ok
}

// str returns the string value of n, which must be a string scalar.
func (r *reader) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		hint := ""
		if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null" {
			hint = " (quote it to make it a string)"
		}
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
			hint = ` (write "" for an empty string)`
		}
		r.errorf(n, "%s: want a string, got %s%s", what, describe(n), hint)
		return "", false
	}
	return n.Value, true
}

// integer returns the value of n, which must be an integer scalar.
func (r *reader) integer(n *yaml.Node, what string) (int, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		r.errorf(n, "%s: want an integer, got %s", what, describe(n))
		return 0, false
	}
	var v int
	if err := n.Decode(&v); err != nil {
		r.errorf(n, "%s: integer %s out of range", what, n.Value)
		return 0, false
	}
	return v, true
}

// list returns the items of n, which must be a sequence.
func (r *reader) list(n *yaml.Node, what string) ([]*yaml.Node, bool) {
	if n.Kind != yaml.SequenceNode {
		hint := ""
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
			hint = fmt.Sprintf(" (write [%s] for a list of one)", n.Value)
		}
		r.errorf(n, "%s: want a list, got %s%s", what, describe(n), hint)
		return nil, false
	}
	return n.Content, true
}

// nonEmpty returns the items of n, which must be a list of at least one;
// need says what to give when it is empty ("list at least one step").
func (r *reader) nonEmpty(n *yaml.Node, what, need string) ([]*yaml.Node, bool) {
	items, ok := r.list(n, what)
	if ok && len(items) == 0 {
		r.errorf(n, "%s is empty; %s", what, need)
		return nil, false
	}
	return items, ok
}

// strings returns the items of n, which must be a sequence of non-empty
// strings; a repeated item is kept once.
func (r *reader) strings(n *yaml.Node, what string) ([]string, bool) {
	items, ok := r.list(n, what)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(items))
	seen := map[string]bool{}
	for _, it := range items {
		s, good := r.str(it, what+" item")
		switch {
		case !good:
			ok = false
		case s == "":
			r.errorf(it, "%s: empty item", what)
			ok = false
		case seen[s]:
			// A repeat is redundant, not wrong: it is kept once.
		default:
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, ok
}

// describe names the kind of a node for messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias (*" + n.Value + "); aliases are not supported"
	case yaml.DocumentNode:
		return "a document"
	}
	switch n.ShortTag() {
	case "!!str":
		return "a string"
	case "!!int":
		return "the integer " + n.Value
	case "!!float":
		return "the number " + n.Value
	case "!!bool":
		return "the boolean " + n.Value
	case "!!null":
		return "nothing (null)"
	case "!!timestamp":
		return "the timestamp " + n.Value
	case "!!binary":
		return "binary data"
	}
	return "a value tagged " + strconv.Quote(n.Tag)
}

// syntaxLine matches yaml.v3's syntax errors, which give a line only.
var syntaxLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the yaml.v3 messages raised by its parser rather
// than its scanner. yaml.v3 numbers their lines from 0 (the scanner's from
// 1) and, for the ones about a flow or block collection, gives the line
// where the collection starts rather than where the problem is.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found undefined tag handle",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// syntaxError records a YAML syntax error found in data. yaml.v3 gives a
// line but no column; the column is that of the collection the message
// names ('{' or '['), else of the line's first non-blank character.
func (r *reader) syntaxError(data []byte, err error) {
	msg := oneLine(err.Error())
	e := &LoadError{File: r.file}
	line := 0
	if m := syntaxLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	if slices.Contains(parserProblems, msg) {
		line++ // 0-based, and absent when 0
		switch {
		case strings.HasSuffix(msg, "'}'"):
			msg += " (in the flow mapping {...} that starts here; quote values holding '?', ':', ',' or '#')"
		case strings.HasSuffix(msg, "']'"):
			msg += " (in the flow list [...] that starts here; quote values holding '?', ':', ',' or '#')"
		case msg == "did not find expected key" || msg == "did not find expected '-' indicator":
			msg += " (in the block that starts here; look for bad indentation below)"
		}
	}
	if line > 0 {
		e.Line, e.Col = line, syntaxColumn(data, line, msg)
		if lines := bytes.Split(data, []byte("\n")); line <= len(lines) && msg == "found character that cannot start any token" &&
			bytes.HasPrefix(bytes.TrimLeft(lines[line-1], " "), []byte("\t")) {
			msg += " (a tab indents this line; YAML indents with spaces only)"
		}
	}
	e.Msg = "YAML syntax: " + msg
	r.errs = append(r.errs, e)
}

// syntaxColumn guesses the 1-based column of a syntax error on line.
func syntaxColumn(data []byte, line int, msg string) int {
	lines := bytes.Split(data, []byte("\n"))
	if line > len(lines) {
		return 1
	}
	text := lines[line-1]
	open := -1
	switch {
	case strings.Contains(msg, "'}'"):
		open = bytes.IndexByte(text, '{')
	case strings.Contains(msg, "']'"):
		open = bytes.IndexByte(text, '[')
	}
	if open >= 0 {
		return open + 1
	}
	if i := bytes.IndexFunc(text, func(r rune) bool { return r != ' ' && r != '\t' }); i >= 0 {
		return i + 1
	}
	return 1
}

// nearest returns the word of words closest to s when it is a likely
// misspelling of it (at most two edits, and fewer than half the letters),
// else "".
func nearest(s string, words []string) string {
	best, bestDist := "", 3
	for _, w := range words {
		if d := editDistance(strings.ToLower(s), w); d < bestDist && 2*d < len(w) {
			best, bestDist = w, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
