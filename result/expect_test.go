package result_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// expectDoc is a run of two parsers: temoto fails a merge case and an
// HTTP case and passes a syntax case; grobotstxt fails the merge case
// and skips the HTTP case.
func expectDoc() *result.Document {
	r := func(parser, cas string, o result.Outcome) result.Result {
		return result.Result{Parser: parser, Case: cas, Level: result.MUST, Expect: result.Disallow, Outcome: o}
	}
	d := &result.Document{Profile: result.ProfileRFC, Results: []result.Result{
		r("grobotstxt", "merge/two-groups-same-agent", result.Violation),
		r("grobotstxt", "http/redirect-cross-host", result.Skipped),
		r("temoto", "http/redirect-cross-host", result.Error),
		r("temoto", "merge/two-groups-same-agent", result.Violation),
		r("temoto", "syn/comment", result.Pass),
	}}
	d.Parsers = []result.Summary{{Name: "grobotstxt"}, {Name: "temoto"}}
	d.Summarize()
	return d
}

func TestMarkExpected(t *testing.T) {
	es := []result.Expectation{
		{Parser: "temoto", Cases: []string{"merge/two-groups-*"}, Reason: "groups naming the same agent are not merged", Link: "https://github.com/temoto/robotstxt/issues/1"},
		{Parser: "temoto", Cases: []string{"http/*"}, Reason: "fetch errors"},
		{Parser: "temoto", Cases: []string{"syn/comment"}, Reason: "was broken once"},
		{Parser: "grobotstxt", Cases: []string{"no/such/case", "http/*"}, Reason: "stale entry"},
	}
	d := expectDoc()
	if !d.ShouldFail() {
		t.Fatal("run should fail before expectations")
	}
	d.MarkExpected(es, cases.Glob)

	var marked []string
	for _, x := range d.Expected {
		marked = append(marked, x.Parser+" "+x.Case+" "+x.Pattern+" "+x.Reason)
	}
	want := []string{
		"temoto http/redirect-cross-host http/* fetch errors",
		"temoto merge/two-groups-same-agent merge/two-groups-* groups naming the same agent are not merged",
	}
	if diff := cmp.Diff(want, marked); diff != "" {
		t.Errorf("expected failures (-want +got):\n%s", diff)
	}
	if o := d.Results[3].Outcome; o != result.Violation {
		t.Errorf("outcome changed to %s", o)
	}
	// The skipped check counts for no entry; entries come by parser name.
	var un []string
	for _, u := range d.Unexpected {
		un = append(un, u.Parser+" "+strings.Join(u.Cases, ",")+" "+strconv.Itoa(u.Matched))
	}
	if diff := cmp.Diff([]string{"grobotstxt no/such/case,http/* 0", "temoto syn/comment 1"}, un); diff != "" {
		t.Errorf("unexpected passes (-want +got):\n%s", diff)
	}
	// grobotstxt's violation is new, so the run still fails.
	var news []string
	for _, r := range d.NewFailures() {
		news = append(news, r.Parser+" "+r.Case)
	}
	if diff := cmp.Diff([]string{"grobotstxt merge/two-groups-same-agent"}, news); diff != "" {
		t.Errorf("new failures (-want +got):\n%s", diff)
	}
	if !d.ShouldFail() {
		t.Error("run with a new failure should fail")
	}
	d.MarkExpected(append(es, result.Expectation{Parser: "grobotstxt", Cases: []string{"merge/*"}, Reason: "reject on unknown"}), cases.Glob)
	if d.ShouldFail() {
		t.Errorf("run fails with every failure expected: %v", d.NewFailures())
	}
	// Marks are replaced, and no entries clear them.
	d.MarkExpected(nil, cases.Glob)
	if len(d.Expected)+len(d.Unexpected) != 0 || !d.ShouldFail() {
		t.Errorf("no entries left marks: %v %v", d.Expected, d.Unexpected)
	}
}
