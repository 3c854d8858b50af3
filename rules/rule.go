// Package rules is brenner-ci's rule registry and engine. A rule is one
// declaration (Rule) in its family's file — id, name, scope, default
// severity, spec reference, description and its check — plus a bad and a
// fixed example in testdata/rules/<ID>/example.bad and example.good
// (embedded by the module's root package), and registry.go lists the
// families. The engine (engine.go) runs
// every scope with one context type (Ctx). What happens to findings after the
// rules ran (severities, ignores, suppressions, sorting, fingerprints,
// baseline) is the findings pipeline, package pipeline.
package rules

import (
	"fmt"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Scope says what a rule looks at.
type Scope int

const (
	// ScopeInput rules are about input files as such (unreadable, malformed).
	ScopeInput Scope = iota
	// ScopeMessage rules look at one message at a time; their check is
	// called once per message with Ctx.M set.
	ScopeMessage
	// ScopeThread rules look at a whole compiled thread (Ctx.T).
	ScopeThread
	// ScopeArtifact rules look at one persisted artifact (Ctx.P).
	ScopeArtifact
	// ScopeBatch rules look across every thread and artifact of the run (Ctx.Batch).
	ScopeBatch
)

func (s Scope) String() string {
	return [...]string{"input", "message", "thread", "artifact", "batch"}[s]
}

// By says what reports a rule's findings.
type By int

const (
	// ByCheck: the rule's Check function.
	ByCheck By = iota
	// ByCompiler: ingest and compilation (compile/...), which know the
	// positions inside JSON and delta blocks; the engine passes those
	// findings on for enabled rules only.
	ByCompiler
	// ByPipeline: the findings pipeline (suppressions).
	ByPipeline
)

func (b By) String() string { return [...]string{"rule", "compiler", "pipeline"}[b] }

// Rule is one rule: its metadata and its check. IDs never change and are
// never reused: users put them in configuration files and suppression
// comments. Every finding of a rule has the rule's Severity until the
// configuration changes it; a variant that deserves another severity is
// another rule.
type Rule struct {
	ID       string        // "MG-001"
	Name     string        // kebab case, "invalid-target"
	Code     string        // the spec's error name, "INVALID_TARGET" (equal to ID for MB-/AP- rules)
	Family   string        // "MG"
	Scope    Scope         // what the check looks at
	By       By            // what reports the findings
	Severity diag.Severity // default severity
	Spec     string        // the spec section the rule comes from
	Short    string        // one line: what the rule checks
	Full     string        // the full description, plain text
	// Bad is an input that triggers the rule and Good the same input fixed,
	// read from testdata/rules/<ID>/example.bad and example.good when the
	// registry is built (a declaration leaves them out). Both are executed by tests (TestExamples through the real flow;
	// TestArtifactRuleExamples for artifact rules). An example is an
	// artifact (artifact rules); a message body, whose subject is the rule's
	// message type; "Subject: …" lines, one message each; a message object
	// {"subject": …, "ack_required": …}; a thread id (TH- rules); or a
	// script of messages and files: "@@ SUBJECT | FROM | to: A, B | ack"
	// starts a message, "@@ thread ID" another thread, "@@ file PATH" a
	// file (see rules/examples_run_test.go).
	Bad  string
	Good string
	// Check reports the rule's findings; nil when By is not ByCheck.
	Check func(c *Ctx)
	// BatchCheck is the part of a message-, thread- or artifact-scope rule
	// that only the whole batch can see: the spec's condition also holds
	// of files that are checked against their threads (AP-005: a persisted
	// artifact must be artifacts/{thread_id}.md, as a COMPILED body's
	// Artifact Path must). It runs with the batch rules, under the rule's
	// id, whenever the rule is enabled.
	BatchCheck func(c *Ctx)
	// Budget bounds what the rule may spend in a run (nil: no bound);
	// custom rules have one (budget.go).
	Budget *Budget
}

// DocsAnchor is the anchor of the rule in docs/rules.md.
func (r *Rule) DocsAnchor() string { return strings.ToLower(r.ID) }

// HelpMarkdown is the rule's help: description, a bad and a fixed example.
func (r *Rule) HelpMarkdown(docsURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s` — %s\n\n%s\n\n", r.ID, r.Name, r.Short, r.Full)
	if r.Bad != "" {
		fmt.Fprintf(&b, "Bad:\n\n%s\n\nFixed:\n\n%s\n\n", Fence(r.Bad), Fence(r.Good))
	}
	fmt.Fprintf(&b, "Spec: %s.", r.Spec)
	if docsURL != "" {
		fmt.Fprintf(&b, " Documentation: [%s](%s#%s).", r.ID, docsURL, r.DocsAnchor())
	}
	return b.String()
}

// HelpText is HelpMarkdown without markup.
func (r *Rule) HelpText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n\n%s\n", r.ID, r.Name, r.Short, r.Full)
	if r.Bad != "" {
		fmt.Fprintf(&b, "\nBad:\n%s\n\nFixed:\n%s\n", indent(r.Bad), indent(r.Good))
	}
	fmt.Fprintf(&b, "\nSpec: %s.", r.Spec)
	return b.String()
}

// Report converts r to the reporters' rule model.
func (r *Rule) Report(docsURL string) diag.Rule {
	prec := "very-high"
	if r.Severity == diag.Note {
		prec = "high"
	}
	own := Lookup(r.ID) != r
	if own {
		docsURL = "" // not in docs/rules.md
	}
	return diag.Rule{
		ID: r.ID, Name: r.Name, Code: r.Code, Family: r.Family, DefaultSeverity: r.Severity,
		Short: r.Short, Full: r.Full, HelpMarkdown: r.HelpMarkdown(docsURL), HelpText: r.HelpText(),
		Tags: []string{"brenner-protocol", r.tag()}, Precision: prec, Own: own,
	}
}

// tag is the rule's family tag; a rule of a family brenner-ci does not
// have (a custom rule's, a rule pack's) is tagged "custom".
func (r *Rule) tag() string {
	if f := FamilyOf(r.Family); f != nil {
		return f.Tag
	}
	return "custom"
}

// Fence wraps an example in a markdown code fence (json or markdown).
func Fence(s string) string {
	lang := "markdown"
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") || strings.HasPrefix(t, "\"") {
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
