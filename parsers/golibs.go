package parsers

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/jimsmart/grobotstxt"
	"github.com/temoto/robotstxt"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// Module paths and the versions go.mod requires, reported when the build
// carries no module information.
const (
	grobotstxtModule  = "github.com/jimsmart/grobotstxt"
	grobotstxtVersion = "v1.0.3"
	temotoModule      = "github.com/temoto/robotstxt"
	temotoVersion     = "v1.1.2"
)

// moduleVersion returns the version of module path linked into the binary,
// or fallback when the build information does not say.
func moduleVersion(path, fallback string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return fallback
	}
	for _, d := range bi.Deps {
		if d.Path != path {
			continue
		}
		if d.Replace != nil && d.Replace.Version != "" {
			return d.Replace.Version
		}
		if d.Version != "" && d.Version != "(devel)" {
			return d.Version
		}
	}
	return fallback
}

// Grobotstxt adapts github.com/jimsmart/grobotstxt, a Go port of Google's
// C++ robots.txt parser. It takes parse requests only. It keeps no state
// and is safe for concurrent use.
//
// The library takes the whole URL and answers "not allowed" when net/url
// cannot parse it; the adapter passes the URL as it is, so such checks show
// up as disallow, which is what a crawler using the library would obey.
type Grobotstxt struct{}

// NewGrobotstxt returns the grobotstxt adapter.
func NewGrobotstxt() *Grobotstxt { return &Grobotstxt{} }

// Info implements cases.Parser.
func (*Grobotstxt) Info() result.Info {
	return result.Info{
		Name:         "grobotstxt",
		Version:      moduleVersion(grobotstxtModule, grobotstxtVersion),
		Capabilities: []result.Capability{result.CapParse},
	}
}

// Check implements cases.Parser.
func (*Grobotstxt) Check(ctx context.Context, req cases.Request) (v result.Verdict, err error) {
	if err := grobotCapable(req); err != nil {
		return "", err
	}
	defer recoverPanic("grobotstxt", &err)
	return result.VerdictOf(grobotstxt.AgentAllowed(string(req.Robots), req.Agent, req.URL)), nil
}

// Temoto adapts github.com/temoto/robotstxt. It takes parse requests
// (FromBytes) and status requests (FromStatusAndBytes). The library matches
// rules against a path and query, not a URL, so the adapter passes
// reference.PathQuery of the check's URL.
//
// The library refuses a whole file when any line fails to parse, for
// example a rule or a Crawl-delay before the first User-agent line, or a
// Crawl-delay that is not a number; FromStatusAndBytes also refuses a status
// outside 2xx, 4xx and 5xx. The adapter answers result.Reject for those:
// it is the library's answer, not a failure of the run. It keeps no state
// and is safe for concurrent use.
type Temoto struct{}

// NewTemoto returns the temoto adapter.
func NewTemoto() *Temoto { return &Temoto{} }

// Info implements cases.Parser.
func (*Temoto) Info() result.Info {
	return result.Info{
		Name:         "temoto",
		Version:      moduleVersion(temotoModule, temotoVersion),
		Capabilities: []result.Capability{result.CapParse, result.CapStatus},
	}
}

// Check implements cases.Parser.
func (t *Temoto) Check(ctx context.Context, req cases.Request) (result.Verdict, error) {
	data, err := t.parse(req)
	switch {
	case err != nil:
		return "", err
	case data == nil:
		return result.Reject, nil
	}
	return temotoTest(data, req.Agent, req.URL)
}

// Concurrent implements cases.Concurrent: the adapter keeps no state.
func (*Grobotstxt) Concurrent() bool { return true }

// Concurrent implements cases.Concurrent: the adapter keeps no state.
func (*Temoto) Concurrent() bool { return true }

// recoverPanic turns a panic of an in-process library into an error of the
// check, the way a crash of an external program is one.
func recoverPanic(name string, err *error) {
	if x := recover(); x != nil {
		*err = fmt.Errorf("%s panicked: %v", name, x)
	}
}

// CheckBatch implements cases.Batcher: the body is parsed once. The
// library has no parsed form (Google's design: every decision parses the
// body), but its parser reports what it reads to a grobotstxt.ParseHandler
// and its matcher is one: the adapter records the parse's events once and
// replays them to a matcher per question, which is what AgentAllowed does
// on a parse of its own. The matcher learns the question from a call on an
// empty body (it keeps the agent and path of its last call, and the empty
// body also tells a URL net/url refuses, for which the library answers
// "not allowed" before parsing anything).
func (g *Grobotstxt) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	return answerAll(g.prepare(req), qs)
}

// prepare implements preparer: the parse's events, recorded once.
func (*Grobotstxt) prepare(req cases.Request) answerer {
	if err := grobotCapable(req); err != nil {
		return func(cases.Question) (result.Verdict, error) { return "", err }
	}
	events, err := recordParse(string(req.Robots))
	return func(q cases.Question) (result.Verdict, error) {
		if err != nil {
			return "", err
		}
		return events.decide(q.Agent, q.URL)
	}
}

// grobotCapable is the error of a request grobotstxt cannot take, nil
// for a parse request.
func grobotCapable(req cases.Request) error {
	if k := req.Kind(); k != result.CapParse {
		return fmt.Errorf("grobotstxt: %w: %s", errCapability, k)
	}
	return nil
}

// parseEvent is one call the library's parser made on its handler: kind
// is 'u' (user-agent), 'a' (allow), 'd' (disallow), 's' (sitemap) or 'x'
// (another key, in action).
type parseEvent struct {
	kind          byte
	line          int
	action, value string
}

