package rules

// ER-/WR-/IR-: the research thread (artifact_linter_spec_v0.1.md, Research
// Thread; artifact_schema_v0.1.md §1). When the section is missing, ES-001
// alone reports it.

import (
	"fmt"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

// checkRTField returns the check of one research-thread field.
func checkRTField(key, label, hint string) artifactCheck {
	return func(c *ACtx) {
		sec := alSection(c.P, delta.ResearchThread)
		if sec == nil {
			return
		}
		rt := alRT(c.P)
		if rt == nil {
			c.report(sec.Pos, fmt.Sprintf("The research thread has no **%s** field.", label), hint, c.anchor("RT", key))
			return
		}
		if rt.Pos.Line == 0 {
			cp := *rt
			cp.Pos = sec.Pos
			rt = &cp
		}
		alRequire(c, rt, key, label, hint)
	}
}

var (
	checkRTStatement = checkRTField("statement", "RT",
		"State the research thread in one sentence: \"**RT**: Does …?\" (artifact_schema_v0.1.md §1).")
	checkRTContext = checkRTField("context", "Context",
		"Add \"**Context**:\" with 2-3 sentences of essential background.")
	checkRTAnchors = checkRTField("anchors", "Anchors",
		"Add \"**Anchors**:\" with the transcript sections (§n) or evidence records (EV-nnn) the question rests on, or \"inference\".")
	checkRTWhy = checkRTField("why_it_matters", "Why it matters",
		"Add \"**Why it matters**:\" with 1-2 sentences on the downstream implications.")
)
