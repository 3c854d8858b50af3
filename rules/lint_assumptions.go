package rules

// EA-/WA-/IA-: the assumption ledger (artifact_linter_spec_v0.1.md,
// Assumption Ledger; artifact_schema_v0.1.md §5). Active assumptions only; a
// missing section is ES-001's. A scale/physics check follows the schema's
// own format (Statement, Calculation, Implication): its Implication stands
// for the Load and its Calculation for the Test.

import (
	"fmt"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

var assumptionRules = []Rule{
	{ID: "EA-001", Name: "too-few-assumptions", Code: "TOO_FEW_ASSUMPTIONS", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Assumption Ledger (A)",
		Short: "The assumption ledger has at least " + minItems(schema.AssumptionLedger) + " active assumptions.",
		Full:  "At least " + minItems(schema.AssumptionLedger) + " active load-bearing assumptions: \"### A<n>: Name\" items, or the rows of a table whose first column is ID.",
		Check: checkMinAssumptions},
	{ID: "EA-002", Name: "no-scale-check-assumption", Code: "NO_SCALE_CHECK_ASSUMPTION", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Assumption Ledger (A)",
		Short: "At least one active assumption is a scale/physics check.",
		Full:  "The \"imprisoned imagination\" constraint: one assumption checks the scale or physics with numbers. It is found by the word \"scale\" or \"physics\" in an assumption heading (the spec; \"timescales\" does not count) or by the scale_check flag (\"**Scale check**: true\", upstream's form)." + divergeArt,
		Check: checkScaleCheckPresent},
	{ID: "EA-003", Name: "assumption-statement-missing", Code: "ASSUMPTION_STATEMENT_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Assumption Ledger (A)",
		Short: "Every active assumption has a **Statement**.",
		Full:  "Each assumption says what is assumed to be true as \"**Statement**: …\".",
		Check: checkAssumptionStatement},
	{ID: "WA-001", Name: "assumption-load-missing", Code: "ASSUMPTION_LOAD_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Assumption Ledger (A)",
		Short: "Every active assumption says what breaks if it is wrong (**Load**).",
		Full:  "\"**Load**:\" names the hypotheses or tests that become invalid if the assumption fails. A scale/physics check may give its **Implication** instead (the schema's own scale-check format)." + divergeArt,
		Check: checkAssumptionLoad},
	{ID: "WA-002", Name: "assumption-test-missing", Code: "ASSUMPTION_TEST_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Assumption Ledger (A)",
		Short: "Every active assumption says how it could be checked (**Test**).",
		Full:  "\"**Test**:\" says how the assumption could be checked; an empty value is reported. A scale/physics check may give its **Calculation** instead." + divergeArt,
		Check: checkAssumptionTest},
	{ID: "WA-003", Name: "scale-check-calculation-missing", Code: "SCALE_CHECK_CALCULATION_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Assumption Ledger (A)",
		Short: "Every scale/physics check has a **Calculation**.",
		Full:  "A scale check (\"scale\"/\"physics\" in its heading, or the scale_check flag) gives the actual numbers in \"**Calculation**:\".",
		Check: checkScaleCalculation},
	{ID: "IA-001", Name: "assumption-status-invalid", Code: "ASSUMPTION_STATUS_INVALID", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Assumption Ledger (A)",
		Short: "Every active assumption has a status: unchecked, verified or falsified.",
		Full:  "\"**Status**:\" starts with unchecked, verified or falsified (a note may follow: \"verified (Sulston 1983)\"). A scale/physics check without a status is not reported (the schema's scale-check format has none)." + divergeArt,
		Check: checkAssumptionStatus},
}

func checkMinAssumptions(c *Ctx) {
	alMinimum(c, delta.AssumptionLedger, "The assumption ledger has",
		"Add load-bearing assumptions (\"### A<n>: Name\" with Statement, Load, Test, Status) until there are at least %d, one of them a scale/physics check.")
}

func checkScaleCheckPresent(c *Ctx) {
	sec := alSection(c.P, delta.AssumptionLedger)
	if sec == nil {
		return
	}
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		if alIsScaleCheck(c.P, it) {
			return
		}
	}
	c.reportAt(sec.Pos, "No active assumption is a scale/physics check.",
		"Add \"### A<n>: Scale/Physics Check\" with **Statement**, **Calculation** (the actual numbers) and **Implication** (artifact_schema_v0.1.md §5).",
		c.anchor("scale check"))
}

func checkAssumptionStatement(c *Ctx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		alRequire(c, it, "statement", "Statement", "Add \"**Statement**:\" saying what is assumed to be true.")
	}
}

func checkAssumptionLoad(c *Ctx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		var accept []string
		if alIsScaleCheck(c.P, it) {
			accept = []string{"Implication"}
		}
		alRequire(c, it, "load", "Load", "Add \"**Load**:\" saying what breaks if the assumption is wrong (which hypotheses or tests become invalid).", accept...)
	}
}

func checkAssumptionTest(c *Ctx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		var accept []string
		if alIsScaleCheck(c.P, it) {
			accept = []string{"Calculation"}
		}
		alRequire(c, it, "test", "Test", "Add \"**Test**:\" saying how the assumption could be checked.", accept...)
	}
}

func checkScaleCalculation(c *Ctx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		if alIsScaleCheck(c.P, it) {
			alRequire(c, it, "calculation", "Calculation", "Add \"**Calculation**:\" with the actual numbers (e.g. \"D ≈ 10 μm²/s, L ≈ 100 μm → τ ≈ L²/D ≈ 17 min\").")
		}
	}
}

var alAssumptionStatuses = map[string]bool{"unchecked": true, "verified": true, "falsified": true}

func checkAssumptionStatus(c *Ctx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		scale := alIsScaleCheck(c.P, it)
		f, alias := alFind(it, "status")
		if scale && (f == nil || alias) {
			continue
		}
		hint := "Add \"**Status**:\" unchecked, verified or falsified."
		if f == nil || alias || alBlank(alText(f)) {
			alRequire(c, it, "status", "Status", hint)
			continue
		}
		v := alText(f)
		if alAssumptionStatuses[alFirstWord(v)] {
			continue
		}
		c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s's status %q is not unchecked, verified or falsified.", alName(it), alClip(v, 40)),
			"Start the status with unchecked, verified or falsified (a note may follow).", c.anchor(alKey(it), "value"))
	}
}
