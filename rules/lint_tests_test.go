package rules

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
)

func TestDiscriminativeTestRules(t *testing.T) {
	for _, id := range []string{"ET-001", "ET-002", "ET-003", "WT-001", "WT-002", "WT-003", "IT-001", "IT-002"} {
		expect(t, id, newDoc().p, nil)
	}
	one := newDoc().section(delta.DiscriminativeTests).item("T1", "PAR/Wnt epistasis").
		f("procedure", "Design~", "Double RNAi.").f("discriminates", "Discriminates", "H1 vs H2").
		f("potency_check", "Potency check", "Single RNAi controls (EV-001#E1).").item("T2", "~~Killed~~")
	expect(t, "ET-001", one.p, nil, "has 1 active test (and 1 killed); the minimum is 2")
	expect(t, "ET-002", one.p, nil, "T1 uses **Design** instead of **Procedure**.")
	expect(t, "ET-003", one.p, nil, "T1 has no **Expected outcomes** field.")
	expect(t, "WT-001", one.p, nil)
	expect(t, "WT-003", one.p, nil, "T1 has no evidence-per-week score breakdown.")
	expect(t, "IT-001", one.p, nil)
	expect(t, "IT-002", one.p, nil, "T1 has no **Feasibility** field.")

	d := newDoc().section(delta.DiscriminativeTests).
		item("T1", "Linter errors (Score: 9/12)").f("procedure", "Procedure", "Run.").list("expected_outcomes", "Expected outcomes").
		f("discriminates", "Discriminates", "roles vs unified").f("score", "Evidence-per-week score", "LR=2, Cost=3, Speed=3, Ambiguity=1").
		item("T2", "Turn count (Score: 7/12)").f("potency_check", "Potency check", " ").f("score", "Evidence-per-week score", "LR=2, Cost=2").
		item("T3", "Third-alt rate (Score: 10/12)").f("score", "Score", "high").
		item("T4", "Unscored")
	expect(t, "ET-003", d.p, nil, "T1 has an empty **Expected outcomes** field.", "T2 has no", "T3 has no", "T4 has no")
	expect(t, "WT-001", d.p, nil, "T1 has no **Potency check**", "T2 has an empty **Potency check** field.", "T3 has no", "T4 has no")
	expect(t, "WT-002", d.p, nil, "Tests are not ranked by score: T3 (10/12) comes after T2 (7/12).")
	expect(t, "WT-003", d.p, nil, "T2's score breakdown lacks speed and ambiguity.", "T3's score field gives no likelihood ratio", "T4 has no evidence-per-week")
	expect(t, "IT-001", d.p, nil, `T1's **Discriminates** field names no hypothesis id ("roles vs unified")`, "T2 has no **Discriminates**", "T3 has no", "T4 has no")

	// Scores from a list breakdown and from the model (JSON rendering).
	lst := newDoc().section(delta.DiscriminativeTests).
		item("T1", "a").list("score", "Evidence-per-week score", "Likelihood ratio: 2 (10-100:1)", "Cost: 1", "Speed: 2", "Ambiguity: 2").
		item("T2", "b").list("score", "Evidence-per-week score", "- Likelihood ratio: 3", "Cost: 3", "Speed: 3", "Ambiguity: 3")
	expect(t, "WT-003", lst.p, nil)
	expect(t, "WT-002", lst.p, nil, "T2 (12/12) comes after T1 (7/12)")
	m := newDoc().section(delta.DiscriminativeTests).item("T1", "a").item("T2", "b")
	m.p.Art = artifact.New("x")
	for i, sc := range []string{`{"likelihood_ratio": 1, "cost": 1, "speed": 1, "ambiguity": 1}`, `{"likelihood_ratio": 3, "cost": 3, "speed": 3, "ambiguity": 3}`} {
		v, err := jsonv.Parse([]byte(`{"score": ` + sc + `}`))
		if err != nil {
			t.Fatal(err)
		}
		m.p.Art.Items[delta.DiscriminativeTests] = append(m.p.Art.Items[delta.DiscriminativeTests], &artifact.Item{ID: []string{"T1", "T2"}[i], Section: delta.DiscriminativeTests, Fields: v})
	}
	expect(t, "WT-003", m.p, nil)
	expect(t, "WT-002", m.p, nil, "T2 (12/12) comes after T1 (4/12)")
}

func TestAssumptionRules(t *testing.T) {
	for _, id := range []string{"EA-001", "EA-002", "EA-003", "WA-001", "WA-002", "WA-003", "IA-001"} {
		expect(t, id, newDoc().p, nil)
	}
	tableOnly := newDoc().section(delta.AssumptionLedger)
	expect(t, "EA-001", tableOnly.p, nil, "has 0 active assumptions; the minimum is 3")
	expect(t, "EA-002", tableOnly.p, nil, "No active assumption is a scale/physics check.")

	d := newDoc().section(delta.AssumptionLedger).
		item("A1", "Agents comparable").f("statement", "Statement", "Same models.").f("load", "Load", "Confounded.").f("test", "Test", "").f("status", "Status", "needs-test").
		item("A2", "Morphogen timescales").f("", "Assumption", "Gradients persist.").
		item("A3", "~~Scale check~~").
		item("A4", "Scale check: tokens vs quality").f("statement", "Statement", "Detectable.").f("implication", "Implication", "Maybe not.").f("scale_check", "Scale check", "true")
	expect(t, "EA-001", d.p, nil)
	expect(t, "EA-002", d.p, nil)
	expect(t, "EA-003", d.p, nil, "A2 uses **Assumption** instead of **Statement**.")
	expect(t, "WA-001", d.p, nil, "A2 has no **Load** field.")
	expect(t, "WA-002", d.p, nil, "A1 has an empty **Test** field.", "A2 has no **Test**", "A4 has no **Test**")
	expect(t, "WA-003", d.p, nil, "A4 has no **Calculation** field.")
	expect(t, "IA-001", d.p, nil, `A1's status "needs-test" is not unchecked, verified or falsified.`, "A2 has no **Status** field.")
	// "timescales" is not a scale check; the flag alone is.
	ts := newDoc().section(delta.AssumptionLedger).item("A1", "Morphogen timescales").item("A2", "Diffusion").f("scale_check", "Scale check", "true")
	fs := lint(t, "EA-002", ts.p, nil)
	if len(fs) != 0 {
		t.Errorf("EA-002 with a flagged scale check: %v", msgs(fs))
	}
	expect(t, "WA-003", ts.p, nil, "A2 has no **Calculation**")
}

