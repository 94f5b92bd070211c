package accesslog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/result"
)

// MaxGraphQL bounds the size of a Cloudflare GraphQL response read; the
// API returns at most 10,000 groups a query, far less.
const MaxGraphQL = 256 << 20

// graphQLGroup is one group of an httpRequestsAdaptiveGroups answer.
type graphQLGroup struct {
	Count      *int `json:"count"`
	Dimensions *struct {
		DatetimeHour   string          `json:"datetimeHour"`
		DatetimeMinute string          `json:"datetimeMinute"`
		Path           string          `json:"clientRequestPath"`
		Query          string          `json:"clientRequestQuery"`
		UserAgent      string          `json:"userAgent"`
		Verified       string          `json:"verifiedBotCategory"`
		Status         json.RawMessage `json:"edgeResponseStatus"`
		Method         string          `json:"clientRequestHTTPMethodName"`
	} `json:"dimensions"`
}

// readGraphQL reads the JSON answer of a Cloudflare GraphQL Analytics
// query of httpRequestsAdaptiveGroups: data.viewer.zones[], each holding
// one list of groups under the query's name or alias. Each group becomes
// a bucket of requests (crawl.Request.Span, Count), in time order, a
// robots.txt fetch before the other requests of its bucket (a bucket
// cannot tell their order; the grader judges both). Groups that cannot be
// read are returned as errors, "line" being the group's number.
func readGraphQL(r io.Reader, name string) ([]crawl.Request, []result.LineError, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxGraphQL+1))
	if err != nil {
		return nil, nil, err
	}
	if len(body) > MaxGraphQL {
		return nil, nil, fmt.Errorf("larger than %d bytes", MaxGraphQL)
	}
	var doc struct {
		Data *struct {
			Viewer struct {
				Zones []map[string]json.RawMessage `json:"zones"`
			} `json:"viewer"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, nil, fmt.Errorf("not a GraphQL answer: %w", err)
	}
	if len(doc.Errors) > 0 {
		return nil, nil, fmt.Errorf("the answer holds errors: %s", doc.Errors[0].Message)
	}
	if doc.Data == nil || len(doc.Data.Viewer.Zones) == 0 {
		return nil, nil, errors.New("no data.viewer.zones in the answer: query httpRequestsAdaptiveGroups of a zone (see the README)")
	}
	var out []crawl.Request
	var bad []result.LineError
	n := 0
	for _, zone := range doc.Data.Viewer.Zones {
		for _, raw := range zone {
			var groups []graphQLGroup
			if json.Unmarshal(raw, &groups) != nil {
				continue // not a list of groups
			}
			for _, g := range groups {
				n++
				req, err := graphQLRequest(g)
				if err != nil {
					bad = append(bad, result.LineError{File: name, Line: n, Msg: "group " + strconv.Itoa(n) + ": " + err.Error()})
					continue
				}
				req.Source = fmt.Sprintf("%s:group %d", name, n)
				out = append(out, req)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b crawl.Request) int {
		if c := a.Time.Compare(b.Time); c != 0 {
			return c
		}
		ra, rb := crawl.IsRobotsTxt(a.URL), crawl.IsRobotsTxt(b.URL)
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	return out, bad, nil
}

// graphQLRequest turns a group into a bucket of requests.
func graphQLRequest(g graphQLGroup) (crawl.Request, error) {
	var r crawl.Request
	d := g.Dimensions
	switch {
	case d == nil:
		return r, errors.New("no dimensions")
	case g.Count == nil || *g.Count < 0:
		return r, errors.New("no count")
	case d.Path == "":
		return r, errors.New("no dimensions.clientRequestPath")
	}
	at, span := d.DatetimeMinute, time.Minute
	if at == "" {
		at, span = d.DatetimeHour, time.Hour
	}
	if at == "" {
		return r, errors.New("no dimensions.datetimeHour or datetimeMinute")
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return r, fmt.Errorf("time %.60q is not RFC 3339", at)
	}
	r.Time, r.Span, r.Count = t.UTC(), span, *g.Count
	r.URL, r.Method, r.UserAgent, r.Verified = d.Path, d.Method, d.UserAgent, d.Verified
	if d.Query != "" {
		r.URL += "?" + strings.TrimPrefix(d.Query, "?")
	}
	if len(d.Status) > 0 && string(d.Status) != "null" {
		if r.Status, err = strconv.Atoi(strings.Trim(string(d.Status), `"`)); err != nil {
			return r, fmt.Errorf("edgeResponseStatus %.20s is not a number", d.Status)
		}
	}
	return r, nil
}
