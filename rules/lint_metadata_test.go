package rules

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

func TestMetadataRules(t *testing.T) {
	none := newDoc()
	none.sectionAs("", "Metadata", 0)
	expect(t, "EM-001", none.p, nil, "\"## Metadata\" section is prose")
	expect(t, "EM-001", newDoc().p, nil, "no YAML front matter")
	expect(t, "EM-001", fullDoc().p, nil)
	// Without front matter, only EM-001 speaks.
	for _, id := range []string{"EM-002", "EM-003", "EM-004", "WM-001", "WM-002", "IM-001", "IM-002"} {
		expect(t, id, newDoc().p, nil)
	}

	empty := newDoc().endFront().p
	expect(t, "EM-002", empty, nil, "no session_id")
	expect(t, "EM-003", empty, nil, "no created_at")
	expect(t, "EM-004", empty, nil, "no status")
	expect(t, "WM-001", empty, nil, "no contributors")
	expect(t, "WM-002", empty, nil)
	expect(t, "IM-001", empty, nil)
	expect(t, "IM-002", empty, nil, "no version")

	bad := newDoc().front("session_id", "").front("created_at", "not-a-timestamp").front("updated_at", "also-not").
		front("version", 0).front("contributors", []any{}).front("status", "invalid-status").p
	expect(t, "EM-002", bad, nil, "session_id is empty")
	expect(t, "EM-003", bad, nil, `created_at "not-a-timestamp" is not an ISO-8601`)
	expect(t, "EM-004", bad, nil, `status "invalid-status" is not one of`)
	expect(t, "WM-001", bad, nil, "contributors list is empty")
	expect(t, "WM-002", bad, nil, `updated_at "also-not" is not an ISO-8601`)
	expect(t, "IM-001", bad, nil) // blank: EM-002's
	expect(t, "IM-002", bad, nil) // 0 is an integer

	odd := newDoc().front("session_id", []any{"a"}).front("created_at", 20251230).front("status", "Active").
		front("contributors", "GreenDog").front("version", 1.5).front("updated_at", "2025-12-29").p
	odd.Front[1].Raw = "20251230"
	expect(t, "EM-002", odd, nil, "not a string")
	expect(t, "EM-003", odd, nil, `"20251230" is not an ISO-8601`)
	fs := lint(t, "EM-004", odd, nil)
	if len(fs) != 1 || fs[0].Hint != `Write the status in lower case: status: "active".` {
		t.Errorf("EM-004 on Active: %+v", fs)
	}
	expect(t, "WM-001", odd, nil, "contributors is not a list")
	expect(t, "WM-002", odd, nil) // created_at unparsable: nothing to compare
	expect(t, "IM-002", odd, nil, "version 1.5 is not an integer")

	order := newDoc().front("session_id", "CELL-FATE-001").front("created_at", "2025-12-30T19:00:00Z").
		front("updated_at", "2025-12-30T18:59:59.5Z").front("version", "2").p
	expect(t, "WM-002", order, nil, "is earlier than created_at")
	expect(t, "IM-001", order, nil, `"CELL-FATE-001" follows neither`)
	expect(t, "IM-002", order, nil, `version "2" is not an integer`)
	for _, ok := range []string{"RS-20251230-cell-fate", "brenner_bot-5so.10.2.2"} {
		expect(t, "IM-001", newDoc().front("session_id", ok).p, nil)
	}
	// artifact_publish_spec's persisted form: compiled_at, no created_at, no status.
	publish := newDoc().front("session_id", "RS-20251230-cell-fate").front("version", 3).front("compiled_at", "2025-12-30T14:00:00Z").
		front("compiled_by", "operator").front("contributors", []any{"opus", "gpt"}).front("agent_mail_message_id", 12345).p
	for _, id := range []string{"EM-002", "EM-003", "EM-004", "WM-001", "WM-002", "IM-001", "IM-002"} {
		expect(t, id, publish, nil)
	}
	publish.Front[2].Value = "yesterday"
	expect(t, "EM-003", publish, nil, `compiled_at "yesterday" is not an ISO-8601 timestamp`)
	withStatus := newDoc().front("compiled_at", "2025-12-30T14:00:00Z").front("status", "done").p
	expect(t, "EM-004", withStatus, nil, `status "done" is not one of`)
	// A front field position is reported at its line.
	if fs := lint(t, "EM-004", bad, nil); fs[0].Pos.Line != 7 {
		t.Errorf("EM-004 at line %d, want 7", fs[0].Pos.Line)
	}
}