func TestAnomalyRules(t *testing.T) {
	d := newDoc()
	d.section(delta.AssumptionLedger).section(delta.AdversarialCritique)
	expect(t, "EX-001", d.p, nil, `no "6. Anomaly Register" section`)
	if fs := lint(t, "EX-001", d.p, nil); fs[0].Pos.Line != d.p.Sections[1].Pos.Line {
		t.Errorf("EX-001 at line %d, want the next section's", fs[0].Pos.Line)
	}
	expect(t, "ES-001", d.p, nil, `"1. Research Thread"`, `"2. Hypothesis Slate"`, `"3. Predictions Table"`, `"4. Discriminative Tests"`)

	pilot := newDoc().section(delta.AnomalyRegister).empty("*No anomalies registered in this pilot session.*")
	expect(t, "EX-002", pilot.p, nil, `says "No anomalies registered in this pilot session." instead of "None registered"`)
	bare := newDoc().section(delta.AnomalyRegister)
	expect(t, "EX-002", bare.p, nil, "The anomaly register is empty and does not say")
	upstream := newDoc().section(delta.AnomalyRegister).src("## 6. Anomaly Register\n\nNone registered.\n")
	upstream.p.Sections[0].Start, upstream.p.Sections[0].End = 0, len(upstream.p.Src)
	expect(t, "EX-002", upstream.p, nil)
	allKilled := newDoc().section(delta.AnomalyRegister).item("X1", "~~Old~~")
	expect(t, "EX-002", allKilled.p, nil, "Every anomaly is killed")

	x := newDoc().section(delta.AnomalyRegister).
		item("X1", "EMS").f("observation", "Observation", "Mixed (§163).").f("conflicts_with", "Conflicts with", "H1").f("status", "Quarantine status", "active").
		item("X2", "Regulative").f("observation", "Observations~", "Compensation.").f("quarantine_status", "Quarantine status", "pending review").
		item("X3", "Bare")
	expect(t, "EX-002", x.p, nil)
	expect(t, "WX-001", x.p, nil, "X2 uses **Observations** instead of **Observation**.", "X3 has no **Observation**")
	expect(t, "WX-002", x.p, nil, "X2 has no **Conflicts with**", "X3 has no **Conflicts with**")
	expect(t, "IX-001", x.p, nil, `X2's quarantine status "pending review" is not active, resolved or deferred.`, "X3 has no **Quarantine status**")
}

func TestCritiqueRules(t *testing.T) {
	for _, id := range []string{"EC-001", "EC-002", "WC-001", "WC-002", "IC-001"} {
		expect(t, id, newDoc().p, nil)
	}
	empty := newDoc().section(delta.AdversarialCritique)
	expect(t, "EC-001", empty.p, nil, "has 0 active critiques")
	expect(t, "WC-001", empty.p, nil) // EC-001's

	d := newDoc().section(delta.AdversarialCritique).
		item("", "Critique 1: Evidence Gap on Timing").f("", "Response", "Add papers.").
		item("C2", "Citation density").f("attack", "Attack", "H3 relies on inference.").f("", "Why it might be right", "Thin evidence.").f("current_status", "Current status", "Noted.").
		item("C3", "Golden").f("attack", "Attack", "x").f("evidence", "Evidence that would confirm this~", "y").f("current_status", "Current status", "z").
		item("C4", "Other").f("attack", "Attack", "x").f("evidence", "Proof~", "y")
	expect(t, "EC-001", d.p, nil)
	expect(t, "EC-002", d.p, nil, `Item "Critique 1: Evidence Gap on Timing" has no **Attack** field.`)
	expect(t, "WC-001", d.p, nil, `No active critique is a "real third alternative".`)
	expect(t, "WC-002", d.p, nil, `Item "Critique 1: Evidence Gap on Timing" has no **Evidence**`, "C4 uses **Proof** instead of **Evidence**.")
	expect(t, "IC-001", d.p, nil, `Item "Critique 1: Evidence Gap on Timing" has no **Current status**`, "C4 has no **Current status**")
	flag := newDoc().section(delta.AdversarialCritique).item("C1", "Confounding").f("real_third_alternative", "Real third alternative", "true").item("C2", "x")
	expect(t, "WC-001", flag.p, nil)
	framing := newDoc().section(delta.AdversarialCritique).item("C1", "An alternative framing: memory").item("C2", "x")
	expect(t, "WC-001", framing.p, nil)
}
