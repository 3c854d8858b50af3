package rules

import (
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/diag"
)

// artifactCheck checks one persisted artifact (markdown, or a JSON artifact
// object through its rendering).
type artifactCheck func(c *ACtx)

// artifactChecks lists the artifact linter rules by id (artifact_linter_spec_v0.1.md);
// each family lives in its own lint_*.go file, its metadata in meta_artifact.go.

// ACtx is what an artifact check sees.
type ACtx struct {
	P *artifact.Parsed
	// Evidence is the sibling evidence pack (evidence.json), nil when none.
	Evidence *EvidencePack
	// Thread is the session id the artifact belongs to (front matter
	// session_id, else the file name).
	Thread string
	meta   *Meta
	out    []diag.Finding
}

// report adds a finding of the current rule at pos.
func (c *ACtx) report(pos diag.Pos, msg, hint, anchor string) *diag.Finding {
	if pos.File == "" {
		pos.File = c.P.File
	}
	if pos.Line == 0 {
		pos.Line = 1
	}
	f := diag.Finding{Rule: c.meta.ID, Code: c.meta.Code, Severity: c.meta.Severity, Message: msg, Hint: hint,
		Pos: pos.Normalize(), Thread: c.Thread, Anchor: anchor}
	c.out = append(c.out, f)
	return &c.out[len(c.out)-1]
}
