package reference

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// ErrNotHTTP is returned for URLs whose scheme is not http or https: RFC
// 9309 §2.3 defines the access method for those only.
var ErrNotHTTP = errors.New("reference: not an http or https URL")

// PathQuery returns the part of a URI that rules are matched against: its
// path and query (MATCH-11), without scheme, authority and fragment. It
// always starts with "/"; a URI without a path gives "/". It accepts
// anything, including URIs that net/url would refuse, so that a verdict
// never depends on a URL parser's strictness.
func PathQuery(uri string) string {
	rest, slash := pathQuery(uri, false)
	if slash {
		return "/" + rest
	}
	return rest
}

// pathQuery is PathQuery without the allocation: it returns the path and
// query, and whether a "/" must be put before them. With semicolon set, a
// ";" also ends the authority, as in Google's parser.
func pathQuery(uri string, semicolon bool) (rest string, slash bool) {
	rest = uri
	if strings.HasPrefix(rest, "//") {
		// A network-path reference: an authority follows.
		rest = skipAuthority(rest[2:], semicolon)
	} else if i := strings.Index(rest, "://"); i >= 0 && !strings.ContainsAny(rest[:i], "/?#;") {
		rest = skipAuthority(rest[i+3:], semicolon)
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	return rest, rest == "" || rest[0] != '/'
}

// skipAuthority returns s from the end of the authority on: the first "/"
// or "?" (RFC 3986 §3.2: a ";" may stand in the user information and in a
// host name), or also ";" when semicolon is set. It returns "" when the
// authority runs to the end or to a fragment.
func skipAuthority(s string, semicolon bool) string {
	ends := "/?#"
	if semicolon {
		ends = "/?#;"
	}
	i := strings.IndexAny(s, ends)
	if i < 0 || s[i] == '#' {
		return ""
	}
	return s[i:]
}

// RobotsURL returns the URL of the robots.txt file that governs pageURL
// (§2.3, ACC-1): "/robots.txt" at the top of the URL's authority. The scheme
// and host are lower-cased, the default port dropped, the user information
// removed; other ports and schemes are separate authorities.
func RobotsURL(pageURL string) (string, error) {
	origin, err := Origin(pageURL)
	if err != nil {
		return "", err
	}
	return origin + "/robots.txt", nil
}

// Origin returns "scheme://host[:port]" of an http or https URL, normalised
// as RobotsURL describes. Two URLs with the same origin share a robots.txt.
// Only the scheme and authority are read: a path that a strict URL parser
// would refuse ("/100%") does not stop a crawler from finding robots.txt.
func Origin(pageURL string) (string, error) {
	head := pageURL
	if i := strings.Index(head, "://"); i >= 0 {
		if j := strings.IndexAny(head[i+3:], "/?#"); j >= 0 {
			head = head[:i+3+j]
		}
	}
	u, err := url.Parse(head)
	if err != nil {
		return "", fmt.Errorf("reference: bad URL %q: %w", pageURL, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("%w: %q", ErrNotHTTP, pageURL)
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return "", fmt.Errorf("reference: URL %q has no host", pageURL)
	}
	port := u.Port()
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		return scheme + "://" + net.JoinHostPort(strings.Trim(host, "[]"), port), nil
	}
	return scheme + "://" + host, nil
}
