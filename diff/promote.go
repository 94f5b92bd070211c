package diff

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
	"github.com/reptest/reptest/visible"
)

// Draft is a YAML case draft (docs/FORMAT.md §1) made from a finding or a fuzz
// corpus file, for a person to review before it enters the corpus. Its
// expectation is the reference's verdict.
type Draft struct {
	ID      string
	Title   string
	Req     []string
	Profile string // "" or "google"
	Tags    []string
	Robots  []byte
	Agent   string
	URL     string
	Expect  result.Verdict
	// Rule is the reference's deciding line, 0 when no rule decided.
	Rule int
	// Comment is written above the case: the verdicts seen and the
	// reference's trace.
	Comment string
}

// NewDraft makes a draft from a finding: the reference (under the
// finding's profile) gives the expectation and the deciding line, Tags the
// requirement IDs, and the id is "draft/diff-" and a hash of the input.
// from names where the input came from for the title ("a differential
// finding", "fuzz corpus file X"); tags are added after "needs-review".
// It fails when the agent is not a product token, or when the URL is one
// the case format cannot hold (net/url refuses it, e.g. "%zz").
func NewDraft(f result.Finding, from string, tags ...string) (Draft, error) {
	in := f.Input
	d, err := parseFor(in).Decide(in.Agent, in.URL)
	if err != nil {
		return Draft{}, fmt.Errorf("diff: cannot promote (agent %q): %w", in.Agent, err)
	}
	abs := in.URL
	if strings.HasPrefix(abs, "/") && !strings.HasPrefix(abs, "//") {
		abs = ProbeHost + abs
	}
	if u, err := url.Parse(abs); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Draft{}, fmt.Errorf("diff: cannot promote: the case format needs an http(s) URL that net/url accepts, not %q", in.URL)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", in.Profile, in.Agent, in.URL)
	h.Write(in.Robots)
	sum := hex.EncodeToString(h.Sum(nil))[:12]
	dr := Draft{
		ID:      "draft/diff-" + sum,
		Req:     Tags(in, f.Verdicts),
		Profile: in.Profile,
		Tags:    append([]string{"needs-review"}, tags...),
		Robots:  in.Robots,
		Agent:   in.Agent,
		URL:     in.URL,
		Expect:  result.VerdictOf(d.Allowed),
	}
	if d.Reason == reference.RuleMatched {
		dr.Rule = d.Rule.Line
	}
	dr.Title = "DRAFT (needs review) from " + from
	if f.Signature != "" {
		dr.Title += ": " + f.Signature
	}
	var c strings.Builder
	if len(f.Verdicts) > 0 {
		names := make([]string, 0, len(f.Verdicts))
		for n := range f.Verdicts {
			names = append(names, n)
		}
		slices.Sort(names)
		c.WriteString("verdicts:")
		for _, n := range names {
			fmt.Fprintf(&c, " %s=%s", n, f.Verdicts[n])
		}
		c.WriteString("\n")
	}
	c.WriteString("reference: " + visible.String(d.String()))
	dr.Comment = c.String()
	return dr, nil
}

// MarshalDrafts returns a YAML case file holding the drafts. A body that
// is not plain printable text (a byte order mark, CR, control characters,
// invalid UTF-8), or that YAML would not give back byte for byte, is
// written as robots_base64.
func MarshalDrafts(drafts []Draft) ([]byte, error) {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for i := range drafts {
		n, err := draftNode(&drafts[i])
		if err != nil {
			return nil, err
		}
		list.Content = append(list.Content, n)
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("cases"), list}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("diff: writing drafts: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("diff: writing drafts: %w", err)
	}
	return b.Bytes(), nil
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func strList(ss []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range ss {
		n.Content = append(n.Content, str(s))
	}
	return n
}

func draftNode(d *Draft) (*yaml.Node, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, HeadComment: d.Comment}
	add := func(k string, v *yaml.Node) { m.Content = append(m.Content, str(k), v) }
	add("id", str(d.ID))
	add("title", str(d.Title))
	add("req", strList(d.Req))
	if d.Profile != "" && d.Profile != result.ProfileRFC {
		add("profile", str(d.Profile))
	}
	add("tags", strList(d.Tags))
	if body, ok := literalBody(d.Robots); ok {
		add("robots", body)
	} else {
		add("robots_base64", str(base64.StdEncoding.EncodeToString(d.Robots)))
	}
	check := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	check.Content = append(check.Content,
		str("agent"), str(d.Agent),
		str("url"), str(d.URL),
		str("expect"), str(string(d.Expect)),
		str("rule"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(d.Rule)})
	add("checks", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{check}})
	return m, nil
}

// literalBody returns body as a YAML block scalar when it is plain
// printable text that YAML gives back exactly.
func literalBody(body []byte) (*yaml.Node, bool) {
	s := string(body)
	if !utf8.ValidString(s) {
		return nil, false
	}
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if r == '\r' || r == '\uFEFF' || !unicode.IsPrint(r) && r != ' ' || unicode.In(r, unicode.Cf, unicode.Bidi_Control) {
			return nil, false
		}
	}
	n := str(s)
	n.Style = yaml.LiteralStyle
	// Check the round trip: YAML cannot hold every text in a block.
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("robots"), n}})
	if err != nil {
		return nil, false
	}
	var back struct{ Robots *string }
	if yaml.Unmarshal(out, &back) != nil || back.Robots == nil || *back.Robots != s {
		return nil, false
	}
	return n, true
}
