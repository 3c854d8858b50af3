package rules

// DR-001 artifact drift: a persisted artifact compared with its thread
// compiled up to the artifact's front-matter version.

import (
	"fmt"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/diag"
)

var drRules = []Rule{
	{ID: "DR-001", Name: "artifact-drift", Code: "ARTIFACT_DRIFT", Family: "DR", Severity: diag.Error, Scope: ScopeThread, Spec: "artifact_publish_spec_v0.1.md, Latest Artifact Pointer (dual-source truth)",
		Short: "Persisted artifact matches its thread compiled at the same version.",
		Full:  "When a thread and its persisted artifacts/<thread_id>.md are both inputs, brenner-ci compiles the thread up to the artifact's front-matter version and compares item by item: items added or missing, changed fields, kill state. Hand edits that no delta explains make the two sources of truth disagree. The finding lists the differences and points at the first differing item. An artifact that could not be parsed (IN-001, IN-008) cannot be compared: that is reported here too, as an error, so that making the file unreadable cannot hide a drift.",
		Check: checkDrift},
	{ID: "DR-002", Name: "artifact-file-name-mismatch", Code: "ARTIFACT_FILE_NAME_MISMATCH", Family: "DR", Severity: diag.Error, Scope: ScopeBatch, Spec: specAP + "; " + specTH + ", Artifact storage layout",
		Short: "A persisted artifact's file name matches its session_id.",
		Full:  "When a persisted artifact and its thread are both inputs, the file must be artifacts/<session_id>.md (or artifacts/<session_id>/artifact.md): tools find an artifact by its thread id. The spec's id for this condition is AP-005, which is reported with it (AP-005 also checks the Artifact Path line of COMPILED bodies); DR-002 stays so that configurations, suppressions and baselines that name it keep working.",
		Check: checkArtifactFileName},
	{ID: "DR-003", Name: "artifact-path-not-artifact", Code: "ARTIFACT_PATH_NOT_ARTIFACT", Family: "DR", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specTH + ", Artifact storage layout; " + specAP + ", Latest Artifact Pointer",
		Short: "The file at a thread's artifact path is an artifact.",
		Full: "artifacts/<thread_id>.md (or artifacts/<thread_id>/artifact.md)" +
			" — where <thread_id> is a thread among the inputs or a research-session or coordination thread id — must hold the thread's persisted artifact. " +
			"An empty file, or one replaced by other text, is reported instead of being skipped as markdown that is not an artifact, and when its thread is among the inputs it is still compared with the thread's latest compiled version (DR-001), so emptying the file cannot make the drift disappear.",
	},
}

// checkDrift compares a thread with its persisted artifacts (Ctx.Persisted).
func checkDrift(c *Ctx) {
	t := c.T
	id := t.ID()
	for _, p := range c.Persisted {
		if unread(p) {
			// Nothing of it is known, so it cannot be compared; still an
			// error, so that a file made unreadable cannot hide a drift.
			c.emit(diag.Finding{
				Message: fmt.Sprintf("Artifact %s could not be compared with thread %s: the file could not be parsed (its own finding says why).", p.File, t.Key),
				Hint:    "Make the file parse, or re-persist it from the mailbox (brenner-ci check --fix --out DIR writes the recompiled file).",
				Pos:     diag.Pos{File: p.File, Line: 1, Col: 1}, Thread: t.Key, Anchor: fmt.Sprintf("drift %s unparsed", id)})
			continue
		}
		v, ok := p.Version()
		if !ok {
			if p.HasFrontMatter {
				continue // EM-/IM- rules report a missing version
			}
			// No front matter at all (an emptied or replaced file, DR-003):
			// compared with the latest compiled version.
			v = t.Version
		}
		var want *artifact.Artifact
		switch {
		case v == t.Version:
			want = t.Current
		default:
			for i := range t.Versions {
				if t.Versions[i].N == v {
					want = t.VersionArtifact(i)
				}
			}
		}
		if want == nil {
			continue // AP-010 reports a version the thread never compiled
		}
		diffs, first := artifact.Drift(want, p)
		if len(diffs) == 0 {
			continue
		}
		pos := first
		if pos.Line == 0 {
			pos = diag.Pos{File: p.File, Line: 1, Col: 1}
		}
		shown := diffs
		more := ""
		if len(shown) > 8 {
			more = fmt.Sprintf("; and %d more", len(shown)-8)
			shown = shown[:8]
		}
		c.emit(diag.Finding{
			Message: fmt.Sprintf("Artifact %s differs from thread %s compiled at v%d: %s%s.", p.File, t.Key, v, strings.Join(shown, "; "), more),
			Hint:    "Re-persist the artifact from the mailbox (brenner-ci check --fix --out DIR writes the recompiled file), or post the deltas that explain the edits.",
			Pos:     pos.Normalize(), Thread: t.Key, Anchor: fmt.Sprintf("drift %s v%d %s", id, v, strings.Join(diffs, "|"))})
	}
}