func TestStructureRules(t *testing.T) {
	d := newDoc()
	d.section(delta.ResearchThread).section(delta.PredictionsTable).section(delta.HypothesisSlate)
	d.sectionAs(delta.DiscriminativeTests, "5. Discriminative Tests", 5)
	d.section(delta.HypothesisSlate)
	expect(t, "ES-001", d.p, nil, `no "5. Assumption Ledger"`, `no "7. Adversarial Critique"`)
	expect(t, "ES-002", d.p, nil, `"Hypothesis Slate" (section 2) comes after "Predictions Table"`,
		`"Discriminative Tests" is numbered 5`, `"Hypothesis Slate" appears a second time`)
	// The missing section is reported where it belongs: before the next one.
	d2 := newDoc()
	d2.section(delta.ResearchThread).section(delta.HypothesisSlate).section(delta.DiscriminativeTests)
	fs := lint(t, "ES-001", d2.p, nil)
	if len(fs) != 3 || fs[0].Pos.Line != d2.p.Sections[2].Pos.Line {
		t.Errorf("ES-001: %v", msgs(fs))
	}

	ids := newDoc()
	ids.section(delta.HypothesisSlate).item("H1", "A").item("T1", "misplaced").item("", "H-002: odd").item("H1", "again").item("H4", "gap")
	ids.section(delta.AdversarialCritique).item("", "Critique 1: Evidence gap").item("C2", "ok")
	ids.section(delta.PredictionsTable).table("ID", "Condition", "H1").row("P1", "x", "y").row("P1.H1", "x", "y").row("Pred-3", "x", "y").row("~~P1~~", "x", "y")
	ids.section(delta.DiscriminativeTests).item("T-1", "dash")
	expect(t, "ES-003", ids.p, nil, "Item T1 is in the Hypothesis Slate, but its prefix belongs to the Discriminative Tests",
		`Item id "H-002" in the Hypothesis Slate does not follow the naming convention H<n>`,
		`Item "Critique 1: Evidence gap" in the Adversarial Critique has no item id (expected C<n>)`,
		`Item id "Pred-3" in the Predictions Table`, `Item id "T-1" in the Discriminative Tests`)
	expect(t, "ES-004", ids.p, nil, "Item id H1 is used twice (first at line 3)", "Item id P1 is used twice")
	expect(t, "WS-001", ids.p, nil, "Hypothesis Slate ids are not sequential: H2, H3 are missing", "Adversarial Critique ids are not sequential: C1 is missing")
	big := newDoc()
	big.section(delta.DiscriminativeTests).item("T1", "a").item("T999999", "b")
	expect(t, "WS-001", big.p, nil, "T2, T3, T4, T5, T6, … are missing")
}

func TestResearchThreadRules(t *testing.T) {
	// Section missing: ES-001's.
	for _, id := range []string{"ER-001", "ER-002", "WR-001", "IR-001"} {
		expect(t, id, newDoc().p, nil)
	}
	// Section without any field (e.g. "*No research thread has been set.*").
	d := newDoc().section(delta.ResearchThread)
	expect(t, "ER-001", d.p, nil, "The research thread has no **RT** field.")
	expect(t, "ER-002", d.p, nil, "no **Context** field")
	expect(t, "WR-001", d.p, nil, "no **Anchors** field")
	expect(t, "IR-001", d.p, nil, "no **Why it matters** field")
	// The pilot's "**Question**:" alias, an empty context.
	q := newDoc().section(delta.ResearchThread).rt().f("statement", "Question~", "Lineage or gradient?").f("context", "Context", " ").f("anchors", "Anchors", "EV-001")
	expect(t, "ER-001", q.p, nil, "The research thread uses **Question** instead of **RT**.")
	expect(t, "ER-002", q.p, nil, "The research thread has an empty **Context** field.")
	expect(t, "WR-001", q.p, nil)
	// An alias the parser did not map.
	q2 := newDoc().section(delta.ResearchThread).rt().f("", "Research question", "Lineage?")
	expect(t, "ER-001", q2.p, nil, "uses **Research question** instead of **RT**")
	if fs := lint(t, "ER-001", q.p, nil); fs[0].Pos.Line != 3 {
		t.Errorf("ER-001 alias at line %d, want 3 (the field)", fs[0].Pos.Line)
	}
}
