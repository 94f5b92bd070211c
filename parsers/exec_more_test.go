package parsers

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/result"
)

// TestExecBreaker checks that a program that stalls on every request is
// restarted after each stall, and after maxStalls inputs in a row without
// an answer is not asked again: the later checks fail at once, with the
// reason. Stalls in a row on one input count once.
func TestExecBreaker(t *testing.T) {
	e := newHelperExec(t, "good", 300*time.Millisecond)
	stall := func(body string) cases.Request {
		return cases.Request{Agent: "FooBot", URL: "https://example.com/stall", Robots: []byte(body)}
	}
	open := cases.Request{Agent: "FooBot", URL: "https://example.com/open"}
	mustStall := func(req cases.Request) {
		t.Helper()
		if _, err := e.Check(context.Background(), req); err == nil {
			t.Fatal("no error for a stalled check")
		}
	}
	// Two stalls, then an answer: the run of stalls ends.
	for i := range maxStalls - 1 {
		mustStall(stall(fmt.Sprint("body ", i)))
	}
	if v, err := e.Check(context.Background(), open); err != nil || v != result.Allow {
		t.Fatalf("check after %d stalls: %q, %v; want allow (restarted)", maxStalls-1, v, err)
	}
	// Many stalls on one input count as one.
	for range maxStalls + 2 {
		mustStall(stall("one body"))
	}
	if v, err := e.Check(context.Background(), open); err != nil || v != result.Allow {
		t.Fatalf("check after stalls on one input: %q, %v; want allow (restarted)", v, err)
	}
	for i := range maxStalls {
		mustStall(stall(fmt.Sprint("body ", i)))
	}
	starts := e.starts
	for i := range 5 {
		_, err := e.Check(context.Background(), open)
		want := fmt.Sprintf("not asked again after %d inputs in a row without an answer: no answer within 300ms", maxStalls)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check %d after the breaker opened: error %v, want one containing %q", i, err, want)
		}
	}
	if e.starts != starts {
		t.Errorf("%d programs started after the breaker opened, want none", e.starts-starts)
	}
}

