package rules

// ER-/WR-/IR-: the research thread (artifact_linter_spec_v0.1.md, Research
// Thread; artifact_schema_v0.1.md §1). When the section is missing, ES-001
// alone reports it.

import (
	"fmt"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/diag"
)

var rtRules = []Rule{
	{ID: "ER-001", Name: "rt-statement-missing", Code: "RT_STATEMENT_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Research Thread (R)",
		Short: "The research thread has an **RT** statement.",
		Full:  "Section 1 states the research thread in one sentence as \"**RT**: …\". A \"**Question**:\" field is reported as a non-standard label (tools read only **RT**); an empty value is reported too.",
		Check: checkRTStatement},
	{ID: "ER-002", Name: "rt-context-missing", Code: "RT_CONTEXT_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Research Thread (R)",
		Short: "The research thread has a **Context** field.",
		Full:  "Section 1 needs \"**Context**:\" with 2-3 sentences of essential background.",
		Check: checkRTContext},
	{ID: "WR-001", Name: "rt-anchors-missing", Code: "RT_ANCHORS_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Research Thread (R)",
		Short: "The research thread has an **Anchors** field.",
		Full:  "Section 1 should cite the transcript sections (§n) or evidence records the question rests on, or say \"inference\". The anchors' format is checked by WP-P01.",
		Check: checkRTAnchors},
	{ID: "IR-001", Name: "rt-why-it-matters-missing", Code: "RT_WHY_IT_MATTERS_MISSING", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Research Thread (R)",
		Short: "The research thread says why it matters.",
		Full:  "Section 1 should have \"**Why it matters**:\" with 1-2 sentences on the downstream implications.",
		Check: checkRTWhy},
}

// checkRTField returns the check of one research-thread field.
func checkRTField(key, label, hint string) func(*Ctx) {
	return func(c *Ctx) {
		sec := alSection(c.P, delta.ResearchThread)
		if sec == nil {
			return
		}
		rt := alRT(c.P)
		if rt == nil {
			c.reportAt(sec.Pos, fmt.Sprintf("The research thread has no **%s** field.", label), hint, c.anchor("RT", key))
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
