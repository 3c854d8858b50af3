// Package pipeline is brenner-ci's findings pipeline: the one ordered list
// of steps every finding goes through between the rules and the reports.
// check, compile and check-style commands all run it, so they agree on rule
// ids, severities, configuration and paths.
//
// The stages, in order (see stages below for why each stands where it does):
//
//	stamp → bound → severity → ignore → suppress → policy → sort → dedupe → fingerprint → baseline
package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Input is what the pipeline processes.
type Input struct {
	Findings []diag.Finding
	// Comments are the HTML comments of message bodies and artifacts, where
	// suppression directives live.
	Comments []diag.Comment
	Config   *config.Config // nil: defaults
	// Policy says how Config was found; when it was discovered below the
	// repository root, the ways it relaxes the root's configuration are
	// reported (SP-005). Nil: no policy check (Config was given directly).
	Policy *config.Resolved
	// Baseline holds the fingerprints of accepted findings; nil without a
	// baseline.
	Baseline map[string]bool
	// Ran reports whether a rule was evaluated in this run (nil: all were).
	// A suppression is reported unused only when one of its rules ran.
	Ran func(id string) bool
	// Rules are the run's rules (nil: the built-in rules): their ids,
	// codes and default severities.
	Rules *rules.Registry
}

// Result is the pipeline's output: findings in report order with their
// fingerprints.
type Result struct {
	Findings     []diag.Finding
	Fingerprints []string // aligned with Findings
	// New is aligned with Findings: true when the finding is not in the
	// baseline (all true without one).
	New []bool
}

// state is what the stages share.
type state struct {
	in  *Input
	out Result
}

// A stage is one named step.
type stage struct {
	name string
	run  func(s *state)
}

// stages is the pipeline, in order.
var stages = []stage{
	// Every finding gets its rule's spec code and default severity from the
	// registry, whatever produced it (compiler or rule): one id, one
	// severity. It comes first because everything after reads severities.
	{"stamp", func(s *state) { s.out.Findings = stamp(s.out.Findings, s.in.Rules) }},
	// Text copied from the input (thread ids, message ids, quoted values in
	// messages) is bounded, with an ellipsis and a short hash, so that a
	// 100 KB thread id repeated in every finding cannot blow the reports up.
	// Early, so every later stage and every report sees the bounded text.
	{"bound", func(s *state) { bound(s.out.Findings) }},
	// Configured severities (rules: and per-path overrides:) replace the
	// defaults; a rule turned off drops its findings. Before suppression,
	// so that a suppression of a rule the configuration turned off is
	// reported as unused.
	{"severity", func(s *state) { s.out.Findings = severity(s.out.Findings, s.in.Config) }},
	// Findings in ignored paths are dropped (globs relative to the config
	// file's folder). Before suppression, for the same reason.
	{"ignore", func(s *state) { s.out.Findings = ignore(s.out.Findings, s.in.Config) }},
	// Inline <!-- brenner-ci-disable … --> comments (message bodies and
	// artifacts alike) and config suppress: entries silence findings; the
	// stage then adds its own findings (SP-001…SP-004), which go through
	// stamp, severity and ignore like every other finding.
	{"suppress", func(s *state) {
		s.out.Findings = suppress(s.out.Findings, s.in.Comments, s.in.Config, s.in.Ran, s.in.Rules)
	}},
	// A configuration discovered below the repository root is compared with
	// the root's own, and every way it relaxes it is a finding (SP-005) at
	// its line. After the configuration stages and outside them: the
	// severity comes from the repository's configuration, so the file under
	// review cannot silence or ignore findings about itself.
	{"policy", func(s *state) { s.out.Findings = append(s.out.Findings, policy(s.in.Policy, s.in.Rules)...) }},
	// Report order: path, line, column, rule id, message, thread, message
	// id — never scheduling order, so any --jobs gives the same reports.
	{"sort", func(s *state) {
		fs := s.out.Findings
		sort.SliceStable(fs, func(i, j int) bool { return diag.Less(&fs[i], &fs[j]) })
	}},
	// Exact duplicates (the same finding reached twice, e.g. a message in
	// two export files) are reported once. Needs sorted input.
	{"dedupe", func(s *state) { s.out.Findings = dedupe(s.out.Findings) }},
	// Content-based fingerprints (no line numbers), numbered in report
	// order: after sorting and de-duplication so the numbering is stable.
	{"fingerprint", func(s *state) { s.out.Fingerprints = diag.Fingerprints(s.out.Findings) }},
	// New versus baseline findings, by fingerprint: last, because it reads
	// the fingerprints.
	{"baseline", func(s *state) { s.out.New = diag.NewAgainst(s.out.Fingerprints, s.in.Baseline) }},
}

// Stages returns the stage names in order (documentation and tests).
func Stages() []string {
	names := make([]string, len(stages))
	for i, st := range stages {
		names[i] = st.name
	}
	return names
}

// Run runs every stage on in. It does not modify in.Findings.
func Run(in *Input) *Result {
	if in.Rules == nil {
		cp := *in
		cp.Rules = rules.Builtin()
		in = &cp
	}
	s := &state{in: in}
	s.out.Findings = append([]diag.Finding(nil), in.Findings...)
	for _, st := range stages {
		st.run(s)
	}
	return &s.out
}

