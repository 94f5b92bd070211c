package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reptest/reptest/accesslog"
	"github.com/reptest/reptest/cases"
	"github.com/reptest/reptest/crawl"
	"github.com/reptest/reptest/reference"
	"github.com/reptest/reptest/report"
	"github.com/reptest/reptest/result"
)

// auditConfig is what the flags of `reptest audit` ask for.
type auditConfig struct {
	robots, logs, agents multi
	ranges               multi  // --verified-ranges FILE
	git                  string // --robots-git REPO:PATH
	formatName, fields   string
	format               accesslog.Format // of formatName and fields, by check
	grace                time.Duration
	profile              string
	quiet                bool
	includeUnnamed       bool
	requests             string // --requests FILE
	out                  outputFlags
}

// cmdAudit judges the bots of a site's access logs against its robots.txt
// versions.
func cmdAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, code, ok := parseAuditFlags(args, stderr)
	if !ok {
		return code
	}
	audit, results, interrupted, err := cfg.audit(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "reptest audit:", err)
		return exitUsage
	}
	if interrupted != "" {
		fmt.Fprintln(stderr, "reptest audit: interrupted; the requests read so far are reported")
	}
	if why := judgedNothing(audit); why != "" && interrupted == "" {
		if !cfg.quiet {
			report.AuditText(stderr, audit)
		}
		fmt.Fprintln(stderr, "reptest audit:", why)
		return exitUsage
	}
	sums, res := results()
	meta := result.Meta{Version: reference.Version, Profile: cfg.profile, Interrupted: interrupted}
	doc := cases.NewDocument(meta, sums, res, nil)
	doc.Audit = audit
	if audit.JudgedOmitted > 0 && cfg.out.json != "" {
		fmt.Fprintf(stderr, "reptest audit: the JSON lists the first %d judged requests of %d; --requests FILE writes them all as JSON lines\n", len(audit.Judged), len(audit.Judged)+audit.JudgedOmitted)
	}
	if !cfg.out.write("audit", doc, stdout, stderr) {
		return exitUsage
	}
	if !cfg.quiet && !cfg.out.toStdout() {
		report.Text(stdout, doc, report.TextOptions{})
	}
	return resultStatus(doc)
}

// parseAuditFlags reads the flags of `reptest audit` and checks them.
// When ok is false the command returns code.
func parseAuditFlags(args []string, stderr io.Writer) (cfg *auditConfig, code int, ok bool) {
	cfg = &auditConfig{}
	fs := newFlags("audit", stderr)
	fs.Var(&cfg.robots, "robots", "a robots.txt `FILE`, or FILE@TIME (RFC 3339) in force from TIME on (repeatable)")
	fs.StringVar(&cfg.git, "robots-git", "", "robots.txt versions from a git history: `REPO:PATH` (commit times)")
	fs.Var(&cfg.logs, "log", "an access log `FILE` or glob, plain or compressed with gzip, bzip2 or zstd (repeatable; - for stdin); several are judged together in time order")
	fs.StringVar(&cfg.formatName, "log-format", "combined", "combined, json, cloudflare (JSON lines with Cloudflare's field names) or cloudflare-graphql (the answer of an httpRequestsAdaptiveGroups query: hourly or minute buckets)")
	fs.StringVar(&cfg.fields, "fields", "", "JSON field names, `key=name,...` (keys time, method, url, user_agent, status, verified, client)")
	fs.Var(&cfg.agents, "agent", "audit only this product token (repeatable; default: every token the file names, and *)")
	fs.BoolVar(&cfg.includeUnnamed, "include-unnamed", false, "judge as * the clients that name no token of the file and look like browsers (default: counted, not judged)")
	fs.Var(&cfg.ranges, "verified-ranges", "a bot's published address ranges, `FILE` in googlebot.json's shape (prefixes: ipv4Prefix/ipv6Prefix; repeatable): requests from inside are verified, others claimed")
	fs.StringVar(&cfg.requests, "requests", "", "write every judged request to `FILE` as JSON lines, streamed (default: listed in --json, up to 100,000)")
	fs.DurationVar(&cfg.grace, "grace", 24*time.Hour, "how long a bot may use its copy of robots.txt (CACHE-2)")
	fs.StringVar(&cfg.profile, "profile", result.ProfileRFC, "read robots.txt as rfc9309 or google")
	cfg.out.register(fs, flagJSON|flagHTML|flagJUnit)
	fs.BoolVar(&cfg.quiet, "quiet", false, "print nothing but errors")
	if code, ok := parseChecked(fs, args, cfg.check); !ok {
		return nil, code, false
	}
	return cfg, exitOK, true
}

