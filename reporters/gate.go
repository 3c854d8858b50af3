package reporters

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
)

// FailOnName returns the --fail-on spelling of a threshold: "error",
// "warning", "note", or "none" for diag.Off.
func FailOnName(s diag.Severity) string {
	if s == diag.Off {
		return "none"
	}
	return s.String()
}

// Gates reports whether finding i counts against r.FailOn: its severity is at
// or above the threshold (never with FailOn none) and, when a baseline was
// given, it is new.
func Gates(r *diag.Report, i int) bool {
	if r.FailOn == diag.Off || r.FailOn < diag.Error {
		return false
	}
	return r.Findings[i].Severity.AtLeast(r.FailOn) && r.IsNew(i)
}

// Gating counts the findings that gate the run (see Gates).
func Gating(r *diag.Report) int {
	n := 0
	for i := range r.Findings {
		if Gates(r, i) {
			n++
		}
	}
	return n
}

// Failed reports whether the findings fail the run (Gating > 0). An internal
// error (r.Internal) is reported separately.
func Failed(r *diag.Report) bool { return r.RunError != "" || Gating(r) > 0 }

// NewCount counts the findings that are new with respect to the baseline
// (all of them without one).
func NewCount(r *diag.Report) int {
	n := 0
	for i := range r.Findings {
		if r.IsNew(i) {
			n++
		}
	}
	return n
}

// Checked says what a run checked, threads and persisted artifacts
// counted apart: "12 threads", "12 threads and 3 artifacts", "1 artifact"
// (artifacts are named only when there are some).
func Checked(r *diag.Report) string {
	threads, artifacts := r.ThreadCounts()
	switch {
	case artifacts == 0:
		return Plural(threads, "thread")
	case threads == 0:
		return Plural(artifacts, "artifact")
	}
	return Plural(threads, "thread") + " and " + Plural(artifacts, "artifact")
}

// EveryFinding is the sentence a notice ends with to say where every
// finding can be read: the reports of r.Outputs that list them all (the
// JSON and JUnit reports, the text output), or, when the run writes none
// of them, how to get one. SARIF, markdown and annotations are capped, so
// they are never named as the full list. Reports are named by kind, not
// by path: a report's content never depends on where the run writes its
// reports (the run cache replays a run's reports wherever they go).
func EveryFinding(r *diag.Report) string {
	var where []string
	for _, f := range [...]struct{ format, name string }{{"json", "JSON"}, {"junit", "JUnit"}, {"text", "text"}} {
		for _, o := range r.Outputs {
			switch {
			case o.Format != f.format:
			case o.Path != "":
				where = append(where, f.name+" report")
			default:
				where = append(where, f.name+" output")
			}
		}
	}
	switch len(where) {
	case 0:
		s := "The JSON report (--json FILE, or --out DIR) lists every finding"
		if r.Outputs != nil {
			s += "; this run did not write it"
		}
		return s + "."
	case 1:
		return "Every finding is in this run's " + where[0] + "."
	}
	return "Every finding is in this run's " + strings.Join(where[:len(where)-1], ", ") + " and " + where[len(where)-1] + "."
}

// Plural formats a count with its noun: "1 error", "2 errors".
func Plural(n int, noun string) string {
	return diag.Count(n, noun, noun+"s")
}

// SeverityRank orders severities for caps: lower is more severe.
func SeverityRank(s diag.Severity) int {
	if s < diag.Error || s > diag.Off {
		return int(diag.Off) + 1
	}
	return int(s)
}

// MostSevere returns the indexes of the at most n most severe findings of
// idx (a list of indexes into r.Findings), keeping input order among equal
// severities, and returned in input order.
//
// With n = 0 it returns all of idx, most severe first (stable within a
// severity).
func MostSevere(r *diag.Report, idx []int, n int) []int {
	if n > 0 && len(idx) <= n {
		return idx
	}
	order := append([]int(nil), idx...)
	sort.SliceStable(order, func(a, b int) bool {
		return SeverityRank(r.Findings[order[a]].Severity) < SeverityRank(r.Findings[order[b]].Severity)
	})
	if n == 0 {
		return order
	}
	keep := order[:n]
	sort.Ints(keep)
	return keep
}

// RuleIndex maps rule ids to their index in r.Rules.
func RuleIndex(r *diag.Report) map[string]int {
	m := make(map[string]int, len(r.Rules))
	for i := range r.Rules {
		if _, dup := m[r.Rules[i].ID]; !dup {
			m[r.Rules[i].ID] = i
		}
	}
	return m
}

// DocsLink returns the documentation link of a rule (Tool.DocsURL + "#" +
// lower-case id), or "" without a DocsURL.
func DocsLink(t diag.Tool, id string) string {
	if t.DocsURL == "" || id == "" {
		return ""
	}
	return t.DocsURL + "#" + lower(id)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// ConfigLine says which configuration governed the run, in one line of
// plain text, for example
//
//	configuration: mailbox/.brenner-ci.yaml (found below the repository root; compared with .brenner-ci.yaml)
func ConfigLine(r *diag.Report) string {
	line := configLine(r)
	if rev := r.Config.Rev; rev != "" {
		line += "; as it is at " + SafeOneLine(rev) + ", which judges this pull request"
	}
	return line
}

func configLine(r *diag.Report) string {
	c := r.Config
	if c.File == "" {
		return "configuration: none (defaults)"
	}
	p := PathsFor(r)
	file := SafeOneLine(p.Display(c.File))
	switch c.How {
	case diag.ConfigPinned:
		return "configuration: " + file + " (pinned with --config; no other file read)"
	case diag.ConfigRepository:
		return "configuration: " + file + " (the repository's)"
	case diag.ConfigBelowRoot:
		base := "the defaults"
		if c.Base != "" {
			base = SafeOneLine(p.Display(c.Base))
		}
		return "configuration: " + file + " (found below the repository root; it may only tighten " + base + ": relaxations are not applied and are reported as SP-005)"
	}
	return "configuration: " + file
}

// RunID is a content identifier of a run's results: 16 hex digits of a
// SHA-256 over the tool version, the configuration, the fail-on level, the
// run error and every finding's fingerprint, severity and baseline state.
// It is derived from the data, never the clock, so the same inputs give the
// same id (and byte-identical reports), and reports of runs with different
// results carry different ids.
func RunID(r *diag.Report) string {
	h := sha256.New()
	p := PathsFor(r) // repo-relative paths: the same wherever the repository is checked out
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%d\x00%s\x00%d\x00", r.Tool.Version, p.Display(r.Config.File), r.Config.How, p.Display(r.Config.Base), r.FailOn, r.RunError, len(r.Threads))
	for i := range r.Findings {
		fp := ""
		if i < len(r.Fingerprints) {
			fp = r.Fingerprints[i]
		}
		fmt.Fprintf(h, "%s\x00%d\x00%t\x00", fp, r.Findings[i].Severity, r.IsNew(i))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
