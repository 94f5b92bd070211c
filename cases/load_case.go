package cases

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// The keys of each mapping of a case file (docs/FORMAT.md §1, plus the
// extensions host and delay).
var (
	caseKeys      = []string{"id", "title", "req", "level", "profile", "tags", "host", "robots", "robots_base64", "robots_generate", "fetch", "timeline", "checks"}
	checkKeys     = []string{"agent", "url", "expect", "accept", "rule", "usage"}
	responseKeys  = []string{"status", "headers", "body", "body_base64", "body_generate", "fault", "delay"}
	fetchKeys     = append([]string{"url"}, responseKeys...)
	stepKeys      = []string{"at", "response", "checks"}
	generatorKeys = []string{"prefix", "repeat", "until_bytes", "suffix"}
)

// Size limits of generated bodies: robots_generate is held in memory,
// body_generate is streamed by the test server.
const (
	maxRobotsGenerate = 64 << 20
	maxBodyGenerate   = 1 << 30
)

// Default hosts against which paths in checks resolve when the case names
// none: plain cases use https, served cases (fetch, timeline) use http.
const (
	defaultPlainHost  = "https://example.com"
	defaultServedHost = "http://example.com"
)

// caseID is the form of case ids: words without white space, '/' between
// namespaces. The corpus uses kebab-case; other corpora may not, and a
// stricter rule here would refuse a whole directory over a naming habit.
var caseID = regexp.MustCompile(`^[^\s/]+(/[^\s/]+)*$`)

// parseCase reads one case. It returns false when the case has an error
// (recorded in r); the id is registered even then, so duplicates are found.
// The keys are read in the order of docs/FORMAT.md §1: identity,
// requirements and level, what is tested, the host, then the checks.
func (l *loader) parseCase(r *reader, n *yaml.Node) (Case, bool) {
	f, ok := r.mapping(n, "a case", caseKeys)
	if !ok {
		return Case{}, false
	}
	errs := len(r.errs)
	c := Case{Source: fmt.Sprintf("%s:%d", r.file, n.Line), Profile: result.ProfileRFC}
	l.identity(r, n, f, &c)
	l.requirements(r, n, f, &c)
	l.body(r, n, f, &c)
	host := r.host(f)
	if fl, ok := f["fetch"]; ok {
		c.Fetch = r.fetch(fl.val, host)
	}
	if fl, ok := f["timeline"]; ok {
		c.Timeline = r.timeline(fl.val, host, c.Profile)
		if fc, ok := f["checks"]; ok {
			r.errorf(fc.key, "a timeline case has its checks in its steps, not at the case level")
		}
	} else if r.require(n, f, "the case", "checks") {
		c.Checks = r.checks(f["checks"].val, host, c.Profile, !f.has("fetch"))
	}
	return c, len(r.errs) == errs
}

// identity reads a case's id, title, tags and profile, and registers the
// id.
func (l *loader) identity(r *reader, n *yaml.Node, f fields, c *Case) {
	if r.require(n, f, "the case", "id") {
		idn := f["id"].val
		if id, ok := r.str(idn, "id"); ok {
			if !caseID.MatchString(id) {
				r.errorf(idn, "bad id %q (want words without spaces separated by '/', e.g. merge/two-groups)", id)
			} else if first, dup := l.ids[id]; dup {
				r.errorf(idn, "duplicate id %q (first at %s)", id, first)
			} else {
				l.ids[id] = fmt.Sprintf("%s:%d:%d", r.file, idn.Line, idn.Column)
			}
			c.ID = id
		}
	}
	if fl, ok := f["title"]; ok {
		c.Title, _ = r.str(fl.val, "title")
	}
	if fl, ok := f["tags"]; ok {
		c.Tags, _ = r.strings(fl.val, "tags")
	}
	if fl, ok := f["profile"]; ok {
		if p, ok := r.str(fl.val, "profile"); ok {
			if p != result.ProfileRFC && p != result.ProfileGoogle && p != result.ProfileAIPref {
				r.errorf(fl.val, "bad profile %q (want %s, %s or %s)", p, result.ProfileRFC, result.ProfileGoogle, result.ProfileAIPref)
			}
			c.Profile = p
		}
	}
}

