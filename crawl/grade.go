package crawl

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/reptest/reptest/reference"
)

// Request is one HTTP request a crawler made: a request that reptest's
// scenario site recorded, or a line of a site's access log. The grader
// reads nothing else, so crawl and audit are judged alike.
type Request struct {
	Time      time.Time `json:"time"`
	Method    string    `json:"method"`
	URL       string    `json:"url"` // absolute, or a path for logs that hold no host
	UserAgent string    `json:"user_agent"`
	// Status is the response's status; 0 when no response was sent.
	Status int `json:"status"`
	// Fault is the network fault served instead of a response ("reset",
	// "timeout", "truncated"); empty otherwise.
	Fault string `json:"fault,omitempty"`
	// Location is the resolved redirect target of a 3xx, when known.
	Location string `json:"location,omitempty"`
	// Verified is a log's verified-bot field as written ("true"), if any.
	Verified string `json:"verified,omitempty"`
	// Client is the address the request came from, as the log writes it;
	// empty when unknown.
	Client string `json:"client,omitempty"`
	// Source is where the request was read: "access.log:12".
	Source string `json:"source,omitempty"`
	// Span, when set, says the request came at some time in [Time,
	// Time+Span), not at Time: a bucket of an aggregated log.
	Span time.Duration `json:"span,omitempty"`
	// Count is the number of requests the line stands for (a bucket's
	// count); 0 means 1.
	Count int `json:"count,omitempty"`
}

// N is the number of requests r stands for.
func (r Request) N() int {
	if r.Count > 0 {
		return r.Count
	}
	return 1
}

// Version is one version of an origin's robots.txt, in force from From on
// (until the next version of the same origin).
type Version struct {
	// Origin is "scheme://host[:port]"; empty for the one site an access
	// log covers, whose lines name no host.
	Origin string
	From   time.Time
	// Status is the status the file is served with (200 for a file of a
	// site; other codes in crawl scenarios; 0 for a network fault).
	Status int
	Body   []byte
	// Label says where the version came from: "old.txt@2026-10-06T00:00:00Z",
	// "git 3c7f5d7 (2026-10-06T09:12:00Z)".
	Label string

	// res, when set, is the version as the reference fetched it
	// (redirects followed); crawl scenarios set it.
	res *reference.Result
	// tokens are the product tokens the file names.
	tokens []string
}

// Tier is how the grader judged one request.
type Tier string

// The tiers. A robots.txt fetch is TierRobots; every other request is
// allowed, within the cache grace, or a violation; a bucket of requests
// (Request.Span) whose tier depends on when in the bucket they came, or
// on which copy a robots.txt fetch in a bucket read, is uncertain.
const (
	TierRobots    Tier = "robots"
	TierAllowed   Tier = "allowed"
	TierGrace     Tier = "grace"
	TierViolation Tier = "violation"
	TierUncertain Tier = "uncertain"
)

// Judgement is the grader's account of one request.
type Judgement struct {
	Request Request
	// Agent is the product token the request was judged as; "*" when its
	// User-Agent names no group of the file.
	Agent  string
	Origin string
	Tier   Tier
	// Req is the requirement a violation breaks (ACC-2 the rules, ACC-7
	// an unreachable file, CACHE-2 a stale copy); for allowed requests
	// the one that allowed it when that is not the rules (ACC-6).
	Req string
	// Before is set when no robots.txt of the origin had been fetched by
	// this agent before the request (ACC-10).
	Before bool
	// Decision is the reference's decision under the rules the request
	// was judged by; nil for robots.txt fetches.
	Decision *reference.Decision
	// Version labels the robots.txt version judged against.
	Version string
	// Why explains the tier in one sentence.
	Why string
	// Copy labels the robots.txt version its client's last fetch got, as
	// "LABEL (answered 200)"; FetchedAt is that fetch's time. Both are
	// empty when the client had fetched none.
	Copy      string    `json:"copy,omitempty"`
	FetchedAt time.Time `json:"fetched_at,omitzero"`
	// Could lists, for an uncertain bucket, the requirements it breaks in
	// some of the cases the bucket cannot tell apart.
	Could []string `json:"could,omitempty"`
}

