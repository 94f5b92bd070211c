package setup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
)

// npmOffline matches npm's messages for a registry it cannot reach.
var npmOffline = regexp.MustCompile(`ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|ENETUNREACH|EHOSTUNREACH|network request .* failed|request to \S+ failed`)

// NpmInstall runs `npm ci` in dir: the libraries its package-lock.json
// pins, exactly, taken from npm's cache when they are there (so a second
// install works offline). npm's output goes to w. When the registry
// cannot be reached, the error says so and nothing is half-installed:
// npm ci removes node_modules first and writes it only on success.
func NpmInstall(ctx context.Context, dir string, w io.Writer) error {
	npm, err := exec.LookPath("npm")
	if err != nil {
		if apt := SuggestedApt(ctx, []string{"nodejs", "npm"}); len(apt) > 0 {
			return fmt.Errorf("npm not found on PATH; install with `%s`", AptCommand(apt))
		}
		return errors.New("npm not found on PATH, though node is: install the npm of that Node.js (NodeSource's nodejs package includes it; Debian's npm conflicts with it)")
	}
	if _, err := os.Stat(dir + "/package-lock.json"); err != nil {
		return fmt.Errorf("npm ci in %s: no package-lock.json there: %w", dir, err)
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--fetch-retries=1")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = io.MultiWriter(w, &out), io.MultiWriter(w, &out)
	err = cmd.Run()
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("npm ci in %s: %w", dir, ctx.Err())
	case npmOffline.Match(out.Bytes()):
		return fmt.Errorf("npm ci in %s: the npm registry (%s) cannot be reached: %s; nothing was installed: connect this machine, or point npm at a mirror it can reach (npm config set registry URL), and run `reptest doctor --install` again",
			dir, npmRegistry(ctx, npm), npmOffline.Find(out.Bytes()))
	}
	return fmt.Errorf("npm ci in %s: %w: %s", dir, err, lastLine(out.Bytes()))
}

// npmRegistry returns the registry npm is configured with.
func npmRegistry(ctx context.Context, npm string) string {
	out, err := exec.CommandContext(ctx, npm, "config", "get", "registry").Output()
	if err != nil {
		return "its configured registry"
	}
	return strings.TrimSpace(string(out))
}

// ErrNotRoot is returned by AptInstall when not run as root.
var ErrNotRoot = errors.New("installing Debian packages needs root")

// AptInstall runs apt-get update and AptCommand(pkgs) as root, with
// their output to w.
func AptInstall(ctx context.Context, pkgs []string, w io.Writer) error {
	if len(pkgs) == 0 {
		return nil
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("%w: run `sudo %s`", ErrNotRoot, AptCommand(pkgs))
	}
	for _, args := range [][]string{{"update"}, strings.Fields(strings.TrimPrefix(AptCommand(pkgs), "apt-get "))} {
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		cmd.Stdout, cmd.Stderr = w, w
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("apt-get %s: %w", strings.Join(args, " "), err)
		}
	}
	return nil
}