// requirements reads a case's req and level; without a level the case
// takes the strongest its requirements lend it under its profile.
func (l *loader) requirements(r *reader, n *yaml.Node, f fields, c *Case) {
	reqOK := false
	if r.require(n, f, "the case", "req") {
		reqn := f["req"].val
		var reqs []string
		reqs, reqOK = r.strings(reqn, "req")
		if reqOK && len(reqs) == 0 {
			r.errorf(reqn, "req is empty; name at least one requirement ID")
			reqOK = false
		}
		if reqOK {
			for i, id := range reqs {
				if _, known := l.reqs[id]; !known {
					r.errorf(reqn.Content[i], "unknown requirement ID %q (see corpus/requirements.yaml)", id)
					reqOK = false
				}
			}
		}
		c.Req = reqs
	}
	if fl, ok := f["level"]; ok {
		if s, ok := r.str(fl.val, "level"); ok {
			// BCP 14 keywords are conventionally upper case, but "may" or
			// "Interpretation" are not in doubt.
			switch lv := result.Level(strings.ToUpper(s)); lv {
			case result.MUST, result.SHOULD, result.MAY:
				c.Level = lv
			case result.Level(strings.ToUpper(string(result.Interpretation))):
				c.Level = result.Interpretation
			default:
				r.errorf(fl.val, "bad level %q (want MUST, SHOULD, MAY or interpretation)", s)
			}
		}
	} else if reqOK {
		c.Level = result.Interpretation
		for _, id := range c.Req {
			if lv := l.reqs[id].LevelFor(c.Profile); lv.Rank() < c.Level.Rank() {
				c.Level = lv
			}
		}
	}
}

// bodyKeys are the keys that say what a case tests; a case has one.
var bodyKeys = []string{"robots", "robots_base64", "robots_generate", "fetch", "timeline"}

// body checks that a case says what it tests (a body, HTTP responses or
// a timeline) once, and reads the body when it is one.
func (l *loader) body(r *reader, n *yaml.Node, f fields, c *Case) {
	var given []string
	for _, k := range bodyKeys {
		if f.has(k) {
			given = append(given, k)
		}
	}
	if len(given) > 1 {
		// Report at the later of the first two conflicting keys.
		a, b := f[given[0]].key, f[given[1]].key
		if b.Line < a.Line || b.Line == a.Line && b.Column < a.Column {
			a, b = b, a
		}
		r.errorf(b, "%s and %s cannot be used together; a case has one of robots, robots_base64, robots_generate, fetch or timeline", a.Value, b.Value)
	}
	if len(given) == 0 {
		r.errorf(n, "the case has no robots, robots_base64, robots_generate, fetch or timeline (write robots: \"\" for an empty file)")
	}
	if b, ok := r.bytes(f, "robots"); ok {
		c.Robots = b
	}
	if fl, ok := f["robots_generate"]; ok {
		if g, ok := r.generator(fl.val, "robots_generate", maxRobotsGenerate); ok {
			c.Robots = l.generate(r, fl.val, g)
		}
	}
}

// host returns the origin a case's paths resolve against: its host key,
// else the origin of its first fetch URL or, for a timeline, of its first
// absolute check URL, else the default for its kind.
func (r *reader) host(f fields) string {
	if fl, ok := f["host"]; ok {
		if s, ok := r.str(fl.val, "host"); ok {
			h, err := parseOrigin(s)
			if err == nil {
				return h
			}
			r.errorf(fl.val, "host: %v", err)
		}
	}
	if f.has("fetch") {
		if items := f["fetch"].val; items.Kind == yaml.SequenceNode && len(items.Content) > 0 {
			if v := mappingValue(items.Content[0], "url"); v != nil {
				if u, err := url.Parse(v.Value); err == nil && u.IsAbs() && u.Host != "" {
					return u.Scheme + "://" + u.Host
				}
			}
		}
		return defaultServedHost
	}
	if f.has("timeline") {
		if h := firstCheckOrigin(f["timeline"].val); h != "" {
			return h
		}
		return defaultServedHost
	}
	return defaultPlainHost
}

