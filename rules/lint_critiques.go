package rules

// EC-/WC-/IC-: the adversarial critique (artifact_linter_spec_v0.1.md,
// Adversarial Critique; artifact_schema_v0.1.md §7). Active critiques only; a
// missing section is ES-001's.

import (
	"regexp"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
)

func checkMinCritiques(c *ACtx) {
	alMinimum(c, delta.AdversarialCritique, 2, "The adversarial critique has", "critique", "critiques",
		"Add critiques (\"### C<n>: Name\" with Attack, Evidence, Current status) until there are at least 2, one of them a real third alternative.")
}

func checkCritiqueAttackField(c *ACtx) {
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

func checkRealThirdAlternative(c *ACtx) {
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
	c.report(sec.Pos, "No active critique is a \"real third alternative\".",
		"Add a critique proposing a specific alternative framing (not just \"both wrong\"), headed e.g. \"### C<n>: The real third alternative — …\", or mark one with **Real third alternative**: true.",
		c.anchor("real third alternative"))
}

func checkCritiqueEvidence(c *ACtx) {
	for _, it := range alActive(c.P, delta.AdversarialCritique) {
		alRequire(c, it, "evidence", "Evidence",
			"Add \"**Evidence**:\" (or the schema's \"**Evidence that would confirm this**:\") saying what observation would confirm the critique.",
			"Evidence that would confirm this", "Evidence that would confirm", "Why it might be right")
	}
}

func checkCritiqueStatus(c *ACtx) {
	for _, it := range alActive(c.P, delta.AdversarialCritique) {
		alRequire(c, it, "current_status", "Current status", "Add \"**Current status**:\" saying how seriously the threat is taken and what is planned.")
	}
}
