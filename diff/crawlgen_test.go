package diff

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/parsers"
	"github.com/reptest/reptest/result"
)

// TestWriteCrawlShares writes a crawl of 3,000 responses, reads it back
// and checks the shares of the kinds of response, the copies, and the
// body sizes against what WriteCrawl promises.
func TestWriteCrawlShares(t *testing.T) {
	const n = 3000
	path := filepath.Join(t.TempDir(), "crawl.warc.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteCrawl(f, 1, 0, n); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var st WARCStats
	var sizes []int
	err = readWARC(path, make(map[[32]byte]bool), &st, func(f File) bool {
		sizes = append(sizes, len(f.Robots))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	within := func(what string, got, want, tolerance float64) {
		t.Helper()
		if got < want*(1-tolerance) || got > want*(1+tolerance) {
			t.Errorf("%s: %.3g, want %.3g ± %.0f%%", what, got, want, tolerance*100)
		}
	}
	share := func(k int) float64 { return float64(k) * 100 / n }
	within("successes %", share(st.Success), float64(CrawlShares.Success), 0.1)
	within("redirects %", share(st.Redirect), float64(CrawlShares.Redirect), 0.25)
	within("unavailable %", share(st.Unavailable), float64(CrawlShares.Unavailable), 0.25)
	within("duplicates % of successes", float64(st.Duplicates)*100/float64(st.Success), float64(CrawlShares.Copies), 0.3)
	slices.Sort(sizes)
	within("median body", float64(sizes[len(sizes)/2]), crawlMedianBytes, 0.35)
	within("p90 body", float64(sizes[len(sizes)*9/10]), crawlP90Bytes, 0.4)
	if sizes[len(sizes)-1] > crawlMaxBytes+1<<10 {
		t.Errorf("largest body %d bytes", sizes[len(sizes)-1])
	}
	if a, b := CrawlBody(rand.New(rand.NewPCG(3, 4))), CrawlBody(rand.New(rand.NewPCG(3, 4))); a != b {
		t.Error("CrawlBody is not a function of its source")
	}
}

// BenchmarkCrawl compares the default parsers (reference, grobotstxt,
// temoto) on Common Crawl-like WARC.gz sets (WriteCrawl) of the sizes
// $REPTEST_CRAWL lists (default 1000,10000; the README's figures are for
// 10000,100000), minimising as the command does, without the disk cache,
// and reports responses per CPU-second (user+sys of the process), the
// peak of the heap in use and the process's peak RSS (which covers the
// sizes run before, so give one size per run to compare them):
//
//	REPTEST_CRAWL=10000,100000 go test ./diff -run '^$' -bench Crawl -benchtime 1x
func BenchmarkCrawl(b *testing.B) {
	sizes := "1000,10000"
	if s := os.Getenv("REPTEST_CRAWL"); s != "" {
		sizes = s
	}
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			b.Fatalf("REPTEST_CRAWL: %q is not a count", s)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchCrawl(b, n) })
	}
}

func benchCrawl(b *testing.B, n int) {
	paths := writeCrawlSet(b, n)
	factory := func(context.Context) ([]cases.Parser, error) {
		return []cases.Parser{parsers.NewReference(), parsers.NewGrobotstxt(), parsers.NewTemoto()}, nil
	}
	runtime.GC()
	peak, stop := heapPeak()
	cpu := cpuTime()
	b.ResetTimer()
	var rep *result.Document
	var in Inputs
	var spilled *FindingsFile
	for b.Loop() {
		if spilled != nil {
			spilled.Remove()
			spilled = nil
		}
		in = Inputs{}
		if err := in.AddPath(paths); err != nil {
			b.Fatal(err)
		}
		// Findings go to a file as the command's do, which is what keeps
		// its memory from growing with the findings.
		opts := Options{SpillFindings: func(f *FindingsFile) { spilled = f }}
		var err error
		if rep, err = in.Run(context.Background(), cases.Shard{}, factory, opts); err != nil {
			b.Fatal(err)
		}
		if spilled == nil {
			b.Fatal("the run spilled no findings file")
		}
	}
	defer spilled.Remove()
	used := cpuTime() - cpu
	stop()
	b.ReportMetric(float64(in.Stats.Responses*b.N)/used.Seconds(), "responses/CPU-s")
	b.ReportMetric(float64(*peak)/(1<<20), "peak-heap-MB")
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/(1<<10), "peak-RSS-MB") // of the process so far: run one size at a time
	b.ReportMetric(float64(rep.Summary.Files), "bodies")
	b.ReportMetric(float64(spilled.Count), "findings")
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heapPeak samples the heap in use every 10 ms until stop is called;
// *peak is the most seen.
func heapPeak() (peak *uint64, stop func()) {
	peak = new(uint64)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return peak, func() { close(done); wg.Wait() }
}

// writeCrawlSet writes a crawl of n responses as ten WARC.gz segments and
// their listing, and returns the listing's path: in a temporary folder,
// or below $REPTEST_CRAWL_DIR (kept, and used again when there), for runs
// of the command over the same set.
func writeCrawlSet(b *testing.B, n int) string {
	dir := b.TempDir()
	if keep := os.Getenv("REPTEST_CRAWL_DIR"); keep != "" {
		dir = filepath.Join(keep, strconv.Itoa(n))
	}
	paths := filepath.Join(dir, "crawl.paths")
	if _, err := os.Stat(paths); err == nil {
		return paths
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	// Ten segments, as a crawl's robots.txt subset comes in many files.
	var listing strings.Builder
	for k := 0; k < 10; k++ {
		name := fmt.Sprintf("seg%d.warc.gz", k)
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteCrawl(f, 1, k*n/10, n/10); err != nil {
			b.Fatal(err)
		}
		f.Close()
		listing.WriteString(name + "\n")
	}
	if err := os.WriteFile(paths, []byte(listing.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return paths
}