// bytes reads a body given as text under key or as base64 under
// key+"_base64" (robots, robots_base64; body, body_base64). ok is false
// when neither is given or the value is not a string. Giving both is an
// error the caller reports; then the base64 form is kept.
func (r *reader) bytes(f fields, key string) (b []byte, ok bool) {
	if fl, given := f[key]; given {
		var s string
		if s, ok = r.str(fl.val, key); ok {
			b = []byte(s)
		}
	}
	if fl, given := f[key+"_base64"]; given {
		if s, good := r.str(fl.val, key+"_base64"); good {
			var err error
			if b, err = decodeBase64(s); err != nil {
				r.errorf(fl.val, "%s_base64: %v", key, err)
			}
			ok = true
		}
	}
	return b, ok
}

// decodeBase64 decodes standard base64, padded or not, ignoring spaces and
// line breaks (a long value may be folded).
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	enc := base64.StdEncoding
	if len(s)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("bad base64: %w", err)
	}
	return b, nil
}

// parseOrigin checks a host: value, "scheme://host[:port]", and returns it
// without a trailing slash.
func parseOrigin(s string) (string, error) {
	u, err := parseAbsolute(s)
	if err != nil {
		return "", err
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("want an origin such as http://a.test, without path, query or user, got %q", s)
	}
	return u.Scheme + "://" + u.Host, nil
}

// parseAbsolute parses an absolute http or https URL.
func parseAbsolute(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("bad URL %q: %v", s, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("bad URL %q: want scheme http or https", s)
	}
	if u.Host == "" || u.Opaque != "" {
		return nil, fmt.Errorf("bad URL %q: no host", s)
	}
	return u, nil
}

// resolveURL returns the absolute form of a url value: a path starting with
// '/' is appended to host unchanged (no normalisation, so odd paths are
// tested as written); anything else must be an absolute URL.
func resolveURL(host, s string) (string, error) {
	if strings.HasPrefix(s, "/") {
		return host + s, nil
	}
	if !strings.Contains(s, "://") {
		return "", fmt.Errorf("%q is neither an absolute URL (http://host/path) nor a path starting with \"/\"", s)
	}
	// Only the scheme and authority must be sound: the path is tested as
	// written, even one that net/url refuses ("/100%").
	if _, err := reference.Origin(s); err != nil {
		if errors.Is(err, reference.ErrNotHTTP) {
			return "", fmt.Errorf("bad URL %q: want scheme http or https", s)
		}
		return "", fmt.Errorf("bad URL %q: the host is missing or malformed (%v)", s, err)
	}
	return s, nil
}

// checks reads a list of checks; an empty list is an error. The profile
// says which agents and URLs a check may give; body says the case tests a
// body rather than fetches.
func (r *reader) checks(n *yaml.Node, host, profile string, body bool) []Check {
	items, ok := r.nonEmpty(n, "checks", "a case needs at least one check")
	if !ok {
		return nil
	}
	out := make([]Check, 0, len(items))
	for _, it := range items {
		if chk, ok := r.check(it, host, profile, body); ok {
			out = append(out, chk)
		}
	}
	return out
}

