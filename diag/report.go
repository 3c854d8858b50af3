// The report model: what every reporter writes, shared by every output format
// (one subpackage per format under reporters/).

package diag

import "time"

// Tool describes brenner-ci itself.
type Tool struct {
	Name    string // "brenner-ci"
	Version string // e.g. "0.1.0" or "0.1.0-dev"
	InfoURI string // project home page
	// DocsURL is the rules documentation page; a rule's link is DocsURL + "#" + lower-case id.
	DocsURL string
}

// Rule is the metadata of one registered rule, as the reporters need it.
type Rule struct {
	ID              string // "MG-001"
	Name            string // kebab-case, "invalid-target"
	Code            string // spec error name, "INVALID_TARGET"
	Family          string // "MG"
	DefaultSeverity Severity
	Short           string // one line
	Full            string // full description (plain text)
	HelpMarkdown    string // help with a bad and a fixed example
	HelpText        string // plain-text help
	Tags            []string
	Precision       string // very-high, high, medium, low
	// Own is set for a rule that is not brenner-ci's (a custom rule, a rule
	// pack's): it has no entry in the rules documentation, so no link.
	Own bool
}

// Thread summarises one compiled thread (or one artifact file) of the run.
type Thread struct {
	Key      string   // thread key (or artifact path for artifact inputs)
	File     string   // main input file, slash separated, as given
	Messages int      // messages in the thread
	Blocks   int      // delta blocks found
	Valid    int      // valid delta blocks
	Invalid  int      // rejected delta blocks
	Applied  int      // deltas applied by the merge
	Version  int      // current artifact version
	Rules    []string // ids of the rules evaluated on it, in registry order
	// Artifact is set on the summary of a persisted artifact (a markdown
	// artifact or a JSON artifact object; Key and File are its path): the
	// reports count threads and artifacts apart (Report.ThreadCounts).
	Artifact bool
}

// Notification is a run-level message with no place in a file (a bad
// config, an internal error, a cap that was hit).
type Notification struct {
	Level   Severity
	Message string
	Rule    string // optional rule id
	// Head is set on a notification about the reports themselves (the
	// SARIF file left results out): a report whose size is capped shows it
	// in its head, where the cap cannot cut it (the markdown report, under
	// its counts), instead of among the other notifications.
	Head bool
}

// GitHub holds the GITHUB_* environment used to link findings to file lines.
type GitHub struct {
	ServerURL  string // GITHUB_SERVER_URL
	Repository string // GITHUB_REPOSITORY (owner/name)
	SHA        string // GITHUB_SHA
}

// Report is everything a reporter writes.
type Report struct {
	Tool     Tool
	Rules    []Rule // every registered rule, in registry order
	Threads  []Thread
	Findings []Finding // sorted (Less)
	// Fingerprints is aligned with Findings (diag.Fingerprints).
	Fingerprints []string
	// HasBaseline is set when the run compared its findings with a baseline
	// (--baseline, --new-from-rev); New, aligned with Findings, says which
	// are new (the findings pipeline decides it; all are without a
	// baseline). A finding that is not new is "unchanged".
	HasBaseline bool
	// BaseRev is the git revision whose findings are old (--new-from-rev),
	// "" when none; BaselineFile is set when a baseline file (--baseline)
	// says which are old too.
	BaseRev       string
	BaselineFile  bool
	New           []bool
	Notifications []Notification
	// Internal is true when an internal error happened (SARIF
	// executionSuccessful false).
	Internal bool
	// RunError, when set, says why brenner-ci could not run at all (a usage,
	// configuration or input error): the report then has no findings and
	// every reporter states the failure instead of "passed".
	RunError string
	// RepoRoot is the absolute repository root; file URIs are made relative
	// to it (forward slashes, no "./").
	RepoRoot string
	// Category is the SARIF automationDetails.id ("brenner-ci/").
	Category string
	FailOn   Severity // findings at or above it gate the exit code
	GitHub   GitHub
	// Time is the run's reference time, from SOURCE_DATE_EPOCH or derived
	// from the data (never the wall clock), so reports are reproducible:
	// the instant of the data's last message, unless TimeFromEpoch.
	Time time.Time
	// TimeFromEpoch is set when Time is SOURCE_DATE_EPOCH's.
	TimeFromEpoch bool
	// Inputs are the paths given on the command line.
	Inputs []string
	// Config says which configuration governed the run; every report
	// states it.
	Config ConfigInfo
	// RunID identifies the run's results (reporters.RunID): every report
	// file of a run carries it, so reports of two runs are never mistaken
	// for one set.
	RunID string
	// Lines holds the lines of the input files the run read whole, by
	// path as findings name it (nil: none known). No report shows it: the
	// SARIF report clamps its regions to it instead of reading each
	// finding's file again. Set it before a reporter first reads the
	// report (reporters.PathsFor keeps it then).
	Lines map[string]Lines
	// Genealogy is the reference graph of the run's sessions (nil: not
	// computed); the markdown report draws it when it is small.
	Genealogy *Genealogy
	// Outputs are the reports the run writes (nil when not known, as for a
	// report built by hand): a notice that says where every finding can
	// be read names only these.
	Outputs []Output
}

