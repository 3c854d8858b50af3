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
}

// Notification is a run-level message with no place in a file (a bad
// config, an internal error, a cap that was hit).
type Notification struct {
	Level   Severity
	Message string
	Rule    string // optional rule id
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
	// Baseline holds the fingerprints of a --baseline file; nil when none was
	// given. A finding whose fingerprint is in it is "unchanged", else "new".
	Baseline      map[string]bool
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
	// from the data (never the wall clock), so reports are reproducible.
	Time time.Time
	// Inputs are the paths given on the command line.
	Inputs []string
	// Config says which configuration governed the run; every report
	// states it.
	Config ConfigInfo
	// RunID identifies the run's results (reporters.RunID): every report
	// file of a run carries it, so reports of two runs are never mistaken
	// for one set.
	RunID string
	// Genealogy is the reference graph of the run's sessions (nil: not
	// computed); the markdown report draws it when it is small.
	Genealogy *Genealogy
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

// IsNew reports whether finding i is new with respect to the baseline (always
// true without a baseline).
func (r *Report) IsNew(i int) bool {
	if r.Baseline == nil || i >= len(r.Fingerprints) {
		return true
	}
	return !r.Baseline[r.Fingerprints[i]]
}