// Options configure a Grader.
type Options struct {
	// Reference is the option set robots.txt files are read with.
	Reference reference.Options
	// Grace is how long a fetched copy may be used (CACHE-2: 24 h). A
	// request disallowed by the file in force but allowed by a copy the
	// crawler fetched less than Grace before is within the grace. Zero:
	// no grace (crawl scenarios start from nothing).
	Grace time.Duration
	// Agent returns the product token a User-Agent header is judged as,
	// given the tokens the file in force names; nil: NamedToken.
	Agent func(userAgent string, tokens []string) string
	// Identity returns the client a request is from, given the token it
	// is judged as: each client is judged against its own robots.txt
	// fetches only. Nil: the token, one client per token (a crawl
	// scenario runs one crawler).
	Identity func(r Request, agent string) string
}

// Grader judges requests one at a time, in time order, keeping per agent
// and origin only the last robots.txt fetch: its memory grows with the
// number of agents and origins, not with the log.
type Grader struct {
	opts     Options
	versions map[string][]Version // origin → versions, by From
	state    map[string]*fetchState
	// pending holds, per client, the redirect targets of robots.txt
	// fetches not yet requested: a request for one goes on with that
	// fetch rather than being a resource of its own.
	pending map[string]map[string]string // client → target route → origin
}

// fetchState is what the grader knows of one agent's view of one origin.
type fetchState struct {
	fetched bool
	at      time.Time
	res     *reference.Result
	label   string
	status  string
	// For a fetch in a bucket: the bucket's end, the other versions in
	// force during it (the fetch may have read any), and the state
	// before it (a request of the same bucket may have come first).
	until time.Time
	alts  []Version
	prev  *fetchState
}

// NewGrader returns a grader for the given robots.txt versions.
func NewGrader(versions []Version, opts Options) *Grader {
	g := &Grader{opts: opts, versions: map[string][]Version{}, state: map[string]*fetchState{}, pending: map[string]map[string]string{}}
	for _, v := range versions {
		if v.res == nil {
			v.res = reference.FromStatus(v.Status, v.Body, opts.Reference)
		}
		if v.res.Robots != nil {
			v.tokens = v.res.Robots.Agents()
		}
		g.versions[v.Origin] = append(g.versions[v.Origin], v)
	}
	for _, vs := range g.versions {
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].From.Before(vs[j].From) })
	}
	return g
}

// Grade judges a whole log, in order.
func Grade(log []Request, versions []Version, opts Options) []Judgement {
	g := NewGrader(versions, opts)
	out := make([]Judgement, len(log))
	for i, r := range log {
		out[i] = g.Judge(r)
	}
	return out
}

// versionAt returns the version of origin in force at t: the latest one
// from t or before, else the earliest (a file older than the first known
// version is taken to be that version). ok is false when none is known.
func (g *Grader) versionAt(origin string, t time.Time) (Version, bool) {
	vs := g.versions[origin]
	if len(vs) == 0 {
		vs = g.versions[""]
	}
	if len(vs) == 0 {
		return Version{}, false
	}
	i := sort.Search(len(vs), func(i int) bool { return vs[i].From.After(t) })
	if i == 0 {
		return vs[0], true
	}
	return vs[i-1], true
}

// OriginOf returns the origin of an absolute URL, "" for a path.
func OriginOf(u string) string {
	if !strings.Contains(u, "://") {
		return ""
	}
	o, err := reference.Origin(u)
	if err != nil {
		return ""
	}
	return o
}

// IsRobotsTxt reports whether u asks for robots.txt itself.
func IsRobotsTxt(u string) bool { return reference.PathQuery(u) == "/robots.txt" }

