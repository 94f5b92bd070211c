package diagnose_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/reptest/reptest/cases"
	. "github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/diff"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// roundTripFiles are the embedded corpus's bodies with their checks,
// generated files with derived probes, and the probes aimed at each
// misreading.
var roundTripFiles = sync.OnceValues(func() ([]diff.File, error) {
	cs, err := cases.LoadEmbedded()
	if err != nil {
		return nil, err
	}
	files := diff.FromCases(cs)
	files = append(files, diff.Generate(19, 300)...)
	files = append(files, aimed()...)
	for i := range files {
		// The variants run over the RFC's reference, so every body is
		// read under its profile.
		files[i].Profile = ""
		if files[i].Probes == nil {
			files[i].Probes = diff.DeriveProbes(files[i].Robots, diff.MinProbes)
		}
	}
	return files, nil
})

// aimed returns files aimed at misreadings that neither the corpus nor
// generated files show often enough to be claimed (at least three
// departures).
func aimed() []diff.File {
	var probes []diff.Probe
	for _, p := range []string{"/", "/a", "/b/c", "/d?e"} {
		probes = append(probes, diff.Probe{Agent: "kexbot", URL: "https://example.com" + p})
	}
	return []diff.File{
		// unicode-case-fold: the Kelvin sign (U+212A) folds to "k". A
		// misreading is claimed on two bodies at least (MinBodies).
		{Name: "aimed/kelvin", Robots: []byte("User-agent: \u212Aexbot\nDisallow: /\n"), Probes: probes},
		// useragent-accepted beside full-ua-string, which leaves only the
		// '*' group: generated files rarely name '*' with the misspelling.
		{Name: "aimed/useragent-star", Robots: []byte("Useragent: *\nDisallow: /\n"), Probes: probes},
		{Name: "aimed/kelvin-2", Robots: []byte("User-agent: *\nDisallow: /\n\nUser-agent: \u212AEXBOT\nAllow: /\n"), Probes: probes},
	}
}

// needsFetch are the misreadings that only a fetch can show (a network
// error, a redirect): bodies served with a status, which is all this
// evidence has, cannot tell them from the reference, so the fitter must
// list them as untested rather than name or deny them.
var needsFetch = map[string]bool{"unreachable-allows": true, "redirects-not-followed": true}

// evidenceOf asks every file's probes of each variant, run as a parser
// the way --parser reference+ID runs it.
func evidenceOf(t testing.TB, files []diff.File, variants [][]string) *Evidence {
	t.Helper()
	ev := &Evidence{}
	var ps []cases.Parser
	for _, ids := range variants {
		name := strings.Join(append([]string{"reference"}, ids...), "+")
		ev.Parsers = append(ev.Parsers, name)
		opts, err := reference.WithMisreadings(reference.RFC(), ids...)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, parsers.NewReferenceWith(name, opts))
	}
	ctx := context.Background()
	type served struct {
		f      diff.File
		status int
	}
	var all []served
	for i, f := range files {
		all = append(all, served{f, 200})
		// Some bodies served with an error status too: the evidence
		// of the access misreadings.
		if i%20 == 0 {
			all = append(all, served{f, 503}, served{f, 404})
		}
	}
	for _, sv := range all {
		f := sv.f
		ev.Bodies = append(ev.Bodies, Body{Robots: f.Robots, Status: sv.status, Profile: f.Profile, Source: f.Name})
		req := cases.Request{Robots: f.Robots, Profile: f.Profile}
		if sv.status != 200 {
			req.Status = sv.status
		}
		qs := make([]cases.Question, len(f.Probes))
		for k, pr := range f.Probes {
			qs[k] = cases.Question{Agent: pr.Agent, URL: pr.URL}
		}
		cols := make([][]result.Verdict, len(ps))
		for i, p := range ps {
			cols[i], _ = p.(cases.Batcher).CheckBatch(ctx, req, qs)
		}
		for k, q := range qs {
			row := make([]result.Verdict, len(ps))
			for i := range ps {
				row[i] = cols[i][k]
			}
			ev.Questions = append(ev.Questions, Question{Body: len(ev.Bodies) - 1, Agent: q.Agent, URL: q.URL, Verdicts: row})
		}
	}
	return ev
}