// parseEvents records a parse; it implements grobotstxt.ParseHandler.
type parseEvents []parseEvent

func recordParse(body string) (events parseEvents, err error) {
	defer recoverPanic("grobotstxt", &err)
	grobotstxt.Parse(body, &events)
	return events, nil
}

func (e *parseEvents) HandleRobotsStart() { *e = (*e)[:0] }
func (e *parseEvents) HandleRobotsEnd()   {}
func (e *parseEvents) HandleUserAgent(line int, v string) {
	*e = append(*e, parseEvent{kind: 'u', line: line, value: v})
}
func (e *parseEvents) HandleAllow(line int, v string) {
	*e = append(*e, parseEvent{kind: 'a', line: line, value: v})
}
func (e *parseEvents) HandleDisallow(line int, v string) {
	*e = append(*e, parseEvent{kind: 'd', line: line, value: v})
}
func (e *parseEvents) HandleSitemap(line int, v string) {
	*e = append(*e, parseEvent{kind: 's', line: line, value: v})
}
func (e *parseEvents) HandleUnknownAction(line int, action, v string) {
	*e = append(*e, parseEvent{kind: 'x', line: line, action: action, value: v})
}

// decide replays the recorded parse to a matcher set to agent and url
// and returns its verdict, as AgentAllowed would on the body.
func (e parseEvents) decide(agent, url string) (v result.Verdict, err error) {
	defer recoverPanic("grobotstxt", &err)
	m := grobotstxt.NewRobotsMatcher()
	m.MatchStrategy = quickMatch{}
	if !m.AgentAllowed("", agent, url) {
		return result.Disallow, nil // the URL does not parse
	}
	m.HandleRobotsStart()
	for _, ev := range e {
		switch ev.kind {
		case 'u':
			m.HandleUserAgent(ev.line, ev.value)
		case 'a':
			m.HandleAllow(ev.line, ev.value)
		case 'd':
			m.HandleDisallow(ev.line, ev.value)
		case 's':
			m.HandleSitemap(ev.line, ev.value)
		default:
			m.HandleUnknownAction(ev.line, ev.action, ev.value)
		}
	}
	m.HandleRobotsEnd()
	return result.VerdictOf(!m.Disallowed()), nil
}

// quickMatch is the library's longest-match strategy (a matching rule's
// priority is its length, a rule that does not match has -1) with the
// same answers, found sooner: a rule without "*" matches when it is a
// prefix of the path ("$" is special only at the end, where it asks for
// the whole path), and a rule whose text before its first "*" is not a
// prefix of the path cannot match. Only the rest go to the library's
// grobotstxt.Matches, which allocates a position per octet of the path for
// every rule it is given (most of a large file's cost per question).
type quickMatch struct{}

func (quickMatch) MatchAllow(path, pattern string) int    { return matchLength(path, pattern) }
func (quickMatch) MatchDisallow(path, pattern string) int { return matchLength(path, pattern) }

func matchLength(path, pattern string) int {
	star := strings.IndexByte(pattern, '*')
	switch {
	case star >= 0:
		if !strings.HasPrefix(path, pattern[:star]) || !grobotstxt.Matches(path, pattern) {
			return -1
		}
	case strings.HasSuffix(pattern, "$"):
		if path != pattern[:len(pattern)-1] {
			return -1
		}
	case !strings.HasPrefix(path, pattern):
		return -1
	}
	return len(pattern)
}

// wildcardWeight is what bounds the library's matching of one question
// on the recorded file: grobotstxt.Matches steps through at most every
// octet of the path (plus one) for every octet of a rule with "*"; the
// rules without are prefix tests, and an Allow rule ending in
// "/index.htm…" that does not match is tried again as a shorter one, so
// Allow rules count twice.
func (e parseEvents) wildcardWeight() int {
	w := 0
	for _, ev := range e {
		if (ev.kind == 'a' || ev.kind == 'd') && strings.IndexByte(ev.value, '*') >= 0 {
			w += len(ev.value) + 1
			if ev.kind == 'a' {
				w += len(ev.value) + 1
			}
		}
	}
	return w
}

// CheckBatch implements cases.Batcher: the body is parsed once.
func (t *Temoto) CheckBatch(ctx context.Context, req cases.Request, qs []cases.Question) ([]result.Verdict, []error) {
	return answerAll(t.prepare(req), qs)
}

// prepare implements preparer: the library's parse, made once.
func (t *Temoto) prepare(req cases.Request) answerer {
	data, err := t.parse(req)
	return func(q cases.Question) (result.Verdict, error) {
		switch {
		case err != nil:
			return "", err
		case data == nil:
			return result.Reject, nil
		}
		return temotoTest(data, q.Agent, q.URL)
	}
}

// parse parses the request's body as the library does; nil data means the
// library refused the file.
func (*Temoto) parse(req cases.Request) (data *robotstxt.RobotsData, err error) {
	defer recoverPanic("temoto", &err)
	switch k := req.Kind(); k {
	case result.CapParse:
		data, err = robotstxt.FromBytes(req.Robots)
	case result.CapStatus:
		data, err = robotstxt.FromStatusAndBytes(req.Status, req.Robots)
	default:
		return nil, fmt.Errorf("temoto: %w: %s", errCapability, k)
	}
	if err != nil {
		return nil, nil
	}
	return data, nil
}

// temotoTest decides one question on a parsed file.
func temotoTest(data *robotstxt.RobotsData, agent, url string) (v result.Verdict, err error) {
	defer recoverPanic("temoto", &err)
	return result.VerdictOf(data.TestAgent(reference.PathQuery(url), agent)), nil
}