// TestExecCancelKills checks that cancelling NewExec's context stops the
// program, so that an interrupted run leaves no process behind.
func TestExecCancelKills(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, err := NewExec(ctx, helperCommand(t), ExecOptions{Env: []string{helperEnv + "=good"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	pid := e.idle[0].cmd.Process.Pid
	cancel()
	waitGone(t, pid)
	if _, err := e.Check(context.Background(), cases.Request{Agent: "FooBot", URL: "https://example.com/open"}); err == nil {
		t.Error("check after the context was cancelled succeeded")
	}
}

func TestExecDetail(t *testing.T) {
	e := newHelperExec(t, "good", time.Second)
	tests := []struct {
		path       string
		want       result.Verdict
		wantDetail string
		wantErr    string
	}{
		{"/rejdetail", result.Reject, "line 2: no colon", ""},
		{"/errdetail", "", "no such file", "answered an error: cannot do that$"},
		{"/reject", result.Reject, "", ""},
		{"/open", result.Allow, "", ""},
	}
	for _, tt := range tests {
		v, detail, err := e.CheckDetail(context.Background(), cases.Request{Agent: "FooBot", URL: "https://example.com" + tt.path})
		if v != tt.want || detail != tt.wantDetail {
			t.Errorf("%s: verdict %q, detail %q; want %q, %q", tt.path, v, detail, tt.want, tt.wantDetail)
		}
		if (err != nil) != (tt.wantErr != "") || err != nil && !regexp.MustCompile(tt.wantErr).MatchString(err.Error()) {
			t.Errorf("%s: error %v, want one matching %q", tt.path, err, tt.wantErr)
		}
		var ae *AnswerError
		if tt.wantErr != "" && (!errors.As(err, &ae) || ae.Detail != tt.wantDetail) {
			t.Errorf("%s: error %#v is not an AnswerError with the detail", tt.path, err)
		}
	}
}

func TestValidName(t *testing.T) {
	for _, name := range []string{"python-urllib", "my parser 2", "naïve"} {
		if err := ValidName(name); err != nil {
			t.Errorf("ValidName(%q) = %v", name, err)
		}
	}
	for _, name := range []string{"", "a=b", "a,b", "a≠b", "a\x1bb", "a\nb", "a\u202eb", "a\xffb"} {
		if err := ValidName(name); err == nil {
			t.Errorf("ValidName(%q) accepted it", name)
		}
	}
	_, err := NewExec(context.Background(), helperCommand(t), ExecOptions{Env: []string{helperEnv + "=badname"}})
	if err == nil || !strings.Contains(err.Error(), `"a=b" contains '='`) {
		t.Errorf("a hello named \"a=b\": error %v", err)
	}
	e, err := NewExec(context.Background(), helperCommand(t), ExecOptions{Name: "mine", Env: []string{helperEnv + "=badname"}})
	if err != nil {
		t.Errorf("a hello named \"a=b\" under --name mine: %v", err)
	} else {
		e.Close()
	}
	if _, err := NewExec(context.Background(), helperCommand(t), ExecOptions{Name: "x,y", Env: []string{helperEnv + "=good"}}); err == nil {
		t.Error("NewExec accepted the name \"x,y\"")
	}
}

// batchQuestions returns n questions with a mix of verdicts.
func batchQuestions(n int) []cases.Question {
	qs := make([]cases.Question, n)
	for i := range qs {
		path := fmt.Sprintf("/page/%d", i)
		if i%3 == 0 {
			path = fmt.Sprintf("/private/%d", i)
		}
		qs[i] = cases.Question{Agent: "FooBot", URL: "https://example.com" + path}
	}
	return qs
}

// TestExecBatch checks that a program with the batch capability gets one
// request per BatchPart questions, a program without it one per question,
// and that both give the verdicts Check gives.
func TestExecBatch(t *testing.T) {
	qs := batchQuestions(3*BatchPart + 7)
	req := cases.Request{Robots: []byte(helperBody), Profile: "rfc9309"}
	var want []result.Verdict
	single := newHelperExec(t, "good", 2*time.Second)
	for _, q := range qs {
		r := req
		r.Agent, r.URL = q.Agent, q.URL
		v, err := single.Check(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, v)
	}
	for _, tt := range []struct {
		mode     string
		requests uint64
	}{{"batch", 4}, {"good", uint64(len(qs))}} {
		e := newHelperExec(t, tt.mode, 2*time.Second)
		before := e.nextID.Load()
		vs, errs := e.CheckBatch(context.Background(), req, qs)
		for i, err := range errs {
			if err != nil {
				t.Fatalf("%s: question %d: %v", tt.mode, i, err)
			}
		}
		if diff := cmp.Diff(want, vs); diff != "" {
			t.Errorf("%s: batch verdicts differ from Check's (-want +got):\n%s", tt.mode, diff)
		}
		if n := e.nextID.Load() - before; n != tt.requests {
			t.Errorf("%s: %d requests for %d questions, want %d", tt.mode, n, len(qs), tt.requests)
		}
	}
}

func TestExecBatchErrors(t *testing.T) {
	e := newHelperExec(t, "batch", 2*time.Second)
	qs := []cases.Question{{Agent: "FooBot", URL: "https://example.com/a"}, {Agent: "FooBot", URL: "https://example.com/error"}}
	vs, errs := e.CheckBatch(context.Background(), cases.Request{Robots: []byte(helperBody)}, qs)
	if vs[0] != result.Allow || errs[0] != nil {
		t.Errorf("question 1: %q, %v; want allow", vs[0], errs[0])
	}
	if errs[1] == nil || !strings.Contains(errs[1].Error(), "question 2: the parser answered an error: cannot do that") {
		t.Errorf("question 2: error %v", errs[1])
	}
	// An answer with too few verdicts fails the whole batch.
	_, errs = e.CheckBatch(context.Background(), cases.Request{Robots: []byte(helperBody), Profile: "short"}, qs)
	for i, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "1 answers to 2 questions") {
			t.Errorf("short answer, question %d: error %v", i+1, err)
		}
	}
}

// TestExecProcs checks that concurrent checks run on up to Procs copies of
// the program, with the answers of one copy.
func TestExecProcs(t *testing.T) {
	e, err := NewExec(context.Background(), helperCommand(t), ExecOptions{Procs: 3, Timeout: 5 * time.Second, Env: []string{helperEnv + "=good"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 60)
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				path, want := fmt.Sprintf("/open/%d/%d", g, i), result.Allow
				if i%2 == 0 {
					path, want = "/private"+path, result.Disallow
				}
				v, err := e.Check(context.Background(), cases.Request{Robots: []byte(helperBody), Agent: "FooBot", URL: "https://example.com" + path})
				if err != nil || v != want {
					errs <- fmt.Errorf("%s: %q, %v; want %q", path, v, err, want)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	e.mu.Lock()
	starts, idle := e.starts, len(e.idle)
	e.mu.Unlock()
	if starts < 1 || starts > 3 || idle != starts {
		t.Errorf("%d programs started, %d idle; want 1 to 3, all idle", starts, idle)
	}
}

func TestBatchTimeout(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want time.Duration
	}{{0, 64 * time.Second}, {1, 64 * time.Second}, {2, 128 * time.Second}, {60, 3840 * time.Second}, {1024, 65536 * time.Second}} {
		if got := BatchTimeout(64*time.Second, tt.n); got != tt.want {
			t.Errorf("BatchTimeout(64s, %d) = %s, want %s", tt.n, got, tt.want)
		}
	}
}

// TestExecSlowButInTime checks the timeouts as documented: a program that
// answers each question in 0.6 of the per-check timeout gets every verdict
// of a 60-question file, asked one by one under the shared deadline a
// caller gives the file (BatchTimeout) or in one batch request, however
// long the whole takes; a question it stalls on is an error of its own,
// from its own timeout, and the questions after it are answered.
func TestExecSlowButInTime(t *testing.T) {
	// 0.6 of the timeout leaves 400 ms per question for the pipe and the
	// scheduler of a busy machine (200 ms was not enough at load 48); the
	// cases sleep side by side, 36 s, using next to no CPU.
	const timeout = time.Second
	req := cases.Request{Case: "slow", Robots: []byte("User-agent: *\nDisallow: /private\n")}
	for _, tt := range []struct {
		mode  string
		stall int // the question the program stalls on, or -1
	}{{"good", -1}, {"batch", -1}, {"good", 30}} {
		t.Run(fmt.Sprintf("%s,stall=%d", tt.mode, tt.stall), func(t *testing.T) {
			t.Parallel()
			slowButInTime(t, tt.mode, tt.stall, timeout, req)
		})
	}
}

// slowButInTime asks a helper in mode, answering each question in 0.6 of
// timeout, 60 questions about req's body, stalling on question stall
// (none when -1).
func slowButInTime(t *testing.T, mode string, stall int, timeout time.Duration, req cases.Request) {
	e := newHelperExec(t, mode, timeout, "REPTEST_DELAY="+(timeout*6/10).String())
	qs := make([]cases.Question, 60)
	want := make([]result.Verdict, len(qs))
	for i := range qs {
		qs[i], want[i] = cases.Question{Agent: "FooBot", URL: fmt.Sprintf("https://example.com/p%d", i)}, result.Allow
		if i%7 == 3 {
			qs[i].URL, want[i] = fmt.Sprintf("https://example.com/private/%d", i), result.Disallow
		}
	}
	if stall >= 0 {
		qs[stall].URL, want[stall] = "https://example.com/stall", ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), BatchTimeout(timeout, len(qs)))
	vs, errs := e.CheckBatch(ctx, req, qs)
	cancel()
	if diff := cmp.Diff(want, vs); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	for i, err := range errs {
		var st *stallError
		switch {
		case i == stall && !errors.As(err, &st):
			t.Errorf("question %d (a stall): error %v, want its own timeout", i, err)
		case i != stall && err != nil:
			t.Errorf("question %d: %v", i, err)
		}
	}
}

// TestExecBodyStalled checks the bound on a body a program grinds on: the
// questions after the batch request (or the MaxBodyStalls questions) that
// stalled are not asked, each an error wrapping ErrBodyStalled, so the
// body costs a few check timeouts, not one per question; the next body is
// asked again.
func TestExecBodyStalled(t *testing.T) {
	const timeout = 300 * time.Millisecond
	req := cases.Request{Robots: []byte(helperBody), Profile: "rfc9309"}
	for _, tt := range []struct {
		mode     string
		answered int // questions answered before the first stall
		notAsked int // the first question not asked
		stalled  int // questions that stalled, each with its own timeout
	}{{"batch", BatchPart, 2 * BatchPart, BatchPart}, {"good", 2, 2 + 3*(MaxBodyStalls-1) + 1, MaxBodyStalls}} {
		t.Run(tt.mode, func(t *testing.T) {
			e := newHelperExec(t, tt.mode, timeout)
			qs := batchQuestions(10 * BatchPart)
			for i := tt.answered; i < len(qs); i += 3 {
				qs[i].URL = "https://example.com/stall"
			}
			start := time.Now()
			vs, errs := e.CheckBatch(context.Background(), req, qs)
			took := time.Since(start)
			for i := range qs {
				switch {
				case i < tt.answered && (errs[i] != nil || vs[i] == ""):
					t.Errorf("question %d: %q, %v; want a verdict", i, vs[i], errs[i])
				case i >= tt.notAsked && !errors.Is(errs[i], ErrBodyStalled):
					t.Errorf("question %d: %q, %v; want ErrBodyStalled", i, vs[i], errs[i])
				}
			}
			// Each stalled request costs its questions' timeouts and a
			// restart; asking every question would take 54 stalls.
			if limit := time.Duration(tt.stalled+20) * timeout; took > limit {
				t.Errorf("the body took %s, more than %s", took, limit)
			}
			if v, err := e.Check(context.Background(), cases.Request{Robots: req.Robots, Agent: "FooBot", URL: "https://example.com/a"}); err != nil || v != result.Allow {
				t.Errorf("the next check: %q, %v; want allow", v, err)
			}
		})
	}
}