// Bounds of echoed text, in bytes (docs/security.md).
const (
	MaxIDBytes      = 200
	MaxMessageBytes = 2000
)

func bound(fs []diag.Finding) {
	for i := range fs {
		f := &fs[i]
		f.Thread, f.MsgID = Echo(f.Thread, MaxIDBytes), Echo(f.MsgID, MaxIDBytes)
		f.Message, f.Hint = Echo(f.Message, MaxMessageBytes), Echo(f.Hint, MaxMessageBytes)
		f.Anchor = Echo(f.Anchor, MaxMessageBytes)
		if f.Fix != nil && (len(f.Fix.Text) > 16*MaxMessageBytes || diag.FindSecrets(f.Fix.Text) != nil) {
			f.Fix = nil // a fix too large to review, or carrying a credential, is not offered
		}
	}
}

// Echo is input text as reports may echo it: credentials redacted
// (diag.RedactSecrets), then bounded to max bytes (Clip).
func Echo(s string, max int) string { return Clip(diag.RedactSecrets(s), max) }

// Clip bounds text echoed from the input to max bytes at a rune boundary,
// ending it with "…#" and the first 8 hex digits of its SHA-256, so that
// clipped texts stay distinct.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	cut := max - 16
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…#" + hex.EncodeToString(sum[:4])
}

// stamp sets each finding's code and severity from its rule. Findings of ids
// the registry does not know keep theirs (there are none in a correct build;
// a test checks it).
func stamp(fs []diag.Finding, reg *rules.Registry) []diag.Finding {
	for i := range fs {
		if r := reg.Lookup(fs[i].Rule); r != nil {
			fs[i].Code, fs[i].Severity = r.Code, r.Severity
		}
	}
	return fs
}

func severity(fs []diag.Finding, cfg *config.Config) []diag.Finding {
	if cfg == nil {
		return fs
	}
	kept := fs[:0]
	for _, f := range fs {
		f.Severity = cfg.Severity(f.Rule, f.Pos.File, f.Severity)
		if f.Severity != diag.Off {
			kept = append(kept, f)
		}
	}
	return kept
}

func ignore(fs []diag.Finding, cfg *config.Config) []diag.Finding {
	if cfg == nil {
		return fs
	}
	kept := fs[:0]
	for _, f := range fs {
		if !cfg.Ignored(f.Pos.File) {
			kept = append(kept, f)
		}
	}
	return kept
}

// dedupe drops exact duplicates (same rule, position, message, thread,
// message id) from a sorted slice.
func dedupe(fs []diag.Finding) []diag.Finding {
	out := fs[:0]
	for i := range fs {
		if i > 0 {
			a, b := &fs[i-1], &fs[i]
			if a.Rule == b.Rule && a.Pos == b.Pos && a.Message == b.Message && a.Thread == b.Thread && a.MsgID == b.MsgID {
				continue
			}
		}
		out = append(out, fs[i])
	}
	return out
}

// policy reports how a configuration discovered below the repository root
// relaxes the root's own (SP-005; none of it is applied, see
// config.Tighten), with the severity the root's configuration gives SP-005.
func policy(p *config.Resolved, reg *rules.Registry) []diag.Finding {
	if p == nil || len(p.Untrusted) == 0 {
		return nil
	}
	rule := reg.Lookup("SP-005")
	var out []diag.Finding
	ids := make([]string, 0, len(reg.All()))
	for _, r := range reg.All() {
		ids = append(ids, r.ID)
	}
	def := func(id string) diag.Severity { return reg.Lookup(id).Severity }
	base := "the defaults (the repository root has no " + config.FileName + ")"
	switch {
	case p.BaseRev != "":
		base = "the configuration at " + p.BaseRev + ", which governs this pull request"
		if p.Base == nil {
			base = "the defaults (" + p.BaseRev + " has no configuration), which govern this pull request"
		}
	case p.Base != nil:
		base = "the repository's " + config.FileName
	}
	hint := "A configuration below the root may only tighten the repository's: change the repository's " + config.FileName + " (it takes effect once merged), or remove the setting."
	if p.BaseRev != "" {
		hint = "The configuration of the revision a pull request is compared with judges it; the change applies once merged. Ask a reviewer to accept it."
	}
	for _, u := range p.Untrusted {
		sev := p.Base.Severity(rule.ID, u.Path, rule.Severity)
		if sev == diag.Off {
			continue
		}
		what := "This configuration below the repository root"
		if !p.Below || u != p.Config {
			what = "This pull request's version of the configuration"
		}
		for _, rel := range config.Relaxations(u, p.Base, ids, def) {
			f := diag.Finding{Rule: rule.ID, Code: rule.Code, Severity: sev,
				Pos:     diag.Pos{File: u.Path, Line: rel.Line, Col: rel.Col},
				Message: what + " relaxes " + base + ": " + rel.What + "; the relaxation is not applied.",
				Hint:    hint, Anchor: "relaxes " + rel.What}
			f.Message, f.Anchor = Echo(f.Message, MaxMessageBytes), Echo(f.Anchor, MaxMessageBytes)
			out = append(out, f)
		}
	}
	return out
}
