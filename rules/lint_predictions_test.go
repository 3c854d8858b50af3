package rules

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

func hyps3() *doc {
	return newDoc().section(delta.HypothesisSlate).item("H1", "Lineage").item("H2", "Gradient").item("H3", "Third Alternative")
}

func TestPredictionRules(t *testing.T) {
	for _, id := range []string{"EP-001", "EP-002", "EP-003", "WP-001", "WP-002", "IP-001"} {
		expect(t, id, hyps3().p, nil)
	}
	notable := hyps3().section(delta.PredictionsTable)
	expect(t, "EP-001", notable.p, nil, "The Predictions Table section has no table")
	expect(t, "EP-002", notable.p, nil)
	expect(t, "EP-003", notable.p, nil)

	// The pilot's table: no hypothesis columns.
	pilot := hyps3().section(delta.PredictionsTable).table("ID", "Hypothesis", "Prediction", "Evidence Anchor").
		row("P1", "H1", "symmetric", "EV-001#E1").row("P2", "H2", "gutless", "EV-003#E1").row("P3", "H3", "continues", "none")
	expect(t, "EP-001", pilot.p, nil)
	expect(t, "EP-003", pilot.p, nil, "has no hypothesis columns (none for H1, H2 and H3)")
	expect(t, "WP-001", pilot.p, nil) // no columns to compare: EP-003's
	expect(t, "IP-001", pilot.p, nil)

	d := hyps3()
	d.item("H4", "~~Killed~~")
	d.section(delta.PredictionsTable).table("Prediction", "Condition", "H1 (lineage)", "H2 predicts", "H3").
		row("P1", "Early", "Unchanged", "Changes", "indeterminate").
		row("P2", "Late", "Unchanged", "unchanged.", "Unchanged").
		row("P3", "Ablate", "—", "—", "—").
		row("P4.H7", "Block", "Fails", "—", "?").
		row("~~P5~~", "Killed", "A", "A", "A").
		row("P6", "Pulse", "A", "a", "?").
		row("P7", "Wait", "?", "?", "?").
		row("P8", "Rest", "", "", "").
		row("P9", "Sleep", "A", "", "")
	expect(t, "EP-001", d.p, nil)
	expect(t, "EP-002", d.p, nil, `first column is "Prediction", not "ID"`)
	expect(t, "EP-003", d.p, nil)
	// "Not all cells in a row are identical" (artifact_linter_spec_v0.1.md):
	// P4.H7, P6 and P9 have cells that differ, whatever they hold.
	expect(t, "WP-001", d.p, nil, `P2 does not discriminate: H1, H2 and H3 all predict "Unchanged"`,
		"P3 gives no outcome for any hypothesis", "P7 gives no outcome for any hypothesis", "P8 gives no outcome for any hypothesis")
	expect(t, "WP-002", d.p, nil, "Prediction P4.H7 is scoped to H7, which is not in the hypothesis slate.")
	expect(t, "IP-001", d.p, nil, "P3, P4.H7, P6, P7, P8 and P9 give no outcome for H3, the third alternative.")

	missing := hyps3().section(delta.PredictionsTable).table("ID", "Condition", "H1", "H2").row("P1", "x", "a", "b").row("P2", "y", "a", "b")
	expect(t, "EP-001", missing.p, nil, "has 2 active predictions; the minimum is 3")
	expect(t, "EP-003", missing.p, nil, "The predictions table has no column for H3.")
	scoped := hyps3().section(delta.PredictionsTable).table("ID", "Condition", "H1", "H2", "H3").
		row("P1.H1", "x", "a", "b", "c").row("P1.H2", "x", "a", "b", "c").row("P2", "y", "a", "b", "c")
	expect(t, "EP-001", scoped.p, nil, "has 2 active predictions")
	expect(t, "WP-002", scoped.p, nil)
}
