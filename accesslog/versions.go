package accesslog

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/reptest/reptest/crawl"
)

// ReadVersion reads a --robots argument: FILE, in force from the start,
// or FILE@TIME (RFC 3339), in force from TIME on. read reads the file:
// the caller bounds its size and its waits (a device, a pipe).
func ReadVersion(arg string, read func(file string) ([]byte, error)) (crawl.Version, error) {
	file, at := arg, time.Time{}
	if i := strings.LastIndexByte(arg, '@'); i >= 0 {
		t, err := time.Parse(time.RFC3339, arg[i+1:])
		if err != nil {
			return crawl.Version{}, fmt.Errorf("--robots %q: the time after @ is not RFC 3339 (2026-10-06T00:00:00Z): %w", arg, err)
		}
		file, at = arg[:i], t
	}
	body, err := read(file)
	if err != nil {
		return crawl.Version{}, fmt.Errorf("--robots: %w", err)
	}
	label := file
	if !at.IsZero() {
		label = file + "@" + at.UTC().Format(time.RFC3339)
	}
	return crawl.Version{From: at, Status: http.StatusOK, Body: body, Label: label}, nil
}

// maxGitVersions bounds the commits read from a file's history.
const maxGitVersions = 1000

// GitVersions reads the versions of a file from a git repository's
// history, spec being REPO:PATH: one version per commit that changed it,
// in force from the commit time on. A commit that deleted the file gives
// a version served with 404.
func GitVersions(ctx context.Context, spec string) ([]crawl.Version, error) {
	repo, path, ok := strings.Cut(spec, ":")
	if !ok || repo == "" || path == "" {
		return nil, fmt.Errorf("--robots-git %q: want REPO:PATH", spec)
	}
	out, err := exec.CommandContext(ctx, "git", "-C", repo, "log", fmt.Sprintf("--max-count=%d", maxGitVersions),
		"--format=%H %cI", "--", path).Output()
	if err != nil {
		return nil, fmt.Errorf("--robots-git %s: git log: %w%s", spec, err, stderrOf(err))
	}
	var vs []crawl.Version
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		hash, when, _ := strings.Cut(sc.Text(), " ")
		t, err := time.Parse(time.RFC3339, when)
		if err != nil {
			return nil, fmt.Errorf("--robots-git %s: commit %s: time %q: %w", spec, hash, when, err)
		}
		v := crawl.Version{From: t, Status: http.StatusOK, Label: fmt.Sprintf("git %.7s (%s)", hash, t.UTC().Format(time.RFC3339))}
		body, err := exec.CommandContext(ctx, "git", "-C", repo, "show", hash+":"+path).Output()
		if err != nil {
			v.Status = http.StatusNotFound
			v.Label += ", file deleted"
		}
		v.Body = body
		vs = append(vs, v)
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("--robots-git %s: no commit touches %s", spec, path)
	}
	return vs, nil
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return ": " + strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}
