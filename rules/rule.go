// Package rules is brenner-ci's rule registry: every rule's metadata in one
// place (meta_*.go, listed in registry.go) and the checks, one rule family
// per file.
package rules

import (
	"fmt"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Meta describes one rule. IDs never change and are never reused: users put
// them in configuration files and suppression comments.
type Meta struct {
	ID       string        // "MG-001"
	Code     string        // the spec's error name, "INVALID_TARGET" (equal to ID for MB-/AP- rules)
	Family   string        // "MG"
	Severity diag.Severity // default severity (the spec's)
	Short    string        // one line: what the rule checks
	Full     string        // the full description, plain text
	Bad      string        // an input that triggers the rule (markdown or JSON)
	Good     string        // the same input, fixed
	Spec     string        // the spec section the rule comes from
	// Source says where the check runs: "compile" for findings produced
	// while ingesting and compiling (IN-, DL-, MG-, MB-004/005), "rule" for
	// checks in this package.
	Source string
}

// Name is the rule's kebab-case name, derived from the spec's error name
// (INVALID_TARGET → invalid-target; MB-001 → its own short name).
func (m *Meta) Name() string {
	if m.Code != m.ID {
		return strings.ReplaceAll(strings.ToLower(m.Code), "_", "-")
	}
	return mbNames[m.ID]
}

// DocsAnchor is the anchor of the rule in docs/rules.md.
func (m *Meta) DocsAnchor() string { return strings.ToLower(m.ID) }

// HelpMarkdown is the rule's help: description, a bad and a fixed example.
func (m *Meta) HelpMarkdown(docsURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s` — %s\n\n%s\n\n", m.ID, m.Name(), m.Short, m.Full)
	if m.Bad != "" {
		fmt.Fprintf(&b, "Bad:\n\n%s\n\nFixed:\n\n%s\n\n", fence(m.Bad), fence(m.Good))
	}
	fmt.Fprintf(&b, "Spec: %s.", m.Spec)
	if docsURL != "" {
		fmt.Fprintf(&b, " Documentation: [%s](%s#%s).", m.ID, docsURL, m.DocsAnchor())
	}
	return b.String()
}

// HelpText is HelpMarkdown without markup.
func (m *Meta) HelpText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n\n%s\n", m.ID, m.Name(), m.Short, m.Full)
	if m.Bad != "" {
		fmt.Fprintf(&b, "\nBad:\n%s\n\nFixed:\n%s\n", indent(m.Bad), indent(m.Good))
	}
	fmt.Fprintf(&b, "\nSpec: %s.", m.Spec)
	return b.String()
}

// Report converts m to the reporters' rule model.
func (m *Meta) Report(docsURL string) diag.Rule {
	prec := "very-high"
	if m.Severity == diag.Note {
		prec = "high"
	}
	return diag.Rule{
		ID: m.ID, Name: m.Name(), Code: m.Code, Family: m.Family, DefaultSeverity: m.Severity,
		Short: m.Short, Full: m.Full, HelpMarkdown: m.HelpMarkdown(docsURL), HelpText: m.HelpText(),
		Tags: []string{"brenner-protocol", familyTag[m.Family]}, Precision: prec,
	}
}

var familyTag = map[string]string{
	"MB": "message-body", "AP": "artifact-publish", "TH": "thread-id", "DL": "delta",
	"MG": "merge", "RF": "reference", "IN": "input", "SP": "suppression",
	"AL": "artifact-lint", "EV": "evidence", "DR": "drift",
}

func fence(s string) string {
	lang := "markdown"
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		lang = "json"
	}
	f := "````"
	return f + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + f
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}
