package result

// Level is the strength of a requirement (BCP 14), or "interpretation"
// where the RFC leaves a reading open.
type Level string

// The levels, strongest first.
const (
	MUST           Level = "MUST"
	SHOULD         Level = "SHOULD"
	MAY            Level = "MAY"
	Interpretation Level = "interpretation"
)

// Rank orders levels: a lower rank is stronger.
func (l Level) Rank() int {
	switch l {
	case MUST:
		return 0
	case SHOULD:
		return 1
	case MAY:
		return 2
	case Interpretation:
		return 3
	}
	return 4
}

// Verdict is a parser's answer for one check.
type Verdict string

// The verdicts. Reject means the parser refused the whole file.
const (
	Allow    Verdict = "allow"
	Disallow Verdict = "disallow"
	Reject   Verdict = "reject"
)

// VerdictOf returns Allow for allowed, else Disallow.
func VerdictOf(allowed bool) Verdict {
	if allowed {
		return Allow
	}
	return Disallow
}

// Capability is something a parser can do (docs/FORMAT.md §3).
type Capability string

// The capabilities.
const (
	// CapParse: body in, verdict out.
	CapParse Capability = "parse"
	// CapStatus: status code and body in, verdict out.
	CapStatus Capability = "status"
	// CapFetch: the parser fetches robots.txt itself from the runner's
	// test server.
	CapFetch Capability = "fetch"
	// CapClock: a fetching parser that keeps a cache per session and
	// takes the time from the request, so timeline cases can run on it.
	CapClock Capability = "clock"
	// CapUsage: the parser also reports usage preferences (the aipref
	// profile) through UsageReporter.
	CapUsage Capability = "usage"
)

// Info describes a parser.
type Info struct {
	Name         string       `json:"name"`
	Version      string       `json:"version,omitempty"`
	Capabilities []Capability `json:"capabilities,omitempty"`
	// Runtime names the interpreter that runs an external parser, with
	// its version ("CPython 3.11.7", "Node.js v20.20.2"), as the program
	// reports it: a library can behave differently on another runtime
	// (urllib.robotparser took up longest match in CPython 3.13). Empty
	// for in-process parsers and programs that do not say.
	Runtime string `json:"runtime,omitempty"`
}

// Has reports whether the parser has capability c.
func (i Info) Has(c Capability) bool {
	for _, x := range i.Capabilities {
		if x == c {
			return true
		}
	}
	return false
}

// Outcome is how one check of one parser ended (docs/FORMAT.md §2).
type Outcome string

// The outcomes.
const (
	Pass      Outcome = "pass"
	Note      Outcome = "note"
	Deviation Outcome = "deviation"
	Violation Outcome = "violation"
	Error     Outcome = "error"
	Skipped   Outcome = "skipped"
)

// Result is the outcome of one check of one case for one parser. Its JSON
// form is the "results" element of docs/FORMAT.md §5.
type Result struct {
	Case    string    `json:"case"`
	Check   int       `json:"check"` // index among the case's checks, timeline steps included
	Parser  string    `json:"parser"`
	Agent   string    `json:"agent"`
	URL     string    `json:"url"`
	Expect  Verdict   `json:"expect"`
	Accept  []Verdict `json:"accept,omitempty"`
	Verdict Verdict   `json:"verdict"` // "" when skipped or an error
	Outcome Outcome   `json:"outcome"`
	Level   Level     `json:"level"`
	Req     []string  `json:"req"`

	// Profile and Title are copied from the case for reports.
	Profile string `json:"profile,omitempty"`
	Title   string `json:"title,omitempty"`
	// Rule is the expected deciding line when the case gives one.
	Rule *int `json:"rule,omitempty"`
	// Detail explains a failure: the parser's error and stderr tail, a
	// wrong deciding line, or why the check was skipped.
	Detail string `json:"detail,omitempty"`
	// ParserDetail is what the parser said about a reject or an error
	// answer (the protocol's "detail"; see Detailer).
	ParserDetail string `json:"parser_detail,omitempty"`
	// Trace is the explainer's (the reference's) account of the check,
	// Line its deciding line (0 when no rule decided) and Response the
	// 1-based served response whose body holds Line: an index into the
	// case's fetch list, or a timeline step; 0 for the case's own body.
	// The runner records them once per check, for every parser's result,
	// so that reports show what was decided instead of deciding again.
	Trace    string `json:"trace,omitempty"`
	Line     int    `json:"line,omitempty"`
	Response int    `json:"response,omitempty"`
	// Step is the timeline step's time ("25h") for clocked cases.
	Step string `json:"step,omitempty"`
	// ExpectUsage is the check's expected usage preferences (aipref
	// profile) and Usage what the parser reported; nil when the check
	// expects none or the parser reports none.
	ExpectUsage map[string]string `json:"expect_usage,omitempty"`
	Usage       map[string]string `json:"usage,omitempty"`
}

// Summary counts one parser's outcomes (docs/FORMAT.md §5 "parsers").
type Summary struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Runtime is Info.Runtime: the interpreter and its version.
	Runtime    string `json:"runtime,omitempty"`
	Checks     int    `json:"checks"`
	Pass       int    `json:"pass"`
	Note       int    `json:"note"`
	Violations int    `json:"violations"`
	Deviations int    `json:"deviations"`
	Errors     int    `json:"errors"`
	Skipped    int    `json:"skipped"`
	Conforms   bool   `json:"conforms"`
	// NotRun, when set, says why the parser counts as not run: it was
	// given checks and skipped every one, or every one of a level. A
	// parser that did not run never conforms (see Summarize).
	NotRun string `json:"not_run,omitempty"`
}

// Add counts one outcome.
func (s *Summary) Add(o Outcome) {
	s.Checks++
	switch o {
	case Pass:
		s.Pass++
	case Note:
		s.Note++
	case Deviation:
		s.Deviations++
	case Violation:
		s.Violations++
	case Error:
		s.Errors++
	case Skipped:
		s.Skipped++
	}
}

// Judge sets Conforms: the parser ran (NotRun is empty) and no outcome
// Fails.
func (s *Summary) Judge(strict bool) {
	counts := map[Outcome]int{Pass: s.Pass, Note: s.Note, Deviation: s.Deviations,
		Violation: s.Violations, Error: s.Errors, Skipped: s.Skipped}
	s.Conforms = s.NotRun == ""
	for o, n := range counts {
		if n > 0 && o.Fails(strict) {
			s.Conforms = false
		}
	}
}

// Fails reports whether an outcome makes a parser nonconforming: a
// violation or an error, and in a strict run a deviation too. This is the
// one place that says so; Judge, the Go harness, JUnit and the report's
// new failures ask it. Fails(true) is also what a reader should look at
// in any run (the report's list of failures).
func (o Outcome) Fails(strict bool) bool {
	return o == Violation || o == Error || strict && o == Deviation
}

// OutcomeOf maps a verdict to its outcome for a check of the given level
// (docs/FORMAT.md §2). This is the one place that does so.
func OutcomeOf(level Level, expect Verdict, accept []Verdict, got Verdict) Outcome {
	if got == expect {
		return Pass
	}
	if got != Reject {
		for _, a := range accept {
			if got == a {
				return Note
			}
		}
	}
	switch level {
	case MUST:
		return Violation
	case SHOULD:
		return Deviation
	}
	return Note
}
