package rules

// EA-/WA-/IA-: the assumption ledger (artifact_linter_spec_v0.1.md,
// Assumption Ledger; artifact_schema_v0.1.md §5). Active assumptions only; a
// missing section is ES-001's. A scale/physics check follows the schema's
// own format (Statement, Calculation, Implication): its Implication stands
// for the Load and its Calculation for the Test.

import (
	"fmt"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

func checkMinAssumptions(c *ACtx) {
	alMinimum(c, delta.AssumptionLedger, 3, "The assumption ledger has", "assumption", "assumptions",
		"Add load-bearing assumptions (\"### A<n>: Name\" with Statement, Load, Test, Status) until there are at least 3, one of them a scale/physics check.")
}

func checkScaleCheckPresent(c *ACtx) {
	sec := alSection(c.P, delta.AssumptionLedger)
	if sec == nil {
		return
	}
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		if alIsScaleCheck(c.P, it) {
			return
		}
	}
	c.report(sec.Pos, "No active assumption is a scale/physics check.",
		"Add \"### A<n>: Scale/Physics Check\" with **Statement**, **Calculation** (the actual numbers) and **Implication** (artifact_schema_v0.1.md §5).",
		c.anchor("scale check"))
}

func checkAssumptionStatement(c *ACtx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		alRequire(c, it, "statement", "Statement", "Add \"**Statement**:\" saying what is assumed to be true.")
	}
}

func checkAssumptionLoad(c *ACtx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		var accept []string
		if alIsScaleCheck(c.P, it) {
			accept = []string{"Implication"}
		}
		alRequire(c, it, "load", "Load", "Add \"**Load**:\" saying what breaks if the assumption is wrong (which hypotheses or tests become invalid).", accept...)
	}
}

func checkAssumptionTest(c *ACtx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		var accept []string
		if alIsScaleCheck(c.P, it) {
			accept = []string{"Calculation"}
		}
		alRequire(c, it, "test", "Test", "Add \"**Test**:\" saying how the assumption could be checked.", accept...)
	}
}

func checkScaleCalculation(c *ACtx) {
	for _, it := range alActive(c.P, delta.AssumptionLedger) {
		if alIsScaleCheck(c.P, it) {
			alRequire(c, it, "calculation", "Calculation", "Add \"**Calculation**:\" with the actual numbers (e.g. \"D ≈ 10 μm²/s, L ≈ 100 μm → τ ≈ L²/D ≈ 17 min\").")
		}
	}
}

var alAssumptionStatuses = map[string]bool{"unchecked": true, "verified": true, "falsified": true}

func checkAssumptionStatus(c *ACtx) {
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
		c.report(alFieldPos(it, f), fmt.Sprintf("%s's status %q is not unchecked, verified or falsified.", alName(it), alClip(v, 40)),
			"Start the status with unchecked, verified or falsified (a note may follow).", c.anchor(alKey(it), "value"))
	}
}
