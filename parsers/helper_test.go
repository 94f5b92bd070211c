package parsers

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the external programs of the exec and
// command tests (the os/exec TestHelperProcess pattern): run with
// REPTEST_HELPER set, TestHelperProcess becomes that program.
const helperEnv = "REPTEST_HELPER"

// helperCommand is the sh command line that runs the helper in mode.
func helperCommand(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "exec " + shellQuote(exe) + " -test.run=^TestHelperProcess$"
}

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	switch {
	case mode == "cmd":
		os.Exit(helperCommandMain(os.Args))
	default:
		helperExecMain(mode)
	}
	os.Exit(0)
}

// helperDecide is the helper's robots.txt parser: a URL path is disallowed
// when it starts with the value of any "Disallow: " line of the body.
func helperDecide(body []byte, url string) bool {
	path := url
	if i := strings.Index(path, "://"); i >= 0 {
		path = path[i+3:]
		if j := strings.IndexByte(path, '/'); j >= 0 {
			path = path[j:]
		} else {
			path = "/"
		}
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, "Disallow: "); ok && v != "" && strings.HasPrefix(path, v) {
			return false
		}
	}
	return true
}

// helperExecMain speaks the reptest/1 protocol. The mode changes the
// hello; the URL of a request picks a misbehaviour.
func helperExecMain(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 4<<20)
	out := bufio.NewWriter(os.Stdout)
	say := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	switch mode {
	case "nohello":
		fmt.Fprintln(os.Stderr, "helper: missing library libfoo")
		os.Exit(3)
	case "badhello":
		if in.Scan() {
			fmt.Println("Welcome to my parser!")
		}
		time.Sleep(time.Minute)
		return
	case "slowhello":
		time.Sleep(time.Minute)
		return
	case "once":
		// Serve once; every later start fails, as if the program broke.
		marker := os.Getenv("REPTEST_MARKER")
		if _, err := os.Stat(marker); err == nil {
			fmt.Fprintln(os.Stderr, "helper: refusing to start again")
			os.Exit(4)
		}
		os.WriteFile(marker, nil, 0o600)
	}
	for in.Scan() {
		var req map[string]any
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			say(map[string]string{"error": err.Error()})
			continue
		}
		if _, ok := req["hello"]; ok {
			caps := []string{"parse", "status", "teleport"}
			name := "helper"
			switch mode {
			case "parseonly":
				caps = []string{"parse"}
			case "batch":
				caps = append(caps, "batch")
			case "badname":
				name = "a=b"
			case "usage":
				caps = []string{"parse", "usage"}
			}
			say(map[string]any{"name": name, "version": "9.9", "runtime": "helper-runtime 1.0", "capabilities": caps})
			continue
		}
		// REPTEST_DELAY slows every answer down: that long per question.
		delay, _ := time.ParseDuration(os.Getenv("REPTEST_DELAY"))
		if qs, ok := req["questions"].([]any); ok {
			time.Sleep(time.Duration(len(qs)) * delay)
			helperBatch(req, qs, say)
			continue
		}
		time.Sleep(delay)
		id, _ := req["id"].(string)
		url, _ := req["url"].(string)
		body, err := base64.StdEncoding.DecodeString(fmt.Sprint(req["robots_b64"]))
		if err != nil {
			say(map[string]string{"id": id, "error": "bad base64"})
			continue
		}
		path := url[strings.LastIndexByte(url, '/'):]
		if cats, ok := req["usage"].([]any); ok {
			// A usage request: "n" for every category under /no-ai.
			usage := map[string]string{}
			for _, c := range cats {
				usage[fmt.Sprint(c)] = "unknown"
				if strings.Contains(url, "/no-ai") {
					usage[fmt.Sprint(c)] = "n"
				}
			}
			if path == "/nousage" {
				usage = nil
			}
			say(map[string]any{"id": id, "verdict": "allow", "usage": usage})
			continue
		}
		switch path {
		case "/crash":
			fmt.Fprintln(os.Stderr, "helper: crashing on purpose")
			os.Exit(2)
		case "/hang":
			// Leave a grandchild in the process group: killing the group
			// must take it along.
			sleep := exec.Command("sleep", "300")
			if err := sleep.Start(); err == nil {
				fmt.Fprintf(os.Stderr, "grandchild %d\n", sleep.Process.Pid)
			}
			time.Sleep(5 * time.Minute)
		case "/garbage":
			fmt.Fprintln(os.Stderr, "helper: printing garbage")
			fmt.Println("allow, I think")
		case "/wrongid":
			say(map[string]string{"id": "nope", "verdict": "allow"})
		case "/numberid":
			var n json.Number = json.Number(id)
			say(map[string]any{"id": n, "verdict": "allow"})
		case "/error":
			say(map[string]string{"id": id, "error": "cannot do that"})
		case "/errdetail":
			say(map[string]string{"id": id, "error": "cannot do that", "detail": "no such file"})
		case "/rejdetail":
			say(map[string]string{"id": id, "verdict": "reject", "detail": "line 2: no colon"})
		case "/dup":
			say(map[string]string{"id": id, "verdict": "allow"})
			say(map[string]string{"id": id, "verdict": "disallow"})
		case "/stall":
			time.Sleep(5 * time.Minute)
		case "/maybe":
			say(map[string]string{"id": id, "verdict": "maybe"})
		case "/empty":
			say(map[string]string{"id": id})
		case "/reject":
			say(map[string]string{"id": id, "verdict": "reject"})
		case "/huge":
			out.WriteString(`{"id":"` + id + `","verdict":"allow","pad":"` + strings.Repeat("x", MaxLine) + "\"}\n")
			out.Flush()
		case "/noisy":
			fmt.Fprint(os.Stderr, strings.Repeat("n", 3*StderrKeep)+"END-OF-NOISE")
			say(map[string]string{"id": id, "verdict": "allow"})
		default:
			v := "allow"
			if st, ok := req["status"].(float64); ok {
				if st >= 500 {
					v = "disallow"
				}
			} else if !helperDecide(body, url) {
				v = "disallow"
			}
			say(map[string]string{"id": id, "verdict": v})
		}
	}
}

