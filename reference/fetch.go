package reference

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Access is the outcome of fetching robots.txt (§2.3.1).
type Access uint8

const (
	// Success: a file was downloaded and its rules apply (§2.3.1.1, ACC-2).
	Success Access = iota
	// NotAvailable: the server says there is no file (4xx, or too many
	// redirects); any URL may be accessed (§2.3.1.3, ACC-5, ACC-6).
	NotAvailable
	// NotReachable: the server or network failed (5xx, connection error,
	// timeout, cut body); no URL may be accessed (§2.3.1.4, ACC-7).
	NotReachable
)

var accessNames = [...]string{"success", "unavailable", "unreachable"}

func (a Access) String() string {
	if int(a) < len(accessNames) {
		return accessNames[a]
	}
	return "unknown"
}

// Hop is one HTTP request of a fetch.
type Hop struct {
	URL      string
	Status   int    // 0 when no response came
	Location string // the redirect target, resolved, for 3xx
}

// FetchInfo describes how a robots.txt file was obtained; decisions made by
// a Fetcher carry it in their trace.
type FetchInfo struct {
	RobotsURL string
	Access    Access
	Status    int   // the final response's status; 0 when none
	Hops      []Hop // every request, in order (redirects: ACC-3)
	Bytes     int   // body bytes kept
	Truncated bool  // the body was longer than the cap; its end was ignored
	Error     string
	// Why explains the access outcome in a sentence.
	Why string
	// FetchedAt is when the response was received.
	FetchedAt time.Time
	// FromCache is set when the decision used a cached copy; Age is then
	// its age.
	FromCache bool
	Age       time.Duration
}

func (f *FetchInfo) String() string {
	s := fmt.Sprintf("%s %s: %s", f.RobotsURL, f.Access, f.Why)
	if f.FromCache {
		s += fmt.Sprintf(" (cached copy, age %s)", f.Age)
	}
	return s
}

// Result is a fetched robots.txt file: how it was obtained, and the parsed
// file when the fetch succeeded.
type Result struct {
	Info   FetchInfo
	Robots *Robots // nil unless Info.Access is Success
	opts   Options // the options of the fetch, for Decide's agent check
}

// Decide applies the result to one URL: the parsed rules on success, allow
// on NotAvailable and disallow on NotReachable.
func (res *Result) Decide(agent, url string) (Decision, error) {
	if !res.opts.validAgent(agent) {
		return Decision{}, fmt.Errorf("%w: %q", ErrInvalidToken, agent)
	}
	info := res.Info
	switch res.Info.Access {
	case Success:
		d, err := res.Robots.Decide(agent, url)
		d.Fetch = &info
		return d, err
	case NotAvailable:
		return Decision{Allowed: true, Reason: Unavailable, Path: PathQuery(url), Fetch: &info}, nil
	default:
		return Decision{Allowed: false, Reason: Unreachable, Path: PathQuery(url), Fetch: &info}, nil
	}
}

// FromStatus interprets a response that the caller fetched: status code
// and body (§2.3.1). Redirects cannot be followed here; a 3xx status is
// treated as unavailable, as after too many redirects.
func FromStatus(status int, body []byte, opts Options) *Result {
	res := &Result{Info: FetchInfo{Status: status}, opts: opts}
	res.Info.Access, res.Info.Why = classifyStatus(status, &opts)
	if res.Info.Access == Success {
		res.Robots = Parse(body, opts)
		res.Info.Bytes = res.Robots.ParsedBytes()
		res.Info.Truncated = res.Robots.Truncated()
	}
	return res
}

// classifyStatus maps a final (non-redirect) status code to its access
// outcome (§2.3.1.2–2.3.1.4).
func classifyStatus(status int, o *Options) (Access, string) {
	switch {
	case status >= 200 && status < 300:
		return Success, fmt.Sprintf("status %d: the rules apply", status)
	case status == http.StatusTooManyRequests && o.TooManyRequestsUnreachable:
		return NotReachable, "status 429 is treated as a server error: disallow all"
	case status >= 400 && status < 500 && o.ClientErrorDisallows:
		return NotReachable, fmt.Sprintf("status %d read as disallow all (misreading 4xx-disallows)", status)
	case status >= 500 && status < 600 && o.ServerErrorAllows:
		return NotAvailable, fmt.Sprintf("status %d read as allow all (misreading 5xx-allows)", status)
	case status >= 400 && status < 500:
		return NotAvailable, fmt.Sprintf("status %d: unavailable, allow all", status)
	case status >= 500 && status < 600:
		return NotReachable, fmt.Sprintf("status %d: unreachable, disallow all", status)
	case status >= 300 && status < 400:
		return NotAvailable, fmt.Sprintf("status %d without a usable Location: unavailable, allow all", status)
	}
	return NotReachable, fmt.Sprintf("status %d is outside the defined classes: unreachable, disallow all", status)
}