// check reads one check.
func (r *reader) check(n *yaml.Node, host, profile string, body bool) (Check, bool) {
	f, ok := r.mapping(n, "a check", checkKeys)
	if !ok {
		return Check{}, false
	}
	errs := len(r.errs)
	chk := Check{Source: fmt.Sprintf("%s:%d", r.file, n.Line)}
	if !r.require(n, f, "the check", "agent", "url", "expect") {
		return chk, false
	}
	if a, ok := r.str(f["agent"].val, "agent"); ok {
		// The crawler's side of UA-1: a check is asked for a product
		// token, which the reference (and any conforming crawler) refuses
		// otherwise. Google's matcher takes any agent string (G-API).
		if opts, _ := reference.OptionsFor(profile); !opts.AnyAgent && !reference.IsProductToken(a) {
			// Not an error that stops the load: one check written this
			// way should not keep a whole corpus from running.
			v := f["agent"].val
			chk.Invalid = fmt.Sprintf("%s:%d:%d: agent %q is not a product token (one or more of a-z, A-Z, \"_\" and \"-\", UA-1); the check is skipped",
				shown(r.file), v.Line, v.Column, a)
		}
		chk.Agent = a
	}
	if s, ok := r.str(f["url"].val, "url"); ok && s == "" && body && profile == result.ProfileGoogle {
		// Google's matcher reads an empty URL as "/" (G-API); a fetch
		// needs a URL to fetch from.
	} else if ok {
		u, err := resolveURL(host, s)
		if err != nil {
			r.errorf(f["url"].val, "url: %v", err)
		}
		chk.URL = u
	}
	chk.Expect, _ = r.verdict(f["expect"].val, "expect")
	if fl, ok := f["accept"]; ok {
		items, _ := r.list(fl.val, "accept")
		for _, it := range items {
			// The expected verdict or a repeat in accept is redundant but
			// harmless ("accept: [allow, disallow]" for "either").
			if v, ok := r.verdict(it, "accept"); ok && v != chk.Expect && !slices.Contains(chk.Accept, v) {
				chk.Accept = append(chk.Accept, v)
			}
		}
	}
	if fl, ok := f["rule"]; ok {
		if v, ok := r.integer(fl.val, "rule"); ok {
			if v < 0 {
				r.errorf(fl.val, "rule %d: want a line number (1-based), or 0 for no matching rule", v)
			}
			chk.Rule = &v
		}
	}
	if fl, ok := f["usage"]; ok {
		chk.Usage = r.usage(fl.val)
	}
	return chk, len(r.errs) == errs
}

// verdict reads an expectation: allow or disallow.
func (r *reader) verdict(n *yaml.Node, what string) (result.Verdict, bool) {
	s, ok := r.str(n, what)
	if !ok {
		return "", false
	}
	switch v := result.Verdict(strings.ToLower(s)); v {
	case result.Allow, result.Disallow:
		return v, true
	}
	r.errorf(n, "%s: bad verdict %q (want allow or disallow)", what, s)
	return "", false
}

// generator reads robots_generate or body_generate, whose until_bytes must
// not exceed limit.
func (r *reader) generator(n *yaml.Node, what string, limit int) (*Generator, bool) {
	f, ok := r.mapping(n, what, generatorKeys)
	if !ok {
		return nil, false
	}
	errs := len(r.errs)
	g := &Generator{}
	if r.require(n, f, what, "repeat", "until_bytes") {
		if s, ok := r.str(f["repeat"].val, "repeat"); ok {
			if s == "" {
				r.errorf(f["repeat"].val, "repeat is empty")
			}
			g.Repeat = s
		}
		if v, ok := r.integer(f["until_bytes"].val, "until_bytes"); ok {
			if v <= 0 || v > limit {
				r.errorf(f["until_bytes"].val, "until_bytes %d: want 1 to %d (%d MiB)", v, limit, limit>>20)
			}
			g.UntilBytes = v
		}
	}
	if fl, ok := f["prefix"]; ok {
		g.Prefix, _ = r.str(fl.val, "prefix")
	}
	if fl, ok := f["suffix"]; ok {
		g.Suffix, _ = r.str(fl.val, "suffix")
	}
	return g, len(r.errs) == errs
}

