package diff

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/diagnose"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/result"
)

// Factory returns a fresh instance of every parser to compare, in a fixed
// order. Run calls it once per worker, so that each instance is used from
// one goroutine only; instances that implement cases.Closer are closed
// when the worker ends.
type Factory func(ctx context.Context) ([]cases.Parser, error)

// Options configures Run. The zero value is usable.
type Options struct {
	// Workers is the number of files compared at once (default:
	// GOMAXPROCS).
	Workers int
	// MaxProbes caps the probes derived per file (DefaultMaxProbes).
	MaxProbes int
	// ProbeBytes caps the bytes every parser reads per file: a file of
	// size S gets at most ProbeBytes/S probes, and never fewer than
	// MinProbes (default 64 MiB). Large files thus cost no more than small
	// ones.
	ProbeBytes int
	// CheckTimeout bounds each check when positive; a parser that runs
	// past it gets VerdictError (in-process parsers that ignore their
	// context are not stopped).
	CheckTimeout time.Duration
	// NoMinimize reports disagreements as found.
	NoMinimize bool
	// MaxTests bounds each minimisation (DefaultMaxTests).
	MaxTests int
	// CacheEntries bounds the questions whose verdicts the run
	// remembers (DefaultCacheEntries when 0); the least recently asked
	// are forgotten first.
	CacheEntries int
	// Unoptimised asks every parser every question with one Check, with
	// no cache, no batches and no short cuts. The findings are the same
	// either way; it is there to show that they are.
	Unoptimised bool
	// Cache, when set, keeps the parsers' verdicts on each body's probes
	// and each file's result for later runs (see DiskCache): a run over
	// the same inputs then asks nothing of a parser whose identity did
	// not change. Unoptimised runs do not use it.
	Cache *DiskCache
	// Identities holds, by parser name, what identifies a parser's
	// answers beyond its Info (name, version, runtime): an external
	// program's command line and options. The cache keys by them.
	Identities map[string]string
	// Profile is the profile of files that name none (directories and
	// generated files): result.ProfileRFC (the default) or
	// result.ProfileGoogle. Every request carries the file's profile, and
	// the reference that traces, tags, groups and minimises findings
	// follows it; findings record it.
	Profile string
	// Progress, when set, is called after each file with the number of
	// files done, the total and the disagreeing probes so far. It is
	// called from one goroutine at a time.
	Progress func(done, total, disagreements int)
	// Fitted, when set, is told how long fitting the diagnosis took.
	Fitted func(time.Duration)
	// Stage, when set, is told what the run does once the files are
	// compared ("fitting the diagnosis"), for a progress display.
	Stage func(name string)
	// EvidenceBytes bounds the evidence kept for the diagnosis
	// (DefaultEvidenceBytes when 0, no bound when negative): past it,
	// the diagnosis is fitted on the files whose body digests are
	// smallest, as many as fit (see evidenceSample).
	EvidenceBytes int
	// Run, when set, describes the run in its document (the caller
	// records the command, the inputs, the parsers and the date).
	Run *result.RunInfo
	// SpillFindings, when set, has the findings kept in temporary files
	// as the run goes instead of in memory, so that a run's memory does
	// not grow with its inputs: the document Run returns then has no
	// Findings (its Summary counts them), and SpillFindings is handed
	// the file that holds them before Run returns. The caller removes it.
	SpillFindings func(*FindingsFile)
	// Table is the requirement table whose areas the summary counts
	// probes in (default: the embedded corpus's, cases.RequirementTable).
	Table result.Table

	areas    *result.AreaIndex // Table's, indexed once by withDefaults
	examples *exampleTable     // the run's, made by runJobs
}

// MinProbes is the fewest probes a derived file gets under ProbeBytes.
const MinProbes = 40

// fileResult is what one worker found in one file.
type fileResult struct {
	name                  string
	probes, disagreements int
	pairs                 []int // disagreeing probes per pair
	areas                 areaCounts
	findings              []result.Finding // not of a class: found unminimised
	// classes are the file's disagreements to minimise, one per class,
	// each minimised only when the file's rank is the smallest of its
	// class's so far (exampleTable); rank orders the file among the
	// run's.
	classes []classed
	rank    rank
	// evidence is the file's probes and every parser's verdicts on
	// them, kept for the diagnosis.
	body    File
	asked   []Probe
	answers [][]result.Verdict
}