// Judge judges one request. Requests must come in time order.
func (g *Grader) Judge(r Request) Judgement {
	origin := OriginOf(r.URL)
	cur, known := g.versionAt(origin, r.Time)
	agent := g.agent(r.UserAgent, cur, known)
	client := agent
	if g.opts.Identity != nil {
		client = g.opts.Identity(r, agent)
	}
	key := client + " " + origin
	st := g.state[key]
	if st == nil {
		st = &fetchState{}
		g.state[key] = st
	}
	j := Judgement{Request: r, Agent: agent, Origin: origin}
	if from, ok := g.pendingFor(client, r.URL); ok {
		delete(g.pending[client], routeOf(r.URL))
		if IsRobotsTxt(r.URL) {
			// Also a fetch of this origin's own robots.txt.
			var own Judgement
			g.robotsFetch(st, r, cur, known, &own)
		}
		j.Tier = TierRobots
		j.Why = "a redirect of the robots.txt fetch of " + from
		g.redirect(client, from, r)
		return j
	}
	if IsRobotsTxt(r.URL) {
		g.robotsFetch(st, r, cur, known, &j)
		g.redirect(client, origin, r)
		return j
	}
	if r.Span > 0 || len(st.alts) > 0 || st.prev != nil && r.Time.Before(st.until) {
		// A bucket, or a request after a fetch of a bucket: either may
		// leave cases open.
		return g.judgeBucket(j, st)
	}
	g.judgeAt(&j, st, cur, known)
	return j
}

// judgeAt judges a request that is not a robots.txt fetch, at j's time,
// by the fetch state st and the version cur in force.
func (g *Grader) judgeAt(j *Judgement, st *fetchState, cur Version, known bool) {
	r, agent := j.Request, j.Agent
	if !known {
		j.Tier, j.Why = TierAllowed, "no robots.txt version is known for this origin"
		return
	}
	j.Before = !st.fetched
	if st.fetched {
		j.Copy, j.FetchedAt = st.label+" ("+st.status+")", st.at
	}
	switch {
	case !st.fetched:
		g.judgeUnfetched(r, agent, cur, j)
	case st.res.Info.Access == reference.NotReachable:
		j.Tier, j.Req, j.Version = TierViolation, "ACC-7", st.label
		j.Why = fmt.Sprintf("its robots.txt fetch at %s %s: the file was unreachable, so nothing of the site may be fetched until a later fetch succeeds", clock(st.at), st.status)
	case st.res.Info.Access == reference.NotAvailable:
		j.Tier, j.Req, j.Version = TierAllowed, "ACC-6", st.label
		j.Why = fmt.Sprintf("its robots.txt fetch at %s %s: unavailable, everything may be fetched", clock(st.at), st.status)
	default:
		g.judgeFetched(r, agent, st, cur, j)
	}
}

// agent picks the product token r is judged as.
func (g *Grader) agent(ua string, cur Version, known bool) string {
	var tokens []string
	if known {
		tokens = cur.tokens
	}
	if g.opts.Agent != nil {
		return g.opts.Agent(ua, tokens)
	}
	return NamedToken(ua, tokens)
}

// robotsFetch records a fetch of robots.txt: what the crawler learnt.
func (g *Grader) robotsFetch(st *fetchState, r Request, cur Version, known bool, j *Judgement) {
	j.Tier = TierRobots
	prev := *st
	prev.prev = nil
	st.prev, st.alts, st.until = nil, nil, time.Time{}
	if r.Span > 0 {
		st.prev, st.until = &prev, r.Time.Add(r.Span)
	}
	st.fetched, st.at = true, r.Time
	st.label = cur.Label
	st.status = statusText(r)
	switch {
	case r.Fault != "" || r.Status == 0:
		st.res = reference.FromStatus(0, nil, g.opts.Reference)
		st.res.Info.Why = "no response (" + orDefault(r.Fault, "network error") + "): unreachable, disallow all"
	case r.Status >= 200 && r.Status < 400:
		// For a redirect the file in force, as the reference reached it,
		// stands for the outcome of the whole fetch.
		st.res = versionResult(cur, known, g.opts.Reference)
		if r.Span > 0 {
			st.alts = g.changesIn(OriginOf(r.URL), r.Time, st.until)
		}
	default:
		st.res = reference.FromStatus(r.Status, nil, g.opts.Reference)
	}
	j.Version = st.label
	j.Why = st.res.Info.Why
	if len(st.alts) > 0 {
		j.Why += "; robots.txt changed inside the bucket, so this fetch may have read " + versionList(st)
	}
}