// fetch reads the responses of an HTTP case.
func (r *reader) fetch(n *yaml.Node, host string) []Response {
	items, ok := r.nonEmpty(n, "fetch", "list at least one response")
	if !ok {
		return nil
	}
	out := make([]Response, 0, len(items))
	seen := map[string]int{}
	for _, it := range items {
		f, ok := r.mapping(it, "a fetch response", fetchKeys)
		if !ok {
			continue
		}
		if !r.require(it, f, "the response", "url") {
			continue
		}
		s, ok := r.str(f["url"].val, "url")
		if !ok {
			continue
		}
		u, err := resolveURL(host, s)
		if err != nil {
			r.errorf(f["url"].val, "url: %v", err)
			continue
		}
		if line, dup := seen[u]; dup {
			r.errorf(f["url"].val, "url %s is served twice (first at line %d)", u, line)
			continue
		}
		seen[u] = f["url"].val.Line
		if resp, ok := r.response(it, f, u); ok {
			out = append(out, resp)
		}
	}
	return out
}

// timeline reads the steps of a clocked case.
// firstCheckOrigin returns the origin of the first check of a timeline
// when its URL is absolute, "" otherwise. As a fetch case's first URL
// does, it names the host whose robots.txt the steps serve.
func firstCheckOrigin(timeline *yaml.Node) string {
	if timeline.Kind != yaml.SequenceNode || len(timeline.Content) == 0 {
		return ""
	}
	checks := mappingValue(timeline.Content[0], "checks")
	if checks == nil || checks.Kind != yaml.SequenceNode || len(checks.Content) == 0 {
		return ""
	}
	if u := mappingValue(checks.Content[0], "url"); u != nil && u.Kind == yaml.ScalarNode && !strings.HasPrefix(u.Value, "/") {
		if o, err := reference.Origin(u.Value); err == nil {
			return o
		}
	}
	return ""
}

// mappingValue returns the value of key in mapping n, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func (r *reader) timeline(n *yaml.Node, host, profile string) []Step {
	items, ok := r.nonEmpty(n, "timeline", "list at least one step")
	if !ok {
		return nil
	}
	out := make([]Step, 0, len(items))
	prev := time.Duration(-1)
	for i, it := range items {
		f, ok := r.mapping(it, "a timeline step", stepKeys)
		if !ok || !r.require(it, f, "the step", "at", "response") {
			continue
		}
		errs := len(r.errs)
		var st Step
		if at, ok := r.duration(f["at"].val, "at"); ok {
			// Times count from the first fetch, so the first step is
			// normally at 0; a later start only moves the clock.
			if i > 0 && at < prev {
				r.errorf(f["at"].val, "at %s is earlier than the step before (%s)", f["at"].val.Value, FormatAt(prev))
			}
			st.At, prev = at, at
		}
		rn := f["response"].val
		if rf, ok := r.mapping(rn, "a response", responseKeys); ok {
			st.Response, _ = r.response(rn, rf, host+"/robots.txt")
		}
		// A step may have no checks: its file is still fetched at its
		// time (an outage that starts there, say).
		if fl, ok := f["checks"]; ok && !(fl.val.Kind == yaml.SequenceNode && len(fl.val.Content) == 0) {
			st.Checks = r.checks(fl.val, host, profile, false)
		}
		if len(r.errs) == errs {
			out = append(out, st)
		}
	}
	checks := 0
	for _, st := range out {
		checks += len(st.Checks)
	}
	if len(out) == len(items) && checks == 0 {
		r.errorf(n, "no step of the timeline has checks; a case needs at least one check")
	}
	return out
}