// Run compares the parsers factory makes on every probe of every file and
// returns the run's results document: the disagreements as findings,
// minimised (unless opts.NoMinimize), tagged and without duplicates, in
// the order of the files they were first found in; their summary, with
// the findings grouped; the diagnosis of every parser, fitted once on
// every probe of the run; and opts.Run. Files are compared in parallel; the result does not depend on
// the number of workers. Disagreements that have the same verdicts, that
// the reference decides alike (the same reason, kind of group, and shape
// of deciding rule: allow or disallow, with "*", "$" or "%" or not) and
// whose questions have the same shape (a percent escape, a query, an
// upper-case letter or not) are one class, minimised once for the whole
// run into one finding that lists every file of the class and counts its
// probes (examples.go); findings not minimised that are equal are merged.
func Run(ctx context.Context, files []File, factory Factory, opts Options) (*result.Document, error) {
	// Large files first, so that no worker is left with one at the end.
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(files[b].Robots) - len(files[a].Robots) })
	jobs := func(yield func(job) bool) error {
		for _, i := range order {
			if !yield(job{i, &files[i]}) {
				break
			}
		}
		return nil
	}
	return runJobs(ctx, jobs, len(files), factory, opts)
}

// job is one file to compare and its place in the run's order.
type job struct {
	idx int
	f   *File
}

// jobSeq yields a run's files; it returns an error that ends the run
// (an input that cannot be read).
type jobSeq func(yield func(job) bool) error