// Output is one report a run writes.
type Output struct {
	// Format is the report's: sarif, junit, markdown, json, text, github,
	// or summary (the markdown report appended to the GitHub job summary).
	Format string
	// Path is the file as given; "" for standard output (and the job
	// summary).
	Path string
}

// ConfigInfo names the configuration that governed a run and how it was
// chosen (docs/security.md, configuration policy).
type ConfigInfo struct {
	File string // the governing .brenner-ci.yaml; "" when the defaults applied
	// How it was chosen: ConfigPinned, ConfigRepository, ConfigBelowRoot or
	// ConfigFound ("" with the defaults).
	How string
	// Base is, with ConfigBelowRoot, the repository root's configuration the
	// file was compared with ("" when the root has none).
	Base string
	// Rev is, in pull-request mode, the revision whose version of the
	// configuration governed the run ("" otherwise).
	Rev string
}

// How a configuration was chosen.
const (
	ConfigPinned     = "pinned"     // --config FILE: no other file was read
	ConfigRepository = "repository" // the repository root's .brenner-ci.yaml
	ConfigBelowRoot  = "below-root" // discovered next to the inputs, below the root
	ConfigFound      = "found"      // discovered outside any repository
)

// Counts returns the number of findings per severity.
func (r *Report) Counts() (errors, warnings, notes int) {
	for i := range r.Findings {
		switch r.Findings[i].Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		case Note:
			notes++
		}
	}
	return
}

// ThreadCounts counts the run's summaries by kind: compiled threads, and
// persisted artifacts checked on their own.
func (r *Report) ThreadCounts() (threads, artifacts int) {
	for i := range r.Threads {
		if r.Threads[i].Artifact {
			artifacts++
		} else {
			threads++
		}
	}
	return
}

// IsNew reports whether finding i is new with respect to the baseline (always
// true without a baseline).
func (r *Report) IsNew(i int) bool {
	if !r.HasBaseline || i >= len(r.New) {
		return true
	}
	return r.New[i]
}

// BaselineState is finding i's state against the run's baseline as the
// reports name it: "new" or "unchanged", and "" for a run without one.
func (r *Report) BaselineState(i int) string {
	switch {
	case !r.HasBaseline:
		return ""
	case r.IsNew(i):
		return "new"
	}
	return "unchanged"
}

// NewAgainst says, for each fingerprint, whether it is new with respect to
// baseline: not in it (all are new with a nil baseline). The findings
// pipeline's baseline stage is this function.
func NewAgainst(fingerprints []string, baseline map[string]bool) []bool {
	out := make([]bool, len(fingerprints))
	for i, fp := range fingerprints {
		out[i] = baseline == nil || !baseline[fp]
	}
	return out
}

// CompareWith marks r's findings new or unchanged against baseline (nil:
// no baseline), as the findings pipeline does; for reports built by hand.
func (r *Report) CompareWith(baseline map[string]bool) {
	r.HasBaseline, r.New = baseline != nil, NewAgainst(r.Fingerprints, baseline)
}
