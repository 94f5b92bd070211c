package crawl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/reptest/reptest/internal/cmdline"
)

// versionTimeout bounds a version command.
const versionTimeout = time.Minute

// interpreters are programs whose --version names themselves rather than
// the crawler script they run.
var interpreters = []string{"python", "python3", "ruby", "node", "nodejs", "perl", "sh", "bash", "env", "java"}

// Version returns the crawler's version: the first line a version command
// prints. command is split into words as templates are; empty means the
// template's program with --version, unless that program is an
// interpreter (python3, node, …), whose version would name itself: then
// the version is unknown ("", nil) and the caller should pass a command.
func (c *Crawler) Version(ctx context.Context, command string) (string, error) {
	var words []string
	if command != "" {
		w, err := cmdline.Split(command)
		if err != nil {
			return "", fmt.Errorf("version command %q: %w", command, err)
		}
		words = w
	} else {
		w, err := cmdline.Split(c.Template)
		if err != nil || len(w) == 0 {
			return "", nil
		}
		prog := strings.TrimSuffix(filepath.Base(w[0]), filepath.Ext(w[0]))
		for _, in := range interpreters {
			if prog == in || strings.HasPrefix(prog, in) && strings.Trim(prog[len(in):], "0123456789.") == "" {
				return "", nil
			}
		}
		words = []string{w[0], "--version"}
	}
	if len(words) == 0 {
		return "", errors.New("the version command is empty")
	}
	line, err := firstLine(ctx, words)
	if err != nil && command == "" {
		// The program does not answer --version: its version is unknown.
		return "", nil
	}
	return line, err
}

// firstLine runs words and returns the first non-blank line of what it
// printed (standard output, else standard error), trimmed.
func firstLine(ctx context.Context, words []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, words[0], words[1:]...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limited{b: &out}, &limited{b: &errOut}
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if err != nil {
		return "", fmt.Errorf("version command %q: %w", strings.Join(words, " "), err)
	}
	for _, b := range []*bytes.Buffer{&out, &errOut} {
		for _, l := range strings.Split(b.String(), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return strings.ToValidUTF8(l[:min(len(l), 200)], "\uFFFD"), nil
			}
		}
	}
	return "", fmt.Errorf("version command %q printed nothing", strings.Join(words, " "))
}

// limited keeps the first 64 KiB written to it.
type limited struct{ b *bytes.Buffer }

func (l *limited) Write(p []byte) (int, error) {
	if room := 64<<10 - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