// runJobs compares the files jobs yields, total of them (0 when not known
// beforehand), and collects the results by job index.
func runJobs(ctx context.Context, jobs jobSeq, total int, factory Factory, opts Options) (*result.Document, error) {
	opts = withDefaults(opts, total)
	if opts.examples == nil {
		opts.examples = new(exampleTable) // else a test's
	}
	var cache *verdictCache
	var slots chan struct{}
	if !opts.Unoptimised {
		cache = newVerdictCache(opts.CacheEntries)
		slots = make(chan struct{}, max(runtime.GOMAXPROCS(0), opts.Workers))
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var store findingStore = &memoryStore{}
	if opts.SpillFindings != nil {
		fs, err := newFileStore()
		if err != nil {
			return nil, err
		}
		defer fs.close()
		store = fs
	}
	c := &collector{total: total, progress: opts.Progress, cancel: cancel, sample: evidenceSample{limit: opts.EvidenceBytes},
		fold: newFolder(store, opts.areas), profile: opts.Profile, todo: make(chan []*classPlace)}
	feed := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < opts.Workers; w++ {
		wg.Add(1)
		c.compared.Add(1)
		go func() {
			defer wg.Done()
			c.work(ctx, factory, &opts, cache, slots, feed)
		}()
	}
	seen := make(map[[sha256.Size]byte]int)
	err := jobs(func(j job) bool {
		if k, ok := dupKey(j.f, opts.Profile); ok {
			if first, dup := seen[k]; dup {
				c.duplicate(j.idx, first, j.f.Name)
				return true
			}
			seen[k] = j.idx
		}
		select {
		case feed <- j:
			return true
		case <-ctx.Done():
			return false
		}
	})
	close(feed)
	if err != nil {
		cancel()
	}
	c.compared.Wait()
	minimiseClasses(ctx, c.fold, c.todo, opts.Stage)
	wg.Wait()
	if err == nil {
		err = c.firstErr
	}
	if err == nil && parent.Err() != nil && c.done > 0 {
		// Stopped (a signal): what was compared is reported.
		return c.document(ctx, store, &opts, context.Cause(parent))
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	return c.document(ctx, store, &opts, nil)
}

// work compares the files of feed on one panel of parsers until feed
// closes, and hands each result to c; then it minimises the examples of
// the classes c.todo gives.
func (c *collector) work(ctx context.Context, factory Factory, opts *Options, cache *verdictCache, slots chan struct{}, feed <-chan job) {
	// Done once, when the last file is compared or the worker gives up.
	compared := sync.OnceFunc(c.compared.Done)
	defer compared()
	p, closer, err := startPanel(ctx, factory, opts.CheckTimeout)
	if err != nil {
		c.fail(err)
		return
	}
	defer closer()
	p.cache, p.slots = cache, slots
	if !opts.Unoptimised && opts.Cache != nil {
		p.disk = opts.Cache
		p.setIdentities(opts.Identities)
	}
	if !c.sameNames(p) {
		return
	}
	for j := range feed {
		r := p.compareCached(ctx, j.f, j.idx, opts)
		if ctx.Err() != nil {
			// Stopped while comparing it: its verdicts may be errors
			// the parsers never gave. The file is left out.
			break
		}
		r.name = j.f.Name
		c.add(j.idx, r)
	}
	compared()
	for cps := range c.todo {
		for _, cp := range cps {
			p.example(ctx, cp, opts)
			if ctx.Err() != nil {
				cp.example = nil // made of a cut minimisation: as found instead
			}
		}
	}
}

// document completes the run's document from what c folded, with its
// diagnosis, and hands the spilled findings (if store is a file) to
// opts.SpillFindings. When stopped is not nil the run was stopped (a
// signal) before it finished: the document holds the files compared by
// then (asCompared), is marked interrupted with that cause, and has no
// diagnosis; stopped while fitting, the same.
func (c *collector) document(ctx context.Context, store findingStore, opts *Options, stopped error) (*result.Document, error) {
	if c.fold.doc == nil {
		c.fold.start(c.names, opts.Profile)
	}
	if stopped != nil {
		if err := c.asCompared(); err != nil {
			return nil, err
		}
	}
	doc, err := c.fold.finish()
	if err != nil {
		return nil, err
	}
	doc.Run = opts.Run
	fs, spilled := store.(*fileStore)
	if stopped == nil {
		doc.Diagnosis, err = diagnoseRun(ctx, c, opts)
		switch {
		case err != nil && ctx.Err() == nil:
			if spilled && fs.out != nil {
				fs.out.Remove()
			}
			return nil, err
		case err != nil:
			// Stopped while fitting (the workers are done, so nothing
			// else ends ctx).
			doc.Diagnosis, stopped = nil, context.Cause(ctx)
		}
	}
	if stopped != nil {
		doc.Interrupted, doc.InterruptReason = true, stopped.Error()
	}
	if spilled {
		opts.SpillFindings(fs.out)
	}
	return doc, nil
}

// asCompared readies the folder of a run stopped before it finished: it
// folds every file compared, and gives each class without a minimised
// example its disagreement as found.
func (c *collector) asCompared() error {
	if err := c.fold.foldCompared(); err != nil {
		return err
	}
	for _, cp := range c.fold.classAt {
		if cp.example == nil {
			fd := asFound(c.names, cp.name, cp.w, newReading(cp.w.in.Robots))
			cp.example = &fd
		}
	}
	return nil
}

// diagnoseRun fits the diagnosis of the run's evidence, through the disk
// cache unless the run is unoptimised, and records how many files the
// evidence bound left out of the fit.
func diagnoseRun(ctx context.Context, c *collector, opts *Options) ([]result.Diagnosis, error) {
	if opts.Stage != nil {
		opts.Stage("fitting the diagnosis")
	}
	start := time.Now()
	disk := opts.Cache
	ev := evidenceOf(c.names, c.sample.results())
	if opts.Unoptimised {
		disk = nil
	} else {
		ev.ReferenceColumns = c.refs
	}
	ds, err := fitCached(ctx, disk, ev, diagnose.FitFrom)
	if opts.Fitted != nil {
		opts.Fitted(time.Since(start))
	}
	if err != nil {
		return nil, err
	}
	for i := range ds {
		ds[i].Unfitted = c.sample.dropped
	}
	return ds, nil
}

// evidenceOf gathers the probes of every file and the parsers' verdicts
// on them for the fitter.
func evidenceOf(names []string, results []*fileResult) *diagnose.Evidence {
	ev := &diagnose.Evidence{Parsers: names}
	n, m := 0, 0
	for _, r := range results {
		if r != nil && r.answers != nil {
			n, m = n+1, m+min(len(r.asked), len(r.answers))
		}
	}
	ev.Bodies, ev.Questions = make([]diagnose.Body, 0, n), make([]diagnose.Question, 0, m)
	for _, r := range results {
		if r == nil || r.answers == nil {
			continue
		}
		ev.Bodies = append(ev.Bodies, diagnose.Body{Robots: r.body.Robots, Status: 200, Profile: r.body.Profile, Source: r.body.Name})
		for k, pr := range r.asked {
			if k < len(r.answers) {
				ev.Questions = append(ev.Questions, diagnose.Question{Body: len(ev.Bodies) - 1, Agent: pr.Agent, URL: pr.URL, Verdicts: r.answers[k]})
			}
		}
	}
	return ev
}

// MaxDuplicateSources bounds the names of duplicates a finding lists in
// Sources per compared input; the others are only counted (Duplicates).
const MaxDuplicateSources = 64

// dupKey returns the key inputs are compared once by: a digest of the
// profile and the body. A file with probes of its own (a corpus case)
// has none: it is always compared.
func dupKey(f *File, profile string) ([sha256.Size]byte, bool) {
	if f.Probes != nil {
		return [sha256.Size]byte{}, false
	}
	if f.Profile != "" {
		profile = f.Profile
	}
	h := sha256.New()
	io.WriteString(h, profile)
	h.Write([]byte{0})
	h.Write(f.Robots)
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k, true
}

// duplicates are the inputs whose body is that of one compared input.
type duplicates struct {
	names []string // the first MaxDuplicateSources
	count int
}

// withDefaults returns opts with the defaults Options documents filled
// in, and no more workers than files when their number is known.
func withDefaults(opts Options, total int) Options {
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if total > 0 {
		opts.Workers = min(opts.Workers, total)
	}
	if opts.MaxProbes <= 0 {
		opts.MaxProbes = DefaultMaxProbes
	}
	if opts.ProbeBytes <= 0 {
		opts.ProbeBytes = 64 << 20
	}
	if opts.MaxTests <= 0 {
		opts.MaxTests = DefaultMaxTests
	}
	if opts.Profile == "" {
		opts.Profile = result.ProfileRFC
	}
	if opts.CacheEntries <= 0 {
		opts.CacheEntries = DefaultCacheEntries
	}
	if opts.EvidenceBytes == 0 {
		opts.EvidenceBytes = DefaultEvidenceBytes
	}
	if len(opts.Table.Areas) == 0 && len(opts.Table.Requirements) == 0 {
		opts.Table, _ = cases.RequirementTable() // an error only for a malformed binary
	}
	opts.areas = opts.Table.Index()
	return opts
}

// collector gathers the workers' results by job index, the parsers'
// names and the first error, which cancels the run. It is safe for
// concurrent use.
type collector struct {
	total    int
	progress func(done, total, disagreements int)
	cancel   context.CancelFunc

	profile  string
	mu       sync.Mutex
	fold     *folder        // the document, folded in job order
	sample   evidenceSample // bounds the evidence results keep
	names    []string
	refs     map[string]int // panel.referenceColumns
	firstErr error
	done     int
	disagree int

	// compared is done when every worker has compared its last file;
	// todo then gives them the classes to minimise (minimiseClasses).
	compared sync.WaitGroup
	todo     chan []*classPlace
}

// fail records err when it is the first and cancels the run.
func (c *collector) fail(err error) {
	c.mu.Lock()
	if c.firstErr == nil {
		c.firstErr = err
	}
	c.mu.Unlock()
	c.cancel()
}

// sameNames records the first worker's parser names (and which are the
// reference) and reports whether a later worker's are the same; when
// they are not, it fails the run.
func (c *collector) sameNames(p *panel) bool {
	names := p.names
	c.mu.Lock()
	first := c.names
	if first == nil {
		c.names, c.refs = names, p.referenceColumns()
		c.fold.start(names, c.profile)
	}
	c.mu.Unlock()
	if first != nil && !slices.Equal(first, names) {
		c.fail(fmt.Errorf("diff: factory gave parsers %v, then %v", first, names))
		return false
	}
	return true
}

// add records the result of job idx and reports progress.
func (c *collector) add(idx int, r *fileResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sample.add(idx, r)
	c.folded(c.fold.add(idx, r))
	c.done++
	c.disagree += r.disagreements
	if c.progress != nil {
		c.progress(c.done, c.total, c.disagree)
	}
}

// duplicate records that the input of job idx, named name, has the body
// of job first, and counts it as done.
func (c *collector) duplicate(idx, first int, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.folded(c.fold.duplicate(idx, first, name))
	c.done++
	if c.progress != nil {
		c.progress(c.done, c.total, c.disagree)
	}
}

// folded records an error of folding (c.mu held) and cancels the run.
func (c *collector) folded(err error) {
	if err != nil {
		if c.firstErr == nil {
			c.firstErr = err
		}
		c.cancel()
	}
}

// startPanel makes one worker's parsers and their panel; closer closes
// the parsers.
func startPanel(ctx context.Context, factory Factory, timeout time.Duration) (*panel, func(), error) {
	ps, err := factory(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("diff: starting parsers: %w", err)
	}
	closer := func() { closeAll(ps) }
	p, err := newPanel(ps, timeout)
	if err == nil && len(p.names) < 2 {
		err = errors.New("diff: need at least two parsers to compare")
	}
	if err != nil {
		closer()
		return nil, nil, err
	}
	return p, closer, nil
}

func closeAll(ps []cases.Parser) {
	for _, p := range ps {
		if c, ok := p.(cases.Closer); ok {
			c.Close()
		}
	}
}

// pending is a disagreement waiting to be minimised.
type pending struct {
	class  string // pendingKey
	in     result.Input
	vs     []result.Verdict
	probes int
	lines  []int // the file's lines the probes came from
}

// compareFile asks every probe of f, the run's file idx, and returns
// what disagrees: as findings when not to be minimised (opts.NoMinimize,
// a parser's error), else as classes, which the run minimises once the
// files are compared (examples.go).
func compareFile(ctx context.Context, p *panel, f *File, idx int, opts *Options) *fileResult {
	if f.Profile == "" {
		withProfile := *f
		withProfile.Profile = opts.Profile
		f = &withProfile
	}
	n := len(p.names)
	res := &fileResult{pairs: make([]int, n*(n-1)/2), areas: areaCounts{index: opts.areas}, rank: rankOf(f, idx)}
	rd := newReading(f.Robots) // parsed once for the probes, the tally, the tags and traces
	probes := probesOf(f, opts, rd)
	all := askAll(ctx, p, f, probes, opts.Unoptimised)
	waiting := res.tally(ctx, f, probes, all, rd, opts.NoMinimize)
	res.body, res.asked, res.answers = File{Name: f.Name, Robots: f.Robots, Profile: f.Profile}, evidenceProbes(probes), all
	for _, w := range waiting {
		if ctx.Err() != nil {
			return res
		}
		if opts.NoMinimize || slices.Contains(w.vs, VerdictError) {
			res.findings = append(res.findings, p.resolve(ctx, f.Name, w, opts, rd))
			continue
		}
		c := classed{w: w}
		if opts.examples.every {
			fd := p.resolve(ctx, f.Name, w, opts, rd)
			c.example = &fd
		}
		res.classes = append(res.classes, c)
	}
	return res
}

// evidenceProbes returns the agent and URL of each probe, which is all
// the diagnosis reads, in less than half the room of the probes.
func evidenceProbes(probes []Probe) []Probe {
	out := make([]Probe, len(probes))
	for k, pr := range probes {
		out[k] = Probe{Agent: pr.Agent, URL: pr.URL}
	}
	return out
}

// probesOf returns f's probes, derived from its body when it has none:
// at most opts.MaxProbes, fewer for a large body (Options.ProbeBytes);
// rd reads f's body.
func probesOf(f *File, opts *Options, rd *reading) []Probe {
	if f.Probes != nil {
		return f.Probes
	}
	limit := opts.MaxProbes
	if len(f.Robots) > 0 {
		limit = min(limit, max(MinProbes, opts.ProbeBytes/len(f.Robots)))
	}
	return deriveProbes(rd, limit)
}

// tally counts the probes of f and the pairs of parsers that disagree on
// them, all[k] being the verdicts on probes[k], and returns the
// disagreements to minimise (or, asFound, to keep as found): one for
// each key (pendingKey), which stands for all its probes. rd reads f's
// body.
func (res *fileResult) tally(ctx context.Context, f *File, probes []Probe, all [][]result.Verdict, rd *reading, asFound bool) []pending {
	var (
		byKey   = make(map[string]int)
		waiting []pending
	)
	// The file as the reference reads it, parsed once when first needed.
	opts, _ := reference.OptionsFor(f.Profile)
	robots := func() *reference.Robots { return rd.parse(opts) }
	for at, pr := range probes {
		if ctx.Err() != nil {
			return nil
		}
		vs := all[at]
		res.probes++
		res.areas.add(pr, vs, robots)
		if !res.countPairs(vs) {
			continue
		}
		res.disagreements++
		key := pendingKey(robots(), vs, pr, asFound)
		if w, ok := byKey[key]; ok {
			waiting[w].probes++
			waiting[w].lines = result.AddLine(waiting[w].lines, pr.Line)
			continue
		}
		byKey[key] = len(waiting)
		in := result.Input{Robots: f.Robots, Agent: pr.Agent, URL: pr.URL, Profile: f.Profile}
		waiting = append(waiting, pending{class: f.Profile + "," + key, in: in, vs: vs, probes: 1, lines: result.AddLine(nil, pr.Line)})
	}
	return waiting
}

// countPairs counts, for each pair of parsers, whether they give
// different verdicts in vs, and reports whether any pair does.
func (res *fileResult) countPairs(vs []result.Verdict) bool {
	differs := false
	k := 0
	for i := 0; i < len(vs); i++ {
		for j := i + 1; j < len(vs); j++ {
			if vs[i] != vs[j] {
				res.pairs[k]++
				differs = true
			}
			k++
		}
	}
	return differs
}

// pendingKey is the key a file's disagreeing probes are grouped by: the
// verdicts and the reference's cause. Minimised, that and the question's
// shape (questionShape) are the probe's class, which its file's profile
// completes and the minimisation keeps (goal; examples.go); as found
// (asFound), that and the kind of probe, one finding each.
func pendingKey(robots *reference.Robots, vs []result.Verdict, pr Probe, asFound bool) string {
	var key strings.Builder
	for _, v := range vs {
		key.WriteString(string(v))
		key.WriteByte(',')
	}
	if asFound {
		key.WriteString(pr.Kind)
	} else {
		key.WriteString(questionShape(pr.URL))
	}
	if d, err := robots.Decide(pr.Agent, pr.URL); err == nil {
		key.WriteString(causeKey(d))
	}
	return key.String()
}

// resolve minimises the disagreement w of the file named name (unless
// opts.NoMinimize) and returns its finding, tagged and traced; rd reads
// the file's body.
func (p *panel) resolve(ctx context.Context, name string, w pending, opts *Options, rd *reading) result.Finding {
	in := w.in
	// A parser that did not answer (a timeout, a crash) is not asked to
	// fail again, on every candidate or on the input once more: each
	// would cost a whole timeout, and an external program that stalls
	// three times in a row is given up for the rest of the run. Such a
	// finding is kept as found.
	failed := slices.Contains(w.vs, VerdictError)
	shrink := !opts.NoMinimize && !failed
	if shrink {
		// Each minimisation on its own (a memo of its own): which of a
		// file's classes it minimises depends on the other files.
		in = minimizeGoal(ctx, p, in, newGoal(in, w.vs, opts.Unoptimised), opts.MaxTests, make(map[string]bool))
		opts.examples.minimised.Add(1)
	}
	var fd result.Finding
	if !failed {
		fd = p.finding(ctx, in)
	}
	if fd.Signature == "" {
		// The parsers changed their minds (a flaky parser): keep the
		// verdicts first seen on the input as found.
		return asFound(p.names, name, w, rd)
	}
	return completed(fd, name, w, shrink, rd)
}

// asFound is the finding of the disagreement w of the file named name as
// it was found, without asking the parsers again: what resolve gives
// when it cannot minimise; rd reads the file's body.
func asFound(names []string, name string, w pending, rd *reading) result.Finding {
	want := make(map[string]result.Verdict, len(w.vs))
	for i, v := range w.vs {
		want[names[i]] = v
	}
	return completed(result.Finding{Input: w.in, Verdicts: want, Signature: Signature(want)}, name, w, false, rd)
}

// completed adds to fd, the finding of w (minimised when minimized),
// the reference's tags and trace and the source it was found in.
func completed(fd result.Finding, name string, w pending, minimized bool, rd *reading) result.Finding {
	fd.Minimized = minimized
	rd = rd.of(fd.Input.Robots)
	fd.Req = tagsOf(fd.Input, fd.Verdicts, rd)
	fd.Trace, fd.Line = traceOf(fd.Input, rd)
	fd.Sources = []string{name}
	if len(w.lines) > 0 {
		fd.SourceLines = map[string][]int{name: w.lines}
	}
	fd.Probes = w.probes
	return fd
}

// askAll returns every parser's verdicts on every probe of f, vs[k][i]
// being parser i's on probes[k]: in one batch per parser, or (plain) one
// Check per probe and parser.
func askAll(ctx context.Context, p *panel, f *File, probes []Probe, plain bool) [][]result.Verdict {
	if plain {
		vs := make([][]result.Verdict, len(probes))
		for k, pr := range probes {
			vs[k] = p.verdicts(ctx, result.Input{Robots: f.Robots, Agent: pr.Agent, URL: pr.URL, Profile: f.Profile}, nil)
		}
		return vs
	}
	qs := make([]cases.Question, len(probes))
	for k, pr := range probes {
		qs[k] = cases.Question{Agent: pr.Agent, URL: pr.URL}
	}
	b := newBody(result.Input{Robots: f.Robots, Profile: f.Profile})
	return p.probe(ctx, &b, qs)
}

// causeKey describes the reference's decision coarsely: the reason, the
// kind of group, and the shape of the deciding rule.
func causeKey(d reference.Decision) string {
	var b strings.Builder
	b.WriteString("," + strconv.Itoa(int(d.Reason)))
	switch d.Group {
	case "":
		b.WriteString(",none")
	case "*":
		b.WriteString(",star")
	default:
		b.WriteString(",named")
	}
	if d.Reason == reference.RuleMatched {
		fmt.Fprintf(&b, ",%t,%t,%t,%t", d.Rule.Allow, strings.Contains(d.Rule.Pattern, "*"),
			strings.HasSuffix(d.Rule.Pattern, "$"), strings.Contains(d.Rule.Pattern, "%"))
	}
	return b.String()
}

// questionShape describes what a question's URL has that an example can
// keep, where the kind of probe it was derived as cannot be kept: whether
// its path and query have a percent escape, a query, an upper-case
// letter.
func questionShape(url string) string {
	pq := reference.PathQuery(url)
	return fmt.Sprintf("%t,%t,%t", strings.Contains(pq, "%"), strings.Contains(pq, "?"), strings.ToLower(pq) != pq)
}

// traceOf returns the reference's explanation of its verdict on in and
// its deciding line (0 when no rule decided); rd reads in's body.
func traceOf(in result.Input, rd *reading) (string, int) {
	opts, _ := reference.OptionsFor(in.Profile)
	d, err := rd.parse(opts).Decide(in.Agent, in.URL)
	if err != nil {
		return err.Error(), 0
	}
	if d.Reason == reference.RuleMatched {
		return d.String(), d.Rule.Line
	}
	return d.String(), 0
}
