package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/reptest/reptest/setup"
	"github.com/reptest/reptest/setup/setuptest"
)

// fakeTools makes PATH a folder of fake programs: ruby loads any library
// and answers the hello as webrobots, wget prints its version; perl,
// faketime and the others are absent.
func fakeTools(t *testing.T) {
	t.Helper()
	setuptest.FakePath(t, map[string]string{
		"ruby": `case "$1" in -e) exit 0;; esac
read hello
echo '{"name":"webrobots","version":"0.1.2","runtime":"fake-ruby 9.9","capabilities":["parse"]}'
while read line; do :; done`,
		"wget": `echo "GNU Wget 1.21.3 built on linux-gnu."`,
	})
}

func TestDoctor(t *testing.T) {
	fakeTools(t)
	for _, tt := range []struct {
		args     []string
		code     int
		want     []string // regular expressions, each matching a line of stdout
		wantNone string   // a regular expression no line matches
	}{
		{[]string{"--parser", "webrobots", "--crawler", "wget"}, 0,
			[]string{`^parser +webrobots +ready +0\.1\.2 +fake-ruby 9\.9$`, `^crawler +wget +ready +1\.21\.3 +-$`, `^2 of 2 ready\.$`}, `MISSING|install`},
		{[]string{"--parser", "perl-robotrules", "--tool", "faketime", "--parser", "reference"}, 1,
			[]string{`^parser +perl-robotrules +MISSING +- +-$`, `^parser +reference +ready `, `^tool +faketime +MISSING`, `^1 of 3 ready\.$`,
				`^parser perl-robotrules: perl not found$`,
				`^  install: apt-get install -y --no-install-recommends libjson-xs-perl libwww-robotrules-perl perl$`,
				`^tool faketime: faketime not found on PATH$`},
			`npm`},
	} {
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), append([]string{"doctor"}, tt.args...), &stdout, &stderr)
		if code != tt.code {
			t.Errorf("doctor %v: exit %d, want %d; stderr %s", tt.args, code, tt.code, stderr.String())
		}
		for _, w := range tt.want {
			if !regexp.MustCompile(`(?m)` + w).MatchString(stdout.String()) {
				t.Errorf("doctor %v: no line matches %s in\n%s", tt.args, w, stdout.String())
			}
		}
		if regexp.MustCompile(tt.wantNone).MatchString(stdout.String()) {
			t.Errorf("doctor %v: %s appears in\n%s", tt.args, tt.wantNone, stdout.String())
		}
	}
}

func TestDoctorJSON(t *testing.T) {
	fakeTools(t)
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"doctor", "--json", "--parser", "webrobots", "--crawler", "wget2"}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1; stderr %s", code, stderr.String())
	}
	var rep doctorReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v in %s", err, stdout.String())
	}
	if rep.Ready || len(rep.Items) != 2 || !rep.Items[0].Ready || rep.Items[1].Ready || rep.Items[1].Kind != setup.KindCrawler {
		t.Errorf("report %+v; want webrobots ready, wget2 missing", rep)
	}
	if !strings.Contains(rep.Apt, "wget2") {
		t.Errorf("apt %q does not install wget2", rep.Apt)
	}
}

func TestDoctorUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"doctor", "--parser", "nope"}, `--parser "nope": unknown (known: grobotstxt,`},
		{[]string{"doctor", "--crawler", "curl"}, `--crawler "curl": unknown (known: wget, wget2,`},
		{[]string{"doctor", "--apt"}, "--apt goes with --install"},
		{[]string{"doctor", "x"}, `unexpected argument "x"`},
	} {
		var stdout, stderr bytes.Buffer
		if code := dispatch(context.Background(), tt.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// lockedBuffer is stdout and stderr at once, as on a terminal.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestDidNotRunPointsToDoctor runs diff, run and crawl with a parser and a
// crawler that cannot run, stdout and stderr in one stream: each message
// starts on its own line, and the last points to reptest doctor.
func TestDidNotRunPointsToDoctor(t *testing.T) {
	fakeTools(t)
	inputs := t.TempDir()
	if err := os.WriteFile(filepath.Join(inputs, "r.txt"), []byte("User-agent: *\nDisallow: /a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "--parser", "reference", "--parser", "perl-robotrules", "--parser", "reference-google", "--inputs", inputs},
			"reptest diff: perl-robotrules did not run; `reptest doctor --parser perl-robotrules` says what is missing"},
		{[]string{"run", "--parser", "perl-robotrules", "--run", "syntax/*"},
			"reptest run: perl-robotrules did not run; `reptest doctor --parser perl-robotrules` says what is missing"},
		{[]string{"crawl", "--crawler", "wget2 {url}", "--run", "access/authority-lowercase-path", "--timeout", "5s"},
			"`reptest doctor --crawler wget2` says what is missing"},
	} {
		var out lockedBuffer
		dispatch(context.Background(), tt.args, &out, &out)
		s := out.b.String()
		if !strings.Contains(s, tt.want) {
			t.Errorf("%v: no %q in\n%s", tt.args, tt.want, s)
		}
		prefix := "reptest " + tt.args[0] + ":"
		for i := 0; ; {
			j := strings.Index(s[i:], prefix)
			if j < 0 {
				break
			}
			if i+j > 0 && s[i+j-1] != '\n' {
				t.Errorf("%v: %q does not start a line: …%s", tt.args, prefix, s[max(0, i+j-60):i+j+len(prefix)])
			}
			i += j + len(prefix)
		}
	}
}

// TestDoctorInstallWithoutNpm: --install on a machine without npm says
// what installs it, prints the apt-get line, and exits 1.
func TestDoctorInstallWithoutNpm(t *testing.T) {
	fakeTools(t)
	var stdout, stderr bytes.Buffer
	code := dispatch(context.Background(), []string{"doctor", "--install", "--parser", "robots-parser"}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if want := "npm not found on PATH; install with `apt-get install -y --no-install-recommends nodejs npm`"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q; want %q", stderr.String(), want)
	}
	if want := "apt-get update && apt-get install -y --no-install-recommends nodejs npm\n"; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout %q; want %q", stdout.String(), want)
	}
}

// The simplecrawler row, in a checkout on a machine with NodeSource's
// nodejs: npm ci in crawlers/simplecrawler as well as in the Node peers'
// folder, and no Debian npm (it conflicts with that nodejs).
func TestDoctorSimplecrawler(t *testing.T) {
	setuptest.FakePath(t, map[string]string{
		"node":       `case "$1" in --version) echo v20.20.2;; *) echo "Error: Cannot find module" >&2; exit 1;; esac`,
		"dpkg-query": `case "$*" in *nodejs*) echo "install ok installed 20.20.2-1nodesource1";; *) exit 1;; esac`,
	})
	t.Chdir(t.TempDir())
	os.MkdirAll("crawlers/simplecrawler", 0o755)
	os.WriteFile("crawlers/simplecrawler/package-lock.json", []byte("{}"), 0o644)
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"doctor", "--json", "--crawler", "simplecrawler", "--parser", "robots-parser"}, &stdout, &stderr); code != exitFail {
		t.Errorf("exit %d, want 1; stderr %s", code, stderr.String())
	}
	var rep doctorReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v in %s", err, stdout.String())
	}
	if len(rep.NpmDirs) != 2 || !strings.HasSuffix(rep.NpmDirs[0], "node") || rep.NpmDirs[1] != "crawlers/simplecrawler" || rep.Npm != rep.NpmDirs[0] {
		t.Errorf("npm %q, npm_dirs %q; want the peers' node folder, then crawlers/simplecrawler", rep.Npm, rep.NpmDirs)
	}
	if strings.Contains(rep.Apt, "npm") || strings.Contains(rep.Apt, "nodejs") {
		t.Errorf("apt %q: Debian's nodejs or npm next to NodeSource's nodejs", rep.Apt)
	}
	for _, st := range rep.Items {
		if st.Name == "simplecrawler" && st.Install != "cd crawlers/simplecrawler && npm ci --no-audit --no-fund" {
			t.Errorf("simplecrawler's install %q", st.Install)
		}
	}
}
