package cases

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/reptest/reptest/result"
)

// Request is one check put to a parser.
type Request struct {
	// Case and Profile identify the case; a parser that implements
	// several option sets may choose by Profile.
	Case    string
	Profile string

	Agent string
	URL   string

	// Robots is the body (parse and status requests).
	Robots []byte
	// Status is the HTTP status (status requests); 0 for parse requests.
	Status int

	// RobotsURL and Client are set for fetch requests; use one or the
	// other. RobotsURL is a loopback URL ("http://127.0.0.1:PORT/robots.txt")
	// that serves the case's robots.txt to any HTTP client, as
	// http.Get(req.RobotsURL) would fetch it; external programs get it.
	// Client reaches every host of the case by its own name: an in-process
	// parser that computes the robots.txt URL of req.URL itself fetches
	// that URL ("http://a.test/robots.txt") with Client. Client does not
	// serve RobotsURL.
	RobotsURL string
	Client    *http.Client

	// Session and Now are set for timeline requests (CapClock): checks
	// with the same Session share one cache, and Now is the time of the
	// request.
	Session string
	Now     time.Time
}

// Kind returns "parse", "status" or "fetch": what the request asks.
func (r *Request) Kind() result.Capability {
	switch {
	case r.RobotsURL != "":
		return result.CapFetch
	case r.Status != 0:
		return result.CapStatus
	}
	return result.CapParse
}

// Parser is a robots.txt parser under test. Check must be safe to call
// from one goroutine at a time; the runner never calls it concurrently.
// An error means the parser failed to answer (a crash, a hang, a garbled
// reply); a parser that refuses the file answers Reject.
type Parser interface {
	Info() result.Info
	Check(ctx context.Context, req Request) (result.Verdict, error)
}

// Closer is implemented by parsers that hold resources (processes).
type Closer interface {
	Close() error
}

// Stderr is implemented by parsers that keep the standard error of an
// external program; the runner attaches its tail to error outcomes.
type Stderr interface {
	StderrTail() string
}

// Bytes returns the generated body.
func (g *Generator) Bytes() []byte {
	var b strings.Builder
	b.Grow(g.Size())
	g.WriteTo(&b)
	return []byte(b.String())
}

// Size returns the length of the generated body.
func (g *Generator) Size() int {
	n := len(g.Prefix)
	if g.Repeat != "" && g.UntilBytes > n {
		k := (g.UntilBytes - n + len(g.Repeat) - 1) / len(g.Repeat)
		n += k * len(g.Repeat)
	}
	return n + len(g.Suffix)
}

// WriteTo writes the generated body to w: Prefix, then Repeat as often as
// it takes for the body to reach UntilBytes, then Suffix.
func (g *Generator) WriteTo(w io.Writer) (int64, error) {
	var n int64
	write := func(s string) error {
		k, err := io.WriteString(w, s)
		n += int64(k)
		return err
	}
	if err := write(g.Prefix); err != nil {
		return n, err
	}
	if g.Repeat != "" {
		// Write in chunks so that a 50 MiB body is not held at once.
		chunk := strings.Repeat(g.Repeat, max(1, 64*1024/len(g.Repeat)))
		for int(n) < g.UntilBytes {
			s := chunk
			if need := g.UntilBytes - int(n); need < len(s) {
				reps := (need + len(g.Repeat) - 1) / len(g.Repeat)
				s = chunk[:reps*len(g.Repeat)]
			}
			if err := write(s); err != nil {
				return n, err
			}
		}
	}
	err := write(g.Suffix)
	return n, err
}

// SessionEnder is implemented by parsers with CapClock: the runner calls
// EndSession after the last step of a timeline case.
type SessionEnder interface {
	EndSession(id string)
}

// UsageReporter is implemented by parsers with CapUsage. For the request's
// body, agent and URL it returns the usage preference of each category
// asked: "y", "n" or "unknown" (reference.Usage). A category it cannot
// answer is left out.
type UsageReporter interface {
	Usage(ctx context.Context, req Request, categories []string) (map[string]string, error)
}

// Question is one (agent, URL) pair asked about a body.
type Question struct {
	Agent string
	URL   string
}

// Batcher is implemented by parsers that decide many questions about one
// body with a single parse. req carries the body (Robots), Status, Case and
// Profile; its Agent and URL are unused. CheckBatch returns one verdict and
// one error per question, in the order of qs; an error that concerns the
// whole batch (a crash, a hang) is returned in every position. The
// differential engine uses it when present, and Check otherwise, so a
// parser's answers must be the same either way.
type Batcher interface {
	CheckBatch(ctx context.Context, req Request, qs []Question) ([]result.Verdict, []error)
}

// Concurrent is implemented by parsers that may be asked from several
// goroutines at once, each about a different case: in-process parsers
// that keep no state, or keep it per session under a lock. Run runs the
// cases of such parsers in parallel.
type Concurrent interface {
	Concurrent() bool
}

// Detailer is implemented by parsers that can say why they answered as
// they did (the protocol's optional "detail"): CheckDetail is Check that
// also returns the parser's own explanation of a Reject verdict or of an
// error answer, "" when it gave none. The runner records it in
// Result.ParserDetail.
type Detailer interface {
	CheckDetail(ctx context.Context, req Request) (result.Verdict, string, error)
}
