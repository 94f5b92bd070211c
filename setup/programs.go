package setup

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Program is a crawler or a tool that reptest drives as a command.
type Program struct {
	Name string
	Kind Kind
	// Command is the program, looked up on PATH.
	Command string
	// Version are the arguments that make Command print its version; for
	// a library run by an interpreter (Command), a script that loads it
	// and prints its version, so that a missing library fails it. Empty:
	// the version is not asked.
	Version []string
	// Runtime, for an interpreter, are the arguments that print its own
	// version.
	Runtime []string
	// Apt are the Debian packages that provide it; Other is how it is
	// installed or built otherwise (go), after them.
	Apt   []string
	Other string
	// Dir, for a crawler run from the reptest checkout (the working
	// directory), is its folder there: its script and the package-lock.json
	// that pins its npm libraries. The version is asked there, and `npm
	// ci` installs there.
	Dir string
}

// Programs returns the crawlers the README documents and judges, those
// other tools drive, and the optional tools, in that order.
func Programs() []Program {
	return []Program{
		{Name: "wget", Kind: KindCrawler, Command: "wget", Version: []string{"--version"}, Apt: []string{"wget"}},
		{Name: "wget2", Kind: KindCrawler, Command: "wget2", Version: []string{"--version"}, Apt: []string{"wget2"}},
		{Name: "httrack", Kind: KindCrawler, Command: "httrack", Version: []string{"--version"}, Apt: []string{"httrack"}},
		{Name: "scrapy", Kind: KindCrawler, Command: "scrapy", Version: []string{"version"}, Apt: []string{"python3-scrapy"}},
		{Name: "colly", Kind: KindCrawler, Command: "colly-crawler",
			Other: "(cd crawlers/colly && go build -o /usr/local/bin/colly-crawler .)"},
		{Name: "linkchecker", Kind: KindCrawler, Command: "linkchecker", Version: []string{"--version"}, Apt: []string{"linkchecker"}},
		{Name: "mechanize", Kind: KindCrawler, Command: "ruby", Version: []string{"-e", `require "mechanize"; puts Mechanize::VERSION`},
			Runtime: []string{"--version"}, Apt: []string{"ruby", "ruby-mechanize"}},
		{Name: "simplecrawler", Kind: KindCrawler, Command: "node", Version: []string{"-e", `console.log(require("simplecrawler/package.json").version)`},
			Runtime: []string{"--version"}, Apt: []string{"nodejs", "npm"}, Dir: "crawlers/simplecrawler"},
		{Name: "chromium", Kind: KindTool, Command: "chromium", Version: []string{"--version"}, Apt: []string{"chromium"}},
		{Name: "faketime", Kind: KindTool, Command: "faketime", Version: []string{"--version"}, Apt: []string{"faketime"}},
		{Name: "kubectl", Kind: KindTool, Command: "kubectl", Version: []string{"version", "--client"}, Apt: []string{"kubernetes-client"}},
		{Name: "actionlint", Kind: KindTool, Command: "actionlint", Version: []string{"-version"},
			Other: "go install github.com/rhysd/actionlint/cmd/actionlint@latest"},
	}
}

// ProgramFor returns the known program whose command is the first word of
// a command line (a path, or a name on PATH), for the hint of a crawler
// that could not start. Interpreters are not matched: they run many
// programs.
func ProgramFor(command string) (Program, bool) {
	base := filepath.Base(command)
	for _, p := range Programs() {
		if p.Runtime == nil && p.Command == base {
			return p, true
		}
	}
	return Program{}, false
}

// InstallLine is the program's whole install command.
func (p Program) InstallLine() string {
	return p.installLine(p.Apt)
}

// installLine is the install command with the Debian packages apt.
func (p Program) installLine(apt []string) string {
	parts := []string{}
	if c := InstallCommand(apt, p.Dir); c != "" {
		parts = append(parts, c)
	}
	if p.Other != "" {
		parts = append(parts, p.Other)
	}
	return strings.Join(parts, " && ")
}

// Check says whether the program is ready: found on PATH and, when its
// version is asked, answering it (in its Dir, which must hold its
// package-lock.json).
func (p Program) Check(ctx context.Context) Status {
	st := Status{Name: p.Name, Kind: p.Kind, Apt: p.Apt, NpmDir: p.Dir, Install: p.installLine(SuggestedApt(ctx, p.Apt))}
	if p.Dir != "" {
		if _, err := os.Stat(filepath.Join(p.Dir, "package-lock.json")); err != nil {
			st.NpmDir, st.Install = "", ""
			st.Reason = fmt.Sprintf("no %s here: run reptest doctor in the reptest checkout, whose %s holds the crawler's script and package-lock.json", filepath.Join(p.Dir, "package-lock.json"), p.Dir)
			return st
		}
	}
	path, err := exec.LookPath(p.Command)
	if err != nil {
		st.Reason = p.Command + " not found on PATH"
		return st
	}
	if p.Runtime != nil {
		rt, err := Probe(ctx, "", path, p.Runtime...)
		if err != nil {
			st.Reason = err.Error()
			return st
		}
		st.Runtime = p.Command + " " + rt
	}
	if len(p.Version) > 0 {
		v, err := Probe(ctx, p.Dir, path, p.Version...)
		if err != nil {
			st.Reason = err.Error()
			return st
		}
		st.Version = v
	}
	st.Ready = true
	return st
}