// check checks the flags' values and builds the log format.
func (cfg *auditConfig) check(pos []string) error {
	switch {
	case len(pos) > 0:
		return fmt.Errorf("unexpected argument %q", pos[0])
	case len(cfg.logs) == 0:
		return errors.New("give at least one --log")
	case len(cfg.robots) == 0 && cfg.git == "":
		return errors.New("give --robots FILE[@TIME]... or --robots-git REPO:PATH")
	}
	if err := profileError(cfg.profile); err != nil {
		return err
	}
	if cfg.requests == "-" {
		return errors.New("--requests - : give a file (standard output holds the report)")
	}
	for _, a := range cfg.agents {
		if !reference.IsProductToken(a) {
			return fmt.Errorf("--agent %q is not a product token ([a-zA-Z_-]+)", a)
		}
	}
	var err error
	cfg.format, err = logFormat(cfg.formatName, cfg.fields)
	return err
}

// audit reads the robots.txt versions and feeds the logs to an auditor,
// merged in time order; results gives the audit's results, with levels
// from the requirement table. When ctx is cancelled while the logs are
// read, the audit holds the requests read so far and interrupted says
// why it stopped.
func (cfg *auditConfig) audit(ctx context.Context) (audit *result.Audit, results func() ([]result.Summary, []result.Result), interrupted string, err error) {
	table, err := cases.RequirementTable()
	if err != nil {
		return nil, nil, "", err
	}
	versions, err := readVersions(ctx, cfg.robots, cfg.git)
	if err != nil {
		return nil, nil, "", err
	}
	names, err := expandLogs(cfg.logs)
	if err != nil {
		return nil, nil, "", err
	}
	ranges, err := readRanges(cfg.ranges)
	if err != nil {
		return nil, nil, "", err
	}
	opts, _ := reference.OptionsFor(cfg.profile)
	a := accesslog.NewAuditor(versions, accesslog.Options{Agents: cfg.agents, Grace: cfg.grace, Reference: opts,
		IncludeUnnamed: cfg.includeUnnamed, Ranges: ranges})
	var scanners []*accesslog.Scanner
	for _, name := range names {
		r, err := openLog(ctx, name)
		if err != nil {
			return nil, nil, "", err
		}
		defer r.Close()
		scanners = append(scanners, accesslog.NewScanner(r, name, cfg.format))
	}
	listed := &result.Audit{RequestsFile: cfg.requests}
	list := func(crawl.Judgement) {}
	if cfg.out.json != "" {
		list = func(j crawl.Judgement) { listed.List(accesslog.Record(j)) }
	}
	if cfg.requests != "" {
		f, err := os.Create(cfg.requests)
		if err != nil {
			return nil, nil, "", fmt.Errorf("--requests: %w", err)
		}
		defer f.Close()
		rw := accesslog.NewRecordWriter(f)
		list = func(j crawl.Judgement) { rw.Write(accesslog.Record(j)) }
		defer func() {
			if ferr := rw.Flush(); ferr != nil && err == nil {
				audit, results, interrupted, err = nil, nil, "", fmt.Errorf("--requests %s: %w", cfg.requests, ferr)
			}
		}()
	}
	err = feed(ctx, a, accesslog.Merge(scanners...), list)
	if err != nil && ctx.Err() == nil {
		return nil, nil, "", err
	}
	if err != nil {
		interrupted = interruption(ctx, ctx.Err())
	}
	audit = a.Report(scanners...)
	audit.RequestsFile, audit.Judged, audit.JudgedOmitted = listed.RequestsFile, listed.Judged, listed.JudgedOmitted
	return audit, func() ([]result.Summary, []result.Result) { return a.Results(table) }, interrupted, nil
}

