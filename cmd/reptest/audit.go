package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
)

// cmdAudit judges the bots of a site's access logs against its robots.txt
// versions.
func cmdAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("audit", stderr)
	var robots, logs, agents multi
	fs.Var(&robots, "robots", "a robots.txt `FILE`, or FILE@TIME (RFC 3339) in force from TIME on (repeatable)")
	git := fs.String("robots-git", "", "robots.txt versions from a git history: `REPO:PATH` (commit times)")
	fs.Var(&logs, "log", "an access log `FILE` (repeatable; - for stdin)")
	format := fs.String("log-format", "combined", "combined, json or cloudflare (JSON lines with Cloudflare's field names)")
	fields := fs.String("fields", "", "JSON field names, `key=name,...` (keys time, method, url, user_agent, status, verified)")
	fs.Var(&agents, "agent", "audit only this product token (repeatable; default: every token the file names, and *)")
	grace := fs.Duration("grace", 24*time.Hour, "how long a bot may use its copy of robots.txt (CACHE-2)")
	profile := fs.String("profile", cases.ProfileRFC, "read robots.txt as rfc9309 or google")
	var out outputFlags
	out.register(fs, flagJSON|flagHTML|flagJUnit)
	quiet := fs.Bool("quiet", false, "print nothing but errors")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(pos) > 0:
		fmt.Fprintf(stderr, "reptest audit: unexpected argument %q\n", pos[0])
		return 2
	case len(logs) == 0:
		fmt.Fprintln(stderr, "reptest audit: give at least one --log")
		return 2
	case len(robots) == 0 && *git == "":
		fmt.Fprintln(stderr, "reptest audit: give --robots FILE[@TIME]... or --robots-git REPO:PATH")
		return 2
	case !checkProfile("audit", *profile, stderr):
		return 2
	}
	for _, a := range agents {
		if !reference.IsProductToken(a) {
			fmt.Fprintf(stderr, "reptest audit: --agent %q is not a product token ([a-zA-Z_-]+)\n", a)
			return 2
		}
	}
	f, err := logFormat(*format, *fields)
	if err != nil {
		fmt.Fprintln(stderr, "reptest audit:", err)
		return 2
	}
	versions, err := readVersions(ctx, robots, *git)
	if err != nil {
		fmt.Fprintln(stderr, "reptest audit:", err)
		return 2
	}
	opts, _ := reference.OptionsFor(*profile)
	a := accesslog.NewAuditor(versions, accesslog.Options{Agents: agents, Grace: *grace, Reference: opts})
	var scanners []*accesslog.Scanner
	for _, name := range logs {
		sc, err := scanLog(ctx, a, name, f)
		if sc != nil {
			scanners = append(scanners, sc)
		}
		if err != nil {
			fmt.Fprintln(stderr, "reptest audit:", err)
			return 2
		}
	}
	rep := a.Report(scanners...)
	sums, results := accesslog.Results(rep)
	doc := report.FromResults(report.Meta{Version: reference.Version, Profile: *profile}, sums, results, nil)
	if !out.write("audit", doc, nil, stderr) {
		return exitUsage
	}
	if !*quiet {
		accesslog.WriteText(stdout, rep)
	}
	return resultStatus(doc)
}

// logFormat builds the log format of the flags.
func logFormat(name, fields string) (accesslog.Format, error) {
	var f accesslog.Format
	switch name {
	case "combined":
		if fields != "" {
			return f, fmt.Errorf("--fields is for JSON logs (--log-format json or cloudflare)")
		}
		return f, nil
	case "json":
		f.JSON, f.Fields = true, accesslog.JSONFields
	case "cloudflare":
		f.JSON, f.Fields = true, accesslog.CloudflareFields
	default:
		return f, fmt.Errorf("--log-format must be combined, json or cloudflare, not %q", name)
	}
	var err error
	f.Fields, err = accesslog.ParseFields(fields, f.Fields)
	return f, err
}

// readVersions reads the robots.txt versions of --robots and --robots-git.
func readVersions(ctx context.Context, robots []string, git string) ([]crawl.Version, error) {
	var vs []crawl.Version
	for _, arg := range robots {
		v, err := accesslog.ReadVersion(arg)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	if git != "" {
		gv, err := accesslog.GitVersions(ctx, git)
		if err != nil {
			return nil, err
		}
		vs = append(vs, gv...)
	}
	return vs, nil
}

// scanLog feeds one log ("-": standard input) to the auditor. When ctx
// is cancelled (looked at every 65536 lines) it stops, and the scanner
// returned holds what was read.
func scanLog(ctx context.Context, a *accesslog.Auditor, name string, f accesslog.Format) (*accesslog.Scanner, error) {
	r, err := openInput(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	sc := accesslog.NewScanner(r, name, f)
	for sc.Scan() {
		a.Add(sc.Request())
		if sc.Lines()%65536 == 0 && ctx.Err() != nil {
			return sc, ctx.Err()
		}
	}
	return sc, sc.Err()
}