// readings returns the ids of the catalogue a variant models.
func readings() []string {
	var ids []string
	for _, m := range reference.Misreadings() {
		if m.ForParsers() {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// combos returns n random sets of two or three distinct ids, seeded.
func combos(ids []string, n int) [][]string {
	r := rand.New(rand.NewPCG(19, 9309))
	var out [][]string
	for len(out) < n {
		k := 2 + r.IntN(2)
		perm := r.Perm(len(ids))[:min(k, len(ids))]
		var set []string
		for _, i := range perm {
			set = append(set, ids[i])
		}
		// Some misreadings decide what another does: no parser can
		// have both, and the catalogue refuses the pair.
		if _, err := reference.WithMisreadings(reference.RFC(), set...); err == nil {
			out = append(out, set)
		}
	}
	return out
}

// found returns the ids a diagnosis names, alternatives included.
func found(d result.Diagnosis) (ids, alts []string) {
	for _, b := range d.Behaviours {
		ids = append(ids, b.ID)
		alts = append(alts, b.Alternatives...)
	}
	return ids, alts
}

// jointOnly are variants whose misreadings explain departures only
// together: substring-agent alone contradicts on CR-only files what
// cr-line-endings-ignored then reads otherwise, and case-insensitive-paths
// alone on escapes what url-not-normalised compares as given. A greedy
// search that adds one misreading at a time recovers none of them.
var jointOnly = [][]string{
	{"substring-agent", "cr-line-endings-ignored"},
	{"cr-line-endings-ignored", "substring-agent", "slash-added"},
	{"decode-all-escapes", "substring-agent", "cr-line-endings-ignored"},
	{"substring-agent", "no-percent-normalisation", "cr-line-endings-ignored"},
	{"url-not-normalised", "case-insensitive-paths", "unicode-spaces-trimmed"},
}

func TestRoundTrip(t *testing.T) {
	files, err := roundTripFiles()
	if err != nil {
		t.Fatal(err)
	}
	ids := readings()
	var variants [][]string
	for _, id := range ids {
		variants = append(variants, []string{id})
	}
	variants = append(variants, combos(ids, 200)...)
	variants = append(variants, jointOnly...)
	ev := evidenceOf(t, files, variants)
	ds, err := Fit(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	var misfits []string
	for i, d := range ds {
		if !diagnosedAsItself(t, files, ev, i, variants[i], d) {
			misfits = append(misfits, d.Parser)
		}
	}
	if len(misfits) > 0 {
		t.Errorf("%d variants not diagnosed as themselves: %s", len(misfits), strings.Join(misfits, ", "))
	}
	t.Logf("%d variants over %d questions of %d bodies", len(variants), len(ev.Questions), len(ev.Bodies))
}

// diagnosedAsItself reports whether diagnosis d of variant ids (column
// col of ev) names exactly ids, logging why not. Two exceptions: an id
// that needs a fetch must be listed as untested instead, and a diagnosis
// that names a part of ids is right when that part gives the very same
// verdicts on every question (the rest is invisible on this evidence:
// full-ua-string leaves no named group for star-merged-into-named to act
// on).
func diagnosedAsItself(t *testing.T, files []diff.File, ev *Evidence, col int, ids []string, d result.Diagnosis) bool {
	t.Helper()
	got, alts := found(d)
	var want []string
	for _, id := range ids {
		switch {
		case !needsFetch[id]:
			want = append(want, id)
		case !slices.Contains(d.Untested, id):
			t.Errorf("%s: %s is not listed as untested, though this evidence cannot show it", d.Parser, id)
			return false
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	diff := cmp.Diff(want, got, cmpopts.EquateEmpty())
	if diff == "" && len(alts) == 0 && d.Unexplained == 0 {
		return true
	}
	if len(alts) == 0 && d.Unexplained == 0 && isSubset(got, want) && sameVerdicts(t, files, ev, col, got) {
		return true
	}
	t.Logf("%s diagnosed as %v, alternatives %v, %d of %d departures unexplained (-want +got):\n%s",
		d.Parser, got, alts, d.Unexplained, d.Departures, diff)
	return false
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// sameVerdicts reports whether the variant ids answers every question of
// ev as column col does.
func sameVerdicts(t *testing.T, files []diff.File, ev *Evidence, col int, ids []string) bool {
	sub := evidenceOf(t, files, [][]string{ids})
	for k := range ev.Questions {
		if sub.Questions[k].Verdicts[0] != ev.Questions[k].Verdicts[col] {
			return false
		}
	}
	return true
}

// TestUnmodelledIsUnexplained checks that parsers departing in ways no
// misreading models, or whose departures come from one body only, are
// diagnosed with no misreading and every departure unexplained.
func TestUnmodelledIsUnexplained(t *testing.T) {
	files, err := roundTripFiles()
	if err != nil {
		t.Fatal(err)
	}
	// One body read as temoto reads a real-world file that opens with
	// "UserAgent: *": orphan-rules-apply and useragent-accepted explain
	// its departures alike, and no other body tells them apart.
	oneBody := []diff.File{{Name: "one/useragent", Robots: []byte("UserAgent: *\nDisallow: /search\nDisallow: /admin\nDisallow: /tmp\n")}}
	for _, f := range files {
		if !bytes.Contains(bytes.ToLower(f.Robots), []byte("useragent")) {
			oneBody = append(oneBody, f)
		}
	}
	oneBody[0].Probes = diff.DeriveProbes(oneBody[0].Robots, diff.MinProbes)
	for _, tt := range []struct {
		name  string
		files []diff.File
		ids   []string // the variant run as the parser
		// verdict, when set, changes the parser's verdict on a question.
		verdict func(q Question) (result.Verdict, bool)
	}{
		// Disallows every URL whose path has an even number of octets,
		// whatever the file says.
		{"odd", files, nil, func(q Question) (result.Verdict, bool) {
			return result.Disallow, len(reference.PathQuery(q.URL))%2 == 0
		}},
		// Turns the verdict round on every URL with a ';' in its path.
		{"flip-semicolon", files, nil, func(q Question) (result.Verdict, bool) {
			if !strings.Contains(reference.PathQuery(q.URL), ";") {
				return "", false
			}
			if q.Verdicts[0] == result.Allow {
				return result.Disallow, true
			}
			return result.Allow, q.Verdicts[0] == result.Disallow
		}},
		{"one-body", oneBody, []string{"useragent-accepted"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev := evidenceOf(t, tt.files, [][]string{tt.ids})
			ev.Parsers = []string{tt.name}
			for i := range ev.Questions {
				q := &ev.Questions[i]
				if tt.verdict == nil {
					continue
				}
				if v, ok := tt.verdict(*q); ok {
					q.Verdicts[0] = v
				}
			}
			ds, err := Fit(context.Background(), ev)
			if err != nil {
				t.Fatal(err)
			}
			d := ds[0]
			if len(d.Behaviours) != 0 || d.Unexplained != d.Departures || d.Departures < MinExplains {
				t.Errorf("diagnosed as %v, %d of %d departures unexplained; want no misreading, all unexplained",
					d.IDs(), d.Unexplained, d.Departures)
			}
		})
	}
}

// TestMayShowIsSound checks what the fitter relies on to skip a variant
// on a body: where reference.MayShow says a misreading cannot show, its
// variant answers every question as the reference does.
func TestMayShowIsSound(t *testing.T) {
	files, err := roundTripFiles()
	if err != nil {
		t.Fatal(err)
	}
	ids := readings()
	variants := [][]string{nil}
	for _, id := range ids {
		variants = append(variants, []string{id})
	}
	ev := evidenceOf(t, files, variants)
	urls := make([][]string, len(ev.Bodies))
	asked := make([][]Question, len(ev.Bodies))
	for _, q := range ev.Questions {
		urls[q.Body] = append(urls[q.Body], q.URL)
		asked[q.Body] = append(asked[q.Body], q)
	}
	skipped := 0
	for b, body := range ev.Bodies {
		for i, id := range ids {
			if reference.MayShow(id, reference.RFC(), body.Robots, body.Status, urls[b]) {
				continue
			}
			skipped++
			for _, q := range asked[b] {
				if q.Verdicts[i+1] != q.Verdicts[0] {
					t.Errorf("%s (status %d): MayShow(%s) is false, but %s %s gets %s, the reference %s",
						body.Source, body.Status, id, q.Agent, q.URL, q.Verdicts[i+1], q.Verdicts[0])
				}
			}
		}
	}
	if skipped == 0 {
		t.Error("MayShow never said a misreading cannot show: the test tests nothing")
	}
	t.Logf("%d of %d (body, misreading) pairs skipped", skipped, len(ev.Bodies)*len(ids))
}
