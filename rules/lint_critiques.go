package rules

// EC-/WC-/IC-: the adversarial critique (artifact_linter_spec_v0.1.md,
// Adversarial Critique; artifact_schema_v0.1.md §7). Active critiques only; a
// missing section is ES-001's.

import (
	"regexp"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

var critiqueRules = []Rule{
	{ID: "EC-001", Name: "too-few-critiques", Code: "TOO_FEW_CRITIQUES", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Adversarial Critique (C)",
		Short: "There are at least " + minItems(schema.AdversarialCritique) + " active critiques.",
		Full:  "At least " + minItems(schema.AdversarialCritique) + " active critiques of the framing. Every item of the section counts, whatever its id (ES-003 reports \"### Critique 1:\").",
		Check: checkMinCritiques},
	{ID: "EC-002", Name: "critique-attack-missing", Code: "CRITIQUE_ATTACK_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Adversarial Critique (C)",
		Short: "Every active critique has an **Attack**.",
		Full:  "Each critique says how the framing could be fundamentally wrong, as \"**Attack**: …\".",
		Check: checkCritiqueAttackField},
	{ID: "WC-001", Name: "no-real-third-alternative", Code: "NO_REAL_THIRD_ALTERNATIVE", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Adversarial Critique (C)",
		Short: "At least one active critique is a \"real third alternative\".",
		Full:  "One critique should propose a specific alternative framing. It is found by \"third alternative\" or \"alternative framing\" in a critique heading, or by the real_third_alternative flag (\"**Real third alternative**: true\"). Not reported when there is no critique at all (EC-001)." + divergeArt,
		Check: checkRealThirdAlternative},
	{ID: "WC-002", Name: "critique-evidence-missing", Code: "CRITIQUE_EVIDENCE_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Adversarial Critique (C)",
		Short: "Every active critique has an **Evidence** field.",
		Full:  "Each critique says what would confirm it. \"**Evidence**:\", the schema's own \"**Evidence that would confirm this**:\" and, for a real-third-alternative critique, \"**Why it might be right**:\" are accepted." + divergeArt,
		Check: checkCritiqueEvidence},
	{ID: "IC-001", Name: "critique-status-missing", Code: "CRITIQUE_STATUS_MISSING", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Adversarial Critique (C)",
		Short: "Every active critique has a **Current status**.",
		Full:  "\"**Current status**:\" says how seriously the threat is taken.",
		Check: checkCritiqueStatus},
}

func checkMinCritiques(c *Ctx) {
	alMinimum(c, delta.AdversarialCritique, "The adversarial critique has",
		"Add critiques (\"### C<n>: Name\" with Attack, Evidence, Current status) until there are at least %d, one of them a real third alternative.")
}

func checkCritiqueAttackField(c *Ctx) {
	for _, it := range alActive(c.P, delta.AdversarialCritique) {
		alRequire(c, it, "attack", "Attack", "Add \"**Attack**:\" saying how the framing could be fundamentally wrong.")
	}
}

var alAltFramingRE = regexp.MustCompile(`(?i)third\s+alternative|alternative\s+framing`)

// alIsRealThirdAlt reports whether a critique is a real third alternative.
func alIsRealThirdAlt(p *artifact.Parsed, it *artifact.ParsedItem) bool {
	return alAltFramingRE.MatchString(it.Label) || alAltFramingRE.MatchString(it.Name) ||
		alTrue(it, "real_third_alternative") || alArtFlag(p, it, "real_third_alternative")
}

func checkRealThirdAlternative(c *Ctx) {
	sec := alSection(c.P, delta.AdversarialCritique)
	if sec == nil {
		return
	}
	active := alActive(c.P, delta.AdversarialCritique)
	if len(active) == 0 {
		return // EC-001
	}
	for _, it := range active {
		if alIsRealThirdAlt(c.P, it) {
			return
		}
	}
	c.reportAt(sec.Pos, "No active critique is a \"real third alternative\".",
		"Add a critique proposing a specific alternative framing (not just \"both wrong\"), headed e.g. \"### C<n>: The real third alternative — …\", or mark one with **Real third alternative**: true.",
		c.anchor("real third alternative"))
}

func checkCritiqueEvidence(c *Ctx) {
	for _, it := range alActive(c.P, delta.AdversarialCritique) {
		alRequire(c, it, "evidence", "Evidence",
			"Add \"**Evidence**:\" (or the schema's \"**Evidence that would confirm this**:\") saying what observation would confirm the critique.",
			"Evidence that would confirm this", "Evidence that would confirm", "Why it might be right")
	}
}

func checkCritiqueStatus(c *Ctx) {
	for _, it := range alActive(c.P, delta.AdversarialCritique) {
		alRequire(c, it, "current_status", "Current status", "Add \"**Current status**:\" saying how seriously the threat is taken and what is planned.")
	}
}