// readRanges reads the --verified-ranges files; nil when none is given.
func readRanges(files []string) (*accesslog.Ranges, error) {
	if len(files) == 0 {
		return nil, nil
	}
	rs := &accesslog.Ranges{}
	for _, name := range files {
		err := func() error {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			defer f.Close()
			return rs.Add(f, filepath.Base(name))
		}()
		if err != nil {
			return nil, fmt.Errorf("--verified-ranges: %w", err)
		}
	}
	return rs, nil
}

// expandLogs expands the --log arguments' globs, in order; a pattern that
// matches nothing is an error, as a missing file is.
func expandLogs(args []string) ([]string, error) {
	var names []string
	for _, arg := range args {
		if arg == "-" || !strings.ContainsAny(arg, "*?[") {
			names = append(names, arg)
			continue
		}
		m, err := filepath.Glob(arg)
		if err != nil {
			return nil, fmt.Errorf("--log %q: %w", arg, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("--log %q matches no file", arg)
		}
		names = append(names, m...)
	}
	return names, nil
}

// openLog opens a log ("-": standard input), decompressed by its magic
// bytes (accesslog.Decompress).
func openLog(ctx context.Context, name string) (io.ReadCloser, error) {
	f, err := openInput(ctx, name)
	if err != nil {
		return nil, err
	}
	r, _, err := accesslog.Decompress(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{r, closers{r, f}}, nil
}

// closers closes each in turn and returns the first error.
type closers []io.Closer

func (cs closers) Close() error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// feed gives the auditor every request of the merged logs, and list
// every judgement of a request it judged. When ctx is
// cancelled it stops: it looks every 65536 requests, and a wait for input
// from standard input or a pipe ends at once (openInput).
func feed(ctx context.Context, a *accesslog.Auditor, m *accesslog.Merged, list func(crawl.Judgement)) error {
	for n := 1; m.Scan(); n++ {
		if j := a.Add(m.Request()); j.Agent != "" {
			list(j)
		}
		if n%65536 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := m.Err(); err != nil {
		return err
	}
	return ctx.Err()
}

// judgedNothing returns why an audit's report cannot stand for a
// verdict, or "": it judged no request, or most of its lines were
// malformed (a log in another format, a binary file).
func judgedNothing(rep *result.Audit) string {
	judged := rep.Requests - rep.Skipped - rep.Browsers
	switch {
	case rep.Malformed > 0 && rep.Malformed*2 >= rep.Lines:
		return fmt.Sprintf("%d of %d lines are malformed: is --log-format right (%d requests judged)?", rep.Malformed, rep.Lines, judged)
	case judged == 0:
		return fmt.Sprintf("no request was judged (%d lines, %d requests, %d of browsers, %d of agents not audited)", rep.Lines, rep.Requests, rep.Browsers, rep.Skipped)
	}
	return ""
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
	case "cloudflare-graphql":
		if fields != "" {
			return f, fmt.Errorf("--fields is for JSON-lines logs (--log-format json or cloudflare)")
		}
		f.CloudflareGraphQL = true
		return f, nil
	default:
		return f, fmt.Errorf("--log-format must be combined, json, cloudflare or cloudflare-graphql, not %q", name)
	}
	var err error
	f.Fields, err = accesslog.ParseFields(fields, f.Fields)
	return f, err
}

// readVersions reads the robots.txt versions of --robots and --robots-git.
func readVersions(ctx context.Context, robots []string, git string) ([]crawl.Version, error) {
	var vs []crawl.Version
	for _, arg := range robots {
		v, err := accesslog.ReadVersion(arg, func(file string) ([]byte, error) { return readInput(ctx, file) })
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