// helperBatch answers a batch request: one verdict per question, as the
// single requests would be answered.
func helperBatch(req map[string]any, qs []any, say func(any)) {
	body, _ := base64.StdEncoding.DecodeString(fmt.Sprint(req["robots_b64"]))
	var answers []map[string]string
	for _, q := range qs {
		url, _ := q.(map[string]any)["url"].(string)
		switch {
		case strings.HasSuffix(url, "/stall"):
			time.Sleep(5 * time.Minute)
		case strings.HasSuffix(url, "/error"):
			answers = append(answers, map[string]string{"error": "cannot do that"})
		case helperDecide(body, url):
			answers = append(answers, map[string]string{"verdict": "allow"})
		default:
			answers = append(answers, map[string]string{"verdict": "disallow"})
		}
	}
	if strings.HasSuffix(fmt.Sprint(req["profile"]), "short") {
		answers = answers[:len(answers)-1]
	}
	say(map[string]any{"id": req["id"], "answers": answers})
}

// helperCommandMain is a one-check-per-process parser: argv after "--" is
// ROBOTS-FILE URL AGENT. It prints its verdict and exits 0 (allowed) or
// 1 (disallowed); the URL picks a misbehaviour.
func helperCommandMain(args []string) int {
	i := 0
	for i < len(args) && args[i] != "--" {
		i++
	}
	args = args[min(i+1, len(args)):]
	if len(args) != 3 {
		fmt.Fprintf(os.Stderr, "helper: want 3 arguments, got %q\n", args)
		return 2
	}
	robots, url, agent := args[0], args[1], args[2]
	if want := os.Getenv("REPTEST_WANT_URL"); want != "" && want != url {
		fmt.Fprintf(os.Stderr, "helper: url %q, want %q\n", url, want)
		return 2
	}
	if want := os.Getenv("REPTEST_WANT_AGENT"); want != "" && want != agent {
		fmt.Fprintf(os.Stderr, "helper: agent %q, want %q\n", agent, want)
		return 2
	}
	body, err := os.ReadFile(robots)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 2
	}
	switch {
	case strings.HasSuffix(url, "/crash"):
		fmt.Fprintln(os.Stderr, "helper: segmentation fault (pretend)")
		return 139
	case strings.HasSuffix(url, "/hang"):
		sleep := exec.Command("sleep", "300")
		if err := sleep.Start(); err == nil {
			fmt.Fprintf(os.Stderr, "grandchild %d\n", sleep.Process.Pid)
		}
		time.Sleep(5 * time.Minute)
	case strings.HasSuffix(url, "/mute"):
		return 0
	case strings.HasSuffix(url, "/leak"), strings.HasSuffix(url, "/holdout"):
		// Exit normally, leaving a grandchild behind; with /holdout it
		// keeps standard output open.
		sleep := exec.Command("sleep", "300")
		if strings.HasSuffix(url, "/holdout") {
			sleep.Stdout = os.Stdout
		}
		if err := sleep.Start(); err == nil {
			fmt.Fprintf(os.Stderr, "grandchild %d\n", sleep.Process.Pid)
		}
	case strings.HasSuffix(url, "/both"):
		fmt.Println("ALLOWED and DISALLOWED")
		return 0
	}
	if helperDecide(body, url) {
		fmt.Println("verdict: ALLOWED")
		return 0
	}
	fmt.Println("verdict: DISALLOWED")
	return 1
}
