package artifact

import (
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/diag"
)

// TestKillWithoutPayload: artifact_delta_spec_v0.1.md, Field Definitions:
// "payload | ADD/EDIT: Yes, KILL: Optional". The KILL applies and the
// rendered item says "no reason given".
func TestKillWithoutPayload(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, hyp("Lineage"))
	ok, ev := s.a.Apply(Applied{Delta: &delta.Delta{Op: delta.OpKill, Section: delta.HypothesisSlate, Target: "H1"}, Agent: "B", At: t0, Msg: 9})
	if !ok {
		t.Fatalf("KILL without payload not applied: %+v", ev)
	}
	h := s.a.Find(delta.HypothesisSlate, "H1")
	if !h.Killed || h.KilledBy != "B" || h.KillReason != "" {
		t.Fatalf("H1 kill state %+v", h)
	}
	out := string(s.a.Render())
	if !strings.Contains(out, "### ~~H1: Lineage~~ [KILLED]") || !strings.Contains(out, "**Reason**: no reason given") {
		t.Errorf("rendering:\n%s", out)
	}
}

// TestEditMergesObjectFields: artifact_delta_spec_v0.1.md, EDIT: "Only
// fields in payload are updated; other fields remain unchanged". An EDIT of
// one prediction cell, expected outcome or score part keeps the others;
// "<field>_replace": true (or "replace": true) replaces the object.
func TestEditMergesObjectFields(t *testing.T) {
	s := newSeq(t)
	for _, n := range []string{"a", "b", "c"} {
		s.add(delta.HypothesisSlate, hyp(n))
	}
	s.add(delta.PredictionsTable, `{"condition":"c","predictions":{"H1":"up","H2":"down","H3":"flat"}}`)
	s.add(delta.DiscriminativeTests, `{"name":"t","expected_outcomes":{"H1":"x","H2":"y"},"score":{"likelihood_ratio":3,"cost":2,"speed":2,"ambiguity":1}}`)
	s.do("B", delta.OpEdit, delta.PredictionsTable, "P1", `{"predictions":{"H2":"unchanged"}}`)
	s.do("B", delta.OpEdit, delta.DiscriminativeTests, "T1", `{"expected_outcomes":{"H3":"z"},"score":{"cost":1}}`)
	p1 := s.a.Find(delta.PredictionsTable, "P1")
	t1 := s.a.Find(delta.DiscriminativeTests, "T1")
	for _, c := range []struct{ got, want string }{
		{p1.Get("predictions").Text(), `{"H1":"up","H2":"unchanged","H3":"flat"}`},
		{t1.Get("expected_outcomes").Text(), `{"H1":"x","H2":"y","H3":"z"}`},
		{t1.Get("score").Text(), `{"likelihood_ratio":3,"cost":1,"speed":2,"ambiguity":1}`},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	if rules(s.ev) != "" {
		t.Errorf("events %s", rules(s.ev))
	}
	s.do("B", delta.OpEdit, delta.PredictionsTable, "P1", `{"predictions":{"H1":"down"},"predictions_replace":true}`)
	s.do("B", delta.OpEdit, delta.DiscriminativeTests, "T1", `{"score":{"cost":3},"replace":true}`)
	if got := p1.Get("predictions").Text() + t1.Get("score").Text(); got != `{"H1":"down"}{"cost":3}` {
		t.Errorf("replace: %s", got)
	}
	if p1.Fields.Has("predictions_replace") || t1.Fields.Has("replace") {
		t.Errorf("replace flags stored: %v %v", p1.Fields.Keys(), t1.Fields.Keys())
	}
	// A non-object value replaces; an object over a non-object replaces too.
	s.do("B", delta.OpEdit, delta.PredictionsTable, "P1", `{"predictions":"see T1"}`)
	s.do("B", delta.OpEdit, delta.PredictionsTable, "P1", `{"predictions":{"H3":"up"}}`)
	if got := p1.Get("predictions").Text(); got != `{"H3":"up"}` {
		t.Errorf("object over a string: %s", got)
	}
}

// TestSeedRT: the KICKOFF's research question seeds the RT; an EDIT changes
// it as usual, a second seed or an empty question changes nothing, and the
// seed credits no contributor.
func TestSeedRT(t *testing.T) {
	s := newSeq(t)
	s.a.SeedRT("", "c", "K", t0)
	if s.a.RT != nil {
		t.Fatal("an empty question seeded the RT")
	}
	s.a.SeedRT("Lineage or gradient?", "Invariant lineage.", "K", t0)
	s.a.SeedRT("Other?", "", "K", t0)
	if got := s.a.RT.Fields.Text(); got != `{"statement":"Lineage or gradient?","context":"Invariant lineage."}` {
		t.Fatalf("seeded RT %s", got)
	}
	if len(s.a.Contributors) != 0 {
		t.Errorf("the seed credited %d contributors", len(s.a.Contributors))
	}
	s.do("B", delta.OpEdit, delta.ResearchThread, "RT", `{"statement":"Sharper?","anchors":["§1"]}`)
	if got := s.a.RT.Fields.Text(); got != `{"statement":"Sharper?","context":"Invariant lineage.","anchors":["§1"]}` {
		t.Errorf("after EDIT %s", got)
	}
	if rules(s.ev) != "" {
		t.Errorf("events %s", rules(s.ev))
	}
}

// TestCheckAlternativeFraming: artifact_delta_spec_v0.1.md, Adversarial
// Critique: "Real third alternative: At least one must offer a specific
// alternative framing". MG-009 when critiques exist and none does (flag or
// name, as WC-001); none without critiques (MG-006 reports those).
func TestCheckAlternativeFraming(t *testing.T) {
	has := func(a *Artifact) bool { return strings.Contains(rules(a.Check()), RuleNoAltFraming) }
	s := newSeq(t)
	if has(s.a) {
		t.Error("MG-009 without critiques")
	}
	s.add(delta.AdversarialCritique, `{"name":"Batch effects","attack":"a"}`)
	if !has(s.a) {
		t.Error("no MG-009 with one plain critique")
	}
	s.add(delta.AdversarialCritique, `{"name":"An alternative framing: timing","attack":"a"}`)
	if has(s.a) {
		t.Error("MG-009 although C2's name offers an alternative framing")
	}
	s.do("B", delta.OpKill, delta.AdversarialCritique, "C2", `{"reason":"r"}`)
	ev := s.a.Check()
	if got := rules(ev); got == "" || !strings.Contains(ev[len(ev)-1].Message, "C2, which did, was killed by B") {
		t.Errorf("after the KILL of C2: %+v", ev)
	}
	s.add(delta.AdversarialCritique, `{"name":"Clock","attack":"a","real_third_alternative":true}`)
	if has(s.a) {
		t.Error("MG-009 although C3 has real_third_alternative")
	}
}

// tie applies an EDIT of H1's claim from agent at instant t0+1h as message msg.
func tie(t *testing.T, a *Artifact, agent string, prio, msg int, claim string) []Event {
	t.Helper()
	d := &delta.Delta{Op: delta.OpEdit, Section: delta.HypothesisSlate, Target: "H1", Payload: obj(t, `{"claim":"`+claim+`"}`)}
	_, ev := a.Apply(Applied{Delta: d, Agent: agent, At: t0.Add(time.Hour), Msg: msg, Priority: prio})
	return ev
}

// TestTiedEdits: artifact_delta_spec_v0.1.md, Resolution Hierarchy: "2.
// Agent priority: If timestamps are identical, use agent priority order (if
// defined)" and "4. Explicit conflict marker: If no resolution is possible,
// mark the field as CONFLICT and require human review".
func TestTiedEdits(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, hyp("h"))

	// No priority: CONFLICT with both values, MG-010 (an error).
	a := s.a.Clone()
	tie(t, a, "A", 0, 10, "one")
	ev := tie(t, a, "B", 0, 11, "two")
	if len(ev) != 1 || ev[0].Rule != RuleUnresolved || ev[0].Severity != diag.Error || ev[0].Field != "claim" {
		t.Fatalf("events %+v", ev)
	}
	h := a.Find(delta.HypothesisSlate, "H1")
	if got := h.Str("claim"); got != `CONFLICT: "one" (A) vs "two" (B)` {
		t.Errorf("claim %q", got)
	}
	// A third tied value joins the marker; a repeated one changes nothing.
	tie(t, a, "C", 0, 12, "three")
	if ev := tie(t, a, "D", 0, 13, "one"); len(ev) != 0 {
		t.Errorf("repeated value: %+v", ev)
	}
	if got := h.Str("claim"); got != `CONFLICT: "one" (A) vs "two" (B) vs "three" (C)` {
		t.Errorf("claim %q", got)
	}
	if !strings.Contains(string(a.Render()), `**Claim**: CONFLICT: "one" (A) vs "two" (B) vs "three" (C)`) {
		t.Errorf("rendering:\n%s", a.Render())
	}
	// A later EDIT resolves it.
	d := &delta.Delta{Op: delta.OpEdit, Section: delta.HypothesisSlate, Target: "H1", Payload: obj(t, `{"claim":"agreed"}`)}
	a.Apply(Applied{Delta: d, Agent: "A", At: t0.Add(2 * time.Hour), Msg: 14})
	if got := h.Str("claim"); got != "agreed" {
		t.Errorf("after a later EDIT: %q", got)
	}

	// Priority decides: the higher one (applied last) wins, MG-008 warning.
	a = s.a.Clone()
	tie(t, a, "A", 1, 10, "one")
	ev = tie(t, a, "B", 2, 11, "two")
	if len(ev) != 1 || ev[0].Rule != RuleConflict || ev[0].Severity != diag.Warning || !strings.Contains(ev[0].Message, "higher agent priority") {
		t.Fatalf("events %+v", ev)
	}
	if got := a.Find(delta.HypothesisSlate, "H1").Str("claim"); got != "two" {
		t.Errorf("claim %q", got)
	}

	// Two blocks of one message are ordered: the later block wins (MG-008).
	a = s.a.Clone()
	tie(t, a, "A", 0, 10, "one")
	ev = tie(t, a, "A", 0, 10, "two")
	if len(ev) != 1 || ev[0].Rule != RuleConflict {
		t.Fatalf("events %+v", ev)
	}
	// Equal values at the same instant are no conflict.
	a = s.a.Clone()
	tie(t, a, "A", 0, 10, "one")
	if ev := tie(t, a, "B", 0, 11, "one"); len(ev) != 0 {
		t.Errorf("equal values: %+v", ev)
	}
}