// Fetch downloads robotsURL with client (nil: http.DefaultClient) and
// interprets the outcome (§2.3): redirects are followed up to
// opts.MaxRedirects, across hosts too, and the rules then apply to the
// initial authority (ACC-3, ACC-4); at most the body cap is kept, however
// long the body or whatever Content-Length says (LIM-2). It never returns
// nil; failures are in Result.Info.
func Fetch(ctx context.Context, client *http.Client, robotsURL string, opts Options) *Result {
	if client == nil {
		client = http.DefaultClient
	}
	// Redirects are followed here, not by the client, so that each hop is
	// counted and recorded.
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

	res := &Result{Info: FetchInfo{RobotsURL: robotsURL}, opts: opts}
	info := &res.Info
	seen := map[string]bool{}
	target := robotsURL
	for hop := 0; ; hop++ {
		if seen[target] {
			info.Access, info.Why = NotAvailable, fmt.Sprintf("redirect loop back to %s: unavailable, allow all", target)
			return res
		}
		seen[target] = true
		h := Hop{URL: target}
		resp, body, err := get(ctx, &c, target, &opts)
		if resp != nil {
			h.Status = resp.StatusCode
			info.Status = resp.StatusCode
		}
		if err != nil {
			info.Hops = append(info.Hops, h)
			info.Access, info.Error = NotReachable, err.Error()
			info.Why = "network error: unreachable, disallow all: " + err.Error()
			if opts.UnreachableAllows {
				info.Access = NotAvailable
				info.Why = "network error read as allow all (misreading unreachable-allows): " + err.Error()
			}
			return res
		}
		if resp.StatusCode >= 300 && resp.StatusCode < 400 {
			if loc := resp.Header.Get("Location"); loc != "" {
				next, perr := resolve(target, loc)
				if perr == nil {
					h.Location = next
					info.Hops = append(info.Hops, h)
					if hop >= opts.MaxRedirects {
						info.Access = NotAvailable
						info.Why = fmt.Sprintf("more than %d redirects: unavailable, allow all", opts.MaxRedirects)
						return res
					}
					target = next
					continue
				}
			}
		}
		info.Hops = append(info.Hops, h)
		info.Access, info.Why = classifyStatus(resp.StatusCode, &opts)
		if info.Access == Success {
			// Parse no more than the cap; the byte past it, if read, tells
			// Parse whether the cap cut a line in two.
			popts := opts
			if limit := opts.bodyCap(); limit > 0 && (popts.MaxBytes == 0 || limit < popts.MaxBytes) {
				popts.MaxBytes = limit
			}
			res.Robots = Parse(body, popts)
			info.Bytes = res.Robots.ParsedBytes()
			info.Truncated = res.Robots.Truncated()
			if len(info.Hops) > 1 {
				info.Why += fmt.Sprintf(" (reached through %d redirects)", len(info.Hops)-1)
			}
		}
		return res
	}
}

// get makes one request. For a 2xx response it reads the body up to the cap
// plus one byte, which tells a long body from one of exactly the cap; a
// body that ends early or stalls is an error.
func get(ctx context.Context, c *http.Client, target string, o *Options) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return resp, nil, nil
	}
	var r io.Reader = resp.Body
	if limit := o.bodyCap(); limit > 0 {
		r = io.LimitReader(resp.Body, int64(limit)+1)
	}
	body, err := io.ReadAll(r)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("body cut short after %d bytes: %w", len(body), err)
		}
		return resp, nil, err
	}
	return resp, body, nil
}

// resolve resolves a Location header against the URL it came from.
func resolve(base, loc string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	l, err := url.Parse(strings.TrimSpace(loc))
	if err != nil {
		return "", err
	}
	u := b.ResolveReference(l)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", ErrNotHTTP
	}
	u.Fragment = ""
	return u.String(), nil
}