// pendingFor reports whether u is the pending redirect target of one of
// the client's robots.txt fetches, and of which origin's.
func (g *Grader) pendingFor(client, u string) (string, bool) {
	p := g.pending[client]
	if len(p) == 0 {
		return "", false
	}
	from, ok := p[routeOf(u)]
	return from, ok
}

// redirect notes the Location of a robots.txt redirect as pending.
func (g *Grader) redirect(client, origin string, r Request) {
	if r.Status < 300 || r.Status >= 400 || r.Location == "" {
		return
	}
	if g.pending[client] == nil {
		g.pending[client] = map[string]string{}
	}
	g.pending[client][routeOf(r.Location)] = origin
}

// versionResult is the file as served in the version; with no version
// known, an empty file.
func versionResult(v Version, known bool, opts reference.Options) *reference.Result {
	if !known {
		return reference.FromStatus(http.StatusOK, nil, opts)
	}
	return v.res
}

// judgeUnfetched judges a request made before any robots.txt fetch of its
// origin: by the file in force, with the grace for a copy fetched before
// the log began.
func (g *Grader) judgeUnfetched(r Request, agent string, cur Version, j *Judgement) {
	d := decide(cur.res, agent, r.URL)
	j.Decision, j.Version = &d, cur.Label
	if d.Allowed {
		j.Tier, j.Why = TierAllowed, "no robots.txt fetch of this origin came before it; the file in force allows it"
		return
	}
	if v, ok := g.graceVersion(r, agent); ok {
		j.Tier, j.Req, j.Version = TierGrace, "CACHE-2", v.Label
		j.Why = fmt.Sprintf("disallowed by the file in force, but allowed by %s, in force less than %s before; a copy of it may still be cached", v.Label, g.opts.Grace)
		return
	}
	j.Tier, j.Req = TierViolation, "ACC-2"
	j.Why = "disallowed by the file in force, and no robots.txt fetch of this origin came before it"
}

// graceVersion finds a version in force within the grace before r that
// allows it.
func (g *Grader) graceVersion(r Request, agent string) (Version, bool) {
	if g.opts.Grace <= 0 {
		return Version{}, false
	}
	origin := OriginOf(r.URL)
	vs := g.versions[origin]
	if len(vs) == 0 {
		vs = g.versions[""]
	}
	for i, v := range vs {
		inForceUntil := r.Time
		if i+1 < len(vs) {
			inForceUntil = vs[i+1].From
		}
		if r.Time.Sub(inForceUntil) > g.opts.Grace || v.From.After(r.Time) {
			continue
		}
		if d := decide(v.res, agent, r.URL); d.Allowed {
			return v, true
		}
	}
	return Version{}, false
}