// TestConflictFieldsApart: conflicts are between writes of one field. A
// field whose name holds a NUL byte is not an object field's sub-key, and
// the active counts the slate limit, the minimums and the render read agree
// with Active.
func TestConflictFieldsApart(t *testing.T) {
	s := newSeq(t)
	for _, n := range []string{"a", "b", "c"} {
		s.add(delta.HypothesisSlate, hyp(n))
	}
	s.add(delta.PredictionsTable, `{"condition":"c","predictions":{"H1":"up","H2":"down"}}`)
	edit := func(agent string, msg int, payload string) []Event {
		d := &delta.Delta{Op: delta.OpEdit, Section: delta.PredictionsTable, Target: "P1", Payload: obj(t, payload)}
		_, ev := s.a.Apply(Applied{Delta: d, Agent: agent, At: t0.Add(time.Hour), Msg: msg})
		return ev
	}
	if ev := edit("A", 20, `{"predictions":{"H1":"flat"}}`); len(ev) != 0 {
		t.Fatalf("first write: %+v", ev)
	}
	if ev := edit("B", 21, `{"predictions\u0000H1":"other"}`); len(ev) != 0 {
		t.Errorf("a write of another field conflicts with predictions.H1: %+v", ev)
	}
	if ev := edit("B", 22, `{"predictions":{"H1":"down"}}`); len(ev) != 1 || ev[0].Rule != RuleUnresolved {
		t.Errorf("a tied write of predictions.H1 itself: %+v", ev)
	}
	s.do("B", delta.OpKill, delta.HypothesisSlate, "H2", `{"reason":"r"}`)
	for _, sec := range delta.Sections {
		if got, want := s.a.activeCount(sec), len(s.a.Active(sec)); got != want {
			t.Errorf("%s: activeCount %d, Active %d", sec, got, want)
		}
	}
	if s.a.activeCount(delta.HypothesisSlate) != 2 {
		t.Errorf("active hypotheses %d, want 2", s.a.activeCount(delta.HypothesisSlate))
	}
}
