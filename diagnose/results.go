package diagnose

import (
	"fmt"
	"slices"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// FromResults turns the results of reptest run or reptest crawl into
// evidence: each result of a check with a verdict becomes a question on
// its case's body (a plain case's body; an HTTP case's one robots.txt
// response of the check's origin, with its status, when it is not a
// redirect). Timeline cases, redirects, generated bodies and the access
// checks reptest crawl adds after a case's own checks are left out. Parsers are in the order they first appear; a question's Key is
// QuestionKey(case, check).
func FromResults(cs []cases.Case, results []result.Result) *Evidence {
	ev := &Evidence{}
	byCase := make(map[string]*cases.Case, len(cs))
	for i := range cs {
		byCase[cs[i].ID] = &cs[i]
	}
	col := map[string]int{}
	for _, r := range results {
		if _, ok := col[r.Parser]; !ok {
			col[r.Parser] = len(ev.Parsers)
			ev.Parsers = append(ev.Parsers, r.Parser)
		}
	}
	bodies := map[string]int{} // case and origin → body
	at := map[string]int{}     // question key → question
	for _, r := range results {
		c := byCase[r.Case]
		// Checks past the case's own are reptest crawl's access checks
		// (ACC-1, ACC-10: which requests came first), whose verdicts are
		// no reading of the file.
		if c == nil || !known(r.Verdict) || r.Check >= len(c.AllChecks()) {
			continue
		}
		key := QuestionKey(r.Case, r.Check)
		q, ok := at[key]
		if !ok {
			b, ok := bodyOf(c, r.URL, bodies, ev)
			if !ok {
				continue
			}
			q = len(ev.Questions)
			at[key] = q
			ev.Questions = append(ev.Questions, Question{Body: b, Agent: r.Agent, URL: r.URL,
				Verdicts: make([]result.Verdict, len(ev.Parsers)), Key: key})
		}
		ev.Questions[q].Verdicts[col[r.Parser]] = r.Verdict
	}
	return ev
}

// QuestionKey is the Key of the question of one check of a case.
func QuestionKey(caseID string, check int) string { return fmt.Sprintf("%s#%d", caseID, check) }

// bodyOf returns the body a check of c on url is asked of, adding it to
// ev the first time.
func bodyOf(c *cases.Case, url string, bodies map[string]int, ev *Evidence) (int, bool) {
	if len(c.Timeline) > 0 {
		return 0, false
	}
	b := Body{Robots: c.Robots, Status: 200, Profile: c.Profile, Source: "case:" + c.ID}
	key := c.ID
	if len(c.Fetch) > 0 {
		robotsURL, err := reference.RobotsURL(url)
		if err != nil {
			return 0, false
		}
		i := slices.IndexFunc(c.Fetch, func(r cases.Response) bool { return r.URL == robotsURL })
		if i < 0 || c.Fetch[i].Gen != nil || c.Fetch[i].Status >= 300 && c.Fetch[i].Status < 400 {
			return 0, false
		}
		resp := c.Fetch[i]
		b.Robots, b.Status, key = resp.Body, resp.Status, c.ID+" "+robotsURL
		if resp.Fault != "" {
			b.Status = 0
		}
	}
	if k, ok := bodies[key]; ok {
		return k, true
	}
	bodies[key] = len(ev.Bodies)
	ev.Bodies = append(ev.Bodies, b)
	return len(ev.Bodies) - 1, true
}