// response reads the keys of a response (fetch item or timeline step)
// served at u.
func (r *reader) response(n *yaml.Node, f fields, u string) (Response, bool) {
	errs := len(r.errs)
	resp := Response{URL: u}
	if fl, ok := f["fault"]; ok {
		if s, ok := r.str(fl.val, "fault"); ok {
			switch s {
			case "reset", "timeout", "truncated":
				// With reset nothing is sent; with timeout a given status
				// and headers are sent, and then nothing more.
			default:
				r.errorf(fl.val, "bad fault %q (want reset, timeout or truncated)", s)
			}
			resp.Fault = s
		}
	}
	if fl, ok := f["status"]; ok {
		if v, ok := r.integer(fl.val, "status"); ok {
			if v < 100 || v > 999 {
				r.errorf(fl.val, "status %d: want 100 to 999", v)
			}
			resp.Status = v
		}
	} else if !f.has("fault") {
		r.errorf(n, "the response has no status (and no fault)")
	}
	if fl, ok := f["headers"]; ok {
		resp.Headers = r.headers(fl.val)
	}
	var bodies []*yaml.Node
	for _, k := range []string{"body", "body_base64", "body_generate"} {
		if fl, ok := f[k]; ok {
			bodies = append(bodies, fl.key)
		}
	}
	if len(bodies) > 1 {
		r.errorf(bodies[1], "%s and %s cannot be used together", bodies[0].Value, bodies[1].Value)
	}
	if b, ok := r.bytes(f, "body"); ok {
		resp.Body = b
	}
	if fl, ok := f["body_generate"]; ok {
		resp.Gen, _ = r.generator(fl.val, "body_generate", maxBodyGenerate)
	}
	if fl, ok := f["delay"]; ok {
		resp.Delay, _ = r.duration(fl.val, "delay")
	}
	return resp, len(r.errs) == errs
}

// headers reads a mapping of header names to values. Values may be any
// scalar (Content-Length: 10 is the text "10").
func (r *reader) headers(n *yaml.Node) map[string]string {
	if n.Kind != yaml.MappingNode {
		r.errorf(n, "headers: want a mapping, got %s", describe(n))
		return nil
	}
	h := make(map[string]string, len(n.Content)/2)
	first := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, ok := r.str(k, "header name")
		if !ok {
			continue
		}
		if !isFieldName(name) {
			r.errorf(k, "bad header name %q", name)
			continue
		}
		canon := strings.ToLower(name)
		if line, dup := first[canon]; dup {
			r.errorf(k, "header %s is given twice (first at line %d)", name, line)
			continue
		}
		first[canon] = k.Line
		if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
			r.errorf(v, "header %s: want a value, got %s", name, describe(v))
			continue
		}
		if strings.ContainsAny(v.Value, "\r\n\x00") {
			r.errorf(v, "header %s: the value holds a line break or NUL", name)
			continue
		}
		h[name] = v.Value
	}
	return h
}

// isFieldName reports whether s is an HTTP field name (RFC 9110 token).
func isFieldName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// maxDays bounds the "Nd" form of durations (about 270 years), far below
// the overflow of time.Duration.
const maxDays = 100_000

// duration reads a non-negative duration: Go's syntax (90m, 25h, 1h30m),
// optionally after a number of days ("30d", "1d12h"); a bare 0 is zero.
func (r *reader) duration(n *yaml.Node, what string) (time.Duration, bool) {
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!str" && n.ShortTag() != "!!int") {
		r.errorf(n, "%s: want a duration such as 25h or 30d, got %s", what, describe(n))
		return 0, false
	}
	d, err := parseDuration(n.Value)
	if err != nil {
		r.errorf(n, "%s: %v", what, err)
		return 0, false
	}
	return d, true
}

func parseDuration(s string) (time.Duration, error) {
	bad := fmt.Errorf("bad duration %q (want e.g. 0, 90m, 25h, 30d or 1d12h)", s)
	var days time.Duration
	rest := s
	if i := strings.IndexByte(s, 'd'); i > 0 && strings.Trim(s[:i], "0123456789") == "" {
		n, err := strconv.Atoi(s[:i])
		if err != nil || n > maxDays {
			return 0, bad
		}
		days = time.Duration(n) * 24 * time.Hour
		rest = s[i+1:]
		if rest == "" {
			return days, nil
		}
	}
	if rest == "" || rest[0] == '-' || rest[0] == '+' {
		return 0, bad
	}
	d, err := time.ParseDuration(rest)
	if err != nil || d < 0 || d > time.Duration(maxDays)*24*time.Hour {
		return 0, bad
	}
	return days + d, nil
}
