package rules

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

func TestHypothesisRules(t *testing.T) {
	for _, id := range []string{"EH-001", "EH-002", "EH-003", "EH-004", "WH-001", "WH-002", "WH-003", "IH-001"} {
		expect(t, id, newDoc().p, nil) // no section: ES-001's
	}
	few := newDoc().section(delta.HypothesisSlate).item("H1", "Lineage").f("claim", "Claim", "x").item("H2", "~~Gradient~~")
	expect(t, "EH-001", few.p, nil, "has 1 active hypothesis (and 1 killed); the minimum is 3")
	expect(t, "EH-003", few.p, nil, `No active hypothesis is labeled "Third Alternative".`)

	many := newDoc().section(delta.HypothesisSlate)
	for _, id := range []string{"H1", "H2", "H3", "H4", "H5", "H6", "H7"} {
		many.item(id, "x")
	}
	expect(t, "EH-002", many.p, nil, "has 7 active hypotheses; the maximum is 6")
	expect(t, "EH-001", many.p, nil)

	// Third alternative: by label, by flag field, by model flag; a killed one does not count.
	killed := newDoc().section(delta.HypothesisSlate).item("H1", "a").item("H2", "b").item("H3", "~~Third Alternative~~")
	expect(t, "EH-003", killed.p, nil, "H3, the third alternative, is killed")
	flag := newDoc().section(delta.HypothesisSlate).item("H3", "Both wrong").f("third_alternative", "Third alternative", "true")
	expect(t, "EH-003", flag.p, nil)
	lower := newDoc().section(delta.HypothesisSlate).item("H3", "Both wrong: structure vs content (third alternative)")
	expect(t, "EH-003", lower.p, nil)

	d := newDoc().section(delta.HypothesisSlate).
		item("H1", "PAR").f("claim", "Statement~", "Polarity.").f("anchors", "Anchors", "EV-001#E1 [verbatim], EV-002#E1").
		item("H2", "Wnt").f("claim", "Claim", "").f("anchors", "Anchors", "inference").
		item("H3", "Roles").f("claim", "Claim", "[inference] Roles help.").f("anchors", "Anchors", "inference").f("mechanism", "Mechanism", "m").
		item("H4", "Mixed").f("claim", "Claim", "c").f("anchors", "Anchors", "§230, §105, inference").f("how_this_could_be_true", "How this could be true", "x").
		item("H5", "Quoted").f("", "Hypothesis", "c").f("anchors", "Anchors", `§150 ("completely isogenic"), §161`).f("mechanism", "Mechanism", "m").
		item("H6", "~~Killed~~")
	expect(t, "EH-004", d.p, nil, "H1 uses **Statement** instead of **Claim**.", "H2 has an empty **Claim** field.", "H5 uses **Hypothesis** instead of **Claim**.")
	expect(t, "WH-001", d.p, nil)
	expect(t, "WH-002", d.p, nil, `H1 anchors "EV-001#E1 [verbatim], EV-002#E1"`, `H4 anchors "§230, §105, inference"`, `H5 anchors "§150 (\"completely isogenic\"), §161"`)
	fs := lint(t, "WH-002", d.p, nil)
	if !strings.HasPrefix(fs[1].Hint, "The literal inference stands alone;") {
		t.Errorf("WH-002 hint for a bare inference in a list: %q", fs[1].Hint)
	}
	expect(t, "WH-003", d.p, nil, `H2 has anchors "inference" but its text is not labeled [inference].`)
	expect(t, "IH-001", d.p, nil, "H1 has no **Mechanism** field.", "H2 has no **Mechanism** field.")
	noAnchors := newDoc().section(delta.HypothesisSlate).item("H1", "x").f("claim", "Claim", "c").f("anchors", "Anchors", "—")
	expect(t, "WH-001", noAnchors.p, nil, "H1 has an empty **Anchors** field.")
	expect(t, "WH-002", noAnchors.p, nil)
}