// judgeFetched judges a request after a successful robots.txt fetch.
func (g *Grader) judgeFetched(r Request, agent string, st *fetchState, cur Version, j *Judgement) {
	d := decide(st.res, agent, r.URL)
	now := d
	if cur.res != st.res {
		now = decide(cur.res, agent, r.URL)
	}
	age := r.Time.Sub(st.at)
	stale := g.opts.Grace > 0 && age > g.opts.Grace
	j.Decision, j.Version = &d, st.label
	switch {
	case d.Allowed && now.Allowed:
		j.Tier, j.Why = TierAllowed, fmt.Sprintf("allowed by the copy fetched at %s", clock(st.at))
	case d.Allowed && !stale:
		j.Tier, j.Req = TierGrace, "CACHE-2"
		j.Why = fmt.Sprintf("disallowed by the file in force (%s), but allowed by the copy it fetched at %s, %s before: within the %s cache grace", cur.Label, clock(st.at), age.Round(time.Second), g.opts.Grace)
	case d.Allowed:
		j.Tier, j.Req, j.Decision, j.Version = TierViolation, "CACHE-2", &now, cur.Label
		j.Why = fmt.Sprintf("disallowed by the file in force; the copy it fetched at %s is %s old, past the %s a copy may be used", clock(st.at), age.Round(time.Second), g.opts.Grace)
	case now.Allowed:
		j.Tier, j.Decision, j.Version = TierAllowed, &now, cur.Label
		j.Why = "allowed by the file in force, though not by the copy it last fetched"
	default:
		j.Tier, j.Req = TierViolation, "ACC-2"
		j.Why = fmt.Sprintf("disallowed by the copy of robots.txt it fetched at %s", clock(st.at))
	}
}

// Decide applies the version to a URL for agent; "*" stands for a crawler
// that no group of the file names.
func (v *Version) Decide(agent, u string, opts reference.Options) reference.Decision {
	if v.res == nil {
		v.res = reference.FromStatus(v.Status, v.Body, opts)
	}
	return decide(v.res, agent, u)
}

// decide applies a fetched file to a URL. The agent "*" stands for a
// crawler that no group names.
func decide(res *reference.Result, agent, u string) reference.Decision {
	if agent == "*" {
		agent = unnamedToken(res)
	}
	d, err := res.Decide(agent, u)
	if err != nil {
		return reference.Decision{Allowed: true, Path: reference.PathQuery(u)}
	}
	return d
}

// unnamedToken returns a product token that no group of the file names.
func unnamedToken(res *reference.Result) string {
	tok := "unnamed-crawler"
	if res.Robots == nil {
		return tok
	}
	named := map[string]bool{}
	for _, a := range res.Robots.Agents() {
		named[strings.ToLower(a)] = true
	}
	for named[tok] {
		tok += "-x"
	}
	return tok
}

// NamedToken returns the product token among tokens that the User-Agent
// header ua names: the longest that occurs in it as a whole word (not
// inside a longer run of letters, '_' and '-'), ignoring case; "*" when
// none does.
func NamedToken(ua string, tokens []string) string {
	best := "*"
	low := strings.ToLower(ua)
	for _, t := range tokens {
		lt := strings.ToLower(t)
		if lt == "*" || lt == "" || len(lt) <= len(best) && best != "*" {
			continue
		}
		if containsWord(low, lt) {
			best = t
		}
	}
	return best
}

func containsWord(s, w string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		a, b := i+k, i+k+len(w)
		if (a == 0 || !reference.IsProductToken(s[a-1:a])) && (b == len(s) || !reference.IsProductToken(s[b:b+1])) {
			return true
		}
		i = a + 1
	}
}

func statusText(r Request) string {
	if r.Fault != "" {
		return "ended in a " + r.Fault
	}
	if r.Status == 0 {
		return "got no response"
	}
	return fmt.Sprintf("answered %d", r.Status)
}

func clock(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// sameResource reports whether two URLs ask for the same resource: the
// same origin and the same path and query as the reference normalises
// them for matching (escapes of unreserved characters decoded, hex digits
// in one case), the fragment dropped. Crawlers escape differently.
func sameResource(a, b string) bool {
	return OriginOf(a) == OriginOf(b) && matchedPath(a) == matchedPath(b)
}

// noRules is an empty file: its decisions carry the normalised path.
var noRules = reference.ParseString("", reference.RFC())

// matchedPath is u's path and query as the reference matches it.
func matchedPath(u string) string {
	d, err := noRules.Decide("reptest", u)
	if err != nil {
		return reference.PathQuery(u)
	}
	return d.Path
}
