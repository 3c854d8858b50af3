package artifact

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

var t0 = time.Date(2026, 1, 2, 20, 0, 0, 0, time.UTC)

func obj(t testing.TB, s string) *jsonv.Value {
	t.Helper()
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// seq applies deltas with increasing instants and message indexes.
type seq struct {
	t  testing.TB
	a  *Artifact
	n  int
	ev []Event
}

func newSeq(t testing.TB) *seq { return &seq{t: t, a: New("S")} }

func (s *seq) do(agent, op, section, target, payload string) (bool, []Event) {
	s.t.Helper()
	d := &delta.Delta{Op: op, Section: section, Target: target, Payload: obj(s.t, payload)}
	s.n++
	ok, ev := s.a.Apply(Applied{Delta: d, Agent: agent, At: t0.Add(time.Duration(s.n) * time.Second), Msg: s.n, Block: 0})
	s.ev = append(s.ev, ev...)
	return ok, ev
}

func (s *seq) add(section, payload string) string {
	s.t.Helper()
	ok, ev := s.do("A", delta.OpAdd, section, "", payload)
	if !ok {
		s.t.Fatalf("ADD %s rejected: %+v", section, ev)
	}
	items := s.a.Section(section)
	return items[len(items)-1].ID
}

func rules(ev []Event) string {
	var r []string
	for _, e := range ev {
		r = append(r, e.Rule)
	}
	return strings.Join(r, ",")
}

func hyp(name string) string {
	return `{"name":"` + name + `","claim":"c","mechanism":"m","anchors":["§1"]}`
}

func TestIDs(t *testing.T) {
	s := newSeq(t)
	for i, want := range []string{"H1", "H2", "H3"} {
		if got := s.add(delta.HypothesisSlate, hyp("h")); got != want {
			t.Fatalf("ADD %d: got %s, want %s", i, got, want)
		}
	}
	s.do("B", delta.OpKill, delta.HypothesisSlate, "H3", `{"reason":"r"}`)
	if got := s.add(delta.HypothesisSlate, `{"id":"H3","name":"x"}`); got != "H4" {
		t.Fatalf("ADD after KILL H3: got %s, want H4 (killed ids are not reused)", got)
	}
	if got := s.add(delta.PredictionsTable, `{"id":"P1.H1","condition":"c","predictions":{}}`); got != "P1" {
		t.Fatalf("prediction id %s, want flat P1", got)
	}
	if got := s.add(delta.AnomalyRegister, `{}`); got != "X1" {
		t.Fatalf("anomaly id %s", got)
	}
	it := s.a.Find(delta.HypothesisSlate, "H4")
	if it.Fields.Has("id") {
		t.Error("payload id was stored")
	}
}

func TestDroppedKeys(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, `{"name":"n","killed":true,"killed_by":"M","killed_at":"x","kill_reason":"r","__proto__":{},"constructor":1,"prototype":2,"replace":true,"anchors_replace":false,"keep_me":1}`)
	it := s.a.Find(delta.HypothesisSlate, "H1")
	if it.Killed {
		t.Fatal("payload killed=true killed the item")
	}
	if got := strings.Join(it.Fields.Keys(), ","); got != "name,keep_me" {
		t.Fatalf("stored keys %q", got)
	}
}

func TestEventRules(t *testing.T) {
	type tc struct {
		name     string
		run      func(s *seq) []Event
		rules    string
		sev      diag.Severity
		code     string
		applied  bool
		contains string
	}
	three := func(s *seq) {
		s.add(delta.HypothesisSlate, hyp("a"))
		s.add(delta.HypothesisSlate, hyp("b"))
		s.add(delta.HypothesisSlate, `{"name":"c","third_alternative":true}`)
	}
	cases := []tc{
		{"edit missing", func(s *seq) []Event {
			three(s)
			_, ev := s.do("B", delta.OpEdit, delta.HypothesisSlate, "H9", `{"claim":"x"}`)
			return ev
		}, "MG-001", diag.Error, "INVALID_TARGET", false, "H9 does not exist in hypothesis_slate"},
		{"edit other section", func(s *seq) []Event {
			s.add(delta.DiscriminativeTests, `{"name":"t"}`)
			_, ev := s.do("B", delta.OpEdit, delta.HypothesisSlate, "T1", `{"claim":"x"}`)
			return ev
		}, "MG-001", diag.Error, "INVALID_TARGET", false, "T1 is a discriminative_tests id"},
		{"kill missing", func(s *seq) []Event {
			_, ev := s.do("B", delta.OpKill, delta.AdversarialCritique, "C1", `{"reason":"r"}`)
			return ev
		}, "MG-001", diag.Error, "INVALID_TARGET", false, "C1 does not exist"},
		{"kill rt", func(s *seq) []Event {
			s.do("B", delta.OpEdit, delta.ResearchThread, "RT", `{"statement":"s"}`)
			_, ev := s.do("B", delta.OpKill, delta.ResearchThread, "RT", `{"reason":"r"}`)
			return ev
		}, "MG-001", diag.Error, "INVALID_TARGET", false, "cannot be killed"},
		{"edit killed", func(s *seq) []Event {
			three(s)
			s.do("B", delta.OpKill, delta.HypothesisSlate, "H1", `{"reason":"r"}`)
			_, ev := s.do("C", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"x"}`)
			return ev
		}, "MG-002", diag.Warning, "TARGET_KILLED", false, "EDIT of H1 was skipped"},
		{"seventh hypothesis", func(s *seq) []Event {
			for i := 0; i < 6; i++ {
				s.add(delta.HypothesisSlate, hyp("h"))
			}
			_, ev := s.do("B", delta.OpAdd, delta.HypothesisSlate, "", hyp("seventh"))
			return ev
		}, "MG-003", diag.Error, "SECTION_LIMIT_EXCEEDED", false, "already has 6 active hypotheses"},
		{"kill third alternative", func(s *seq) []Event {
			three(s)
			_, ev := s.do("B", delta.OpKill, delta.HypothesisSlate, "H3", `{"reason":"r"}`)
			return ev
		}, "MG-004", diag.Warning, "NO_THIRD_ALTERNATIVE", true, "removed the last active third alternative"},
		{"kill scale check", func(s *seq) []Event {
			s.add(delta.AssumptionLedger, `{"name":"a","scale_check":true}`)
			_, ev := s.do("B", delta.OpKill, delta.AssumptionLedger, "A1", `{"reason":"r"}`)
			return ev
		}, "MG-005", diag.Warning, "NO_SCALE_CHECK", true, "scale/physics check"},
		{"conflict", func(s *seq) []Event {
			three(s)
			s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"one"}`)
			_, ev := s.do("C", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"two"}`)
			return ev
		}, "MG-008", diag.Warning, "CONFLICT", true, `B set "one"`},
		{"prediction for no hypothesis", func(s *seq) []Event {
			three(s)
			_, ev := s.do("B", delta.OpAdd, delta.PredictionsTable, "", `{"condition":"c","predictions":{"H1":"a","H9":"b"}}`)
			return ev
		}, "DL-006", diag.Warning, "INVALID_FIELD_VALUE", true, "H9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSeq(t)
			ev := c.run(s)
			if got := rules(ev); got != c.rules {
				t.Fatalf("rules %q, want %q (%+v)", got, c.rules, ev)
			}
			e := ev[0]
			if e.Severity != c.sev || e.Applied != c.applied {
				t.Errorf("got severity %s applied %t", e.Severity, e.Applied)
			}
			if !strings.Contains(e.Message, c.contains) {
				t.Errorf("message %q does not contain %q", e.Message, c.contains)
			}
			if e.Hint == "" || e.Anchor == "" || e.Msg != s.n {
				t.Errorf("incomplete event %+v", e)
			}
		})
	}
}

func TestNoEventCases(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, hyp("a"))
	s.add(delta.HypothesisSlate, `{"name":"Third alternative: x"}`)
	// Same value twice: no conflict.
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"same"}`)
	s.do("C", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"same"}`)
	// Union fields never conflict.
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"anchors":["§2"]}`)
	s.do("C", delta.OpEdit, delta.HypothesisSlate, "H1", `{"anchors":["§3"]}`)
	// Next round: a revision, not a conflict.
	s.a.EndRound()
	s.do("C", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"revised"}`)
	// Killing a non-third-alternative while a name-only one remains.
	s.do("C", delta.OpKill, delta.HypothesisSlate, "H1", `{"reason":"r"}`)
	if len(s.ev) != 0 {
		t.Fatalf("unexpected events: %+v", s.ev)
	}
	if got := s.a.Find(delta.HypothesisSlate, "H1").Get("anchors").Text(); got != `["§1","§2","§3"]` {
		t.Errorf("anchors %s", got)
	}
}

func TestKillIdempotent(t *testing.T) {
	s := newSeq(t)
	s.add(delta.AdversarialCritique, `{"name":"c"}`)
	s.do("B", delta.OpKill, delta.AdversarialCritique, "C1", `{"reason":"first"}`)
	ok, ev := s.do("C", delta.OpKill, delta.AdversarialCritique, "C1", `{"reason":"second"}`)
	if !ok || len(ev) != 0 {
		t.Fatalf("second KILL: applied %t, events %+v", ok, ev)
	}
	it := s.a.Find(delta.AdversarialCritique, "C1")
	if it.KillReason != "first" || it.KilledBy != "B" || !it.KilledAt.Equal(t0.Add(2*time.Second)) {
		t.Errorf("kill state %q %q %s", it.KillReason, it.KilledBy, it.KilledAt)
	}
	c := s.a.Contributors[2]
	if c.Agent != "C" || c.Deltas != 1 || len(c.Items) != 0 {
		t.Errorf("second killer: %+v", c)
	}
	if a, k := s.a.Count(delta.AdversarialCritique); [2]int{a, k} != [2]int{0, 1} {
		t.Errorf("counts %d active, %d killed", a, k)
	}
}

func TestEditMerge(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, `{"name":"n","anchors":["§1","§2"],"references":[{"session":"S1","item":"H1","relation":"refines"}]}`)
	s.add(delta.DiscriminativeTests, `{"name":"t","score":{"likelihood_ratio":3,"cost":3}}`)
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"anchors":["§2","§3"],"references":[{"session":"S1","item":"H1","relation":"refines","note":"x"},{"session":"S1","item":"H1","relation":"extends"}]}`)
	h := s.a.Find(delta.HypothesisSlate, "H1")
	if got := h.Get("anchors").Text(); got != `["§1","§2","§3"]` {
		t.Errorf("union: %s", got)
	}
	if n := len(h.Get("references").Arr()); n != 2 {
		t.Errorf("references: %d entries, want 2", n)
	}
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"anchors":["§9"],"anchors_replace":true}`)
	if got := h.Get("anchors").Text(); got != `["§9"]` || h.Fields.Has("anchors_replace") {
		t.Errorf("anchors_replace: %s %v", got, h.Fields.Keys())
	}
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"anchors":["§8"],"references":[],"replace":true}`)
	if got := h.Get("anchors").Text() + h.Get("references").Text(); got != `["§8"][]` || h.Fields.Has("replace") {
		t.Errorf("replace: %s", got)
	}
	s.do("B", delta.OpEdit, delta.DiscriminativeTests, "T1", `{"score":{"cost":1}}`)
	if got := s.a.Find(delta.DiscriminativeTests, "T1").Get("score").Text(); got != `{"likelihood_ratio":3,"cost":1}` {
		t.Errorf("score is merged key by key: %s", got)
	}
	s.do("B", delta.OpEdit, delta.DiscriminativeTests, "T1", `{"score":{"speed":2},"score_replace":true}`)
	if got := s.a.Find(delta.DiscriminativeTests, "T1").Get("score").Text(); got != `{"speed":2}` {
		t.Errorf("score_replace: %s", got)
	}
}

func TestRTCreation(t *testing.T) {
	s := newSeq(t)
	ok, ev := s.do("W", delta.OpEdit, delta.ResearchThread, "", `{"id":"RT9","context":"c","anchors":"§1"}`)
	if !ok || len(ev) != 0 || s.a.RT == nil || s.a.RT.ID != "RT" {
		t.Fatalf("RT not created: %t %+v", ok, ev)
	}
	s.do("W", delta.OpEdit, delta.ResearchThread, "RT", `{"anchors":["§2"]}`)
	if got := s.a.RT.Get("anchors").Text(); got != `["§1","§2"]` {
		t.Errorf("RT anchors %s", got)
	}
	if s.a.RT.Fields.Has("id") {
		t.Error("RT stored payload id")
	}
	if a, k := s.a.Count(delta.ResearchThread); [2]int{a, k} != [2]int{1, 0} {
		t.Errorf("counts %d active, %d killed", a, k)
	}
}

func TestPredictionNA(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, hyp("a"))
	s.add(delta.HypothesisSlate, hyp("b"))
	p := s.add(delta.PredictionsTable, `{"condition":"c","predictions":{"H1":"x","h2":"y"}}`)
	s.do("B", delta.OpKill, delta.HypothesisSlate, "H2", `{"reason":"r"}`)
	pi := s.a.Find(delta.PredictionsTable, p)
	v, na := s.a.Cell(pi, "H2")
	if !na || v.Str != "y" {
		t.Fatalf("H2 cell: %v na=%t (want the original value kept and N/A)", v, na)
	}
	if _, na := s.a.Cell(pi, "H1"); na {
		t.Fatal("H1 cell is N/A")
	}
	md := string(s.a.Render())
	if !strings.Contains(md, "| P1 | c | x | N/A |") {
		t.Errorf("table row:\n%s", md)
	}
}

func TestCheck(t *testing.T) {
	a := New("S")
	ev := a.Check()
	if len(ev) != 6 {
		t.Fatalf("empty artifact: %d MG-006 events, want 6 (no anomaly minimum)", len(ev))
	}
	for _, e := range ev {
		if e.Rule != "MG-006" || e.Severity != diag.Warning || e.Msg != -1 {
			t.Errorf("bad event %+v", e)
		}
	}
	s := newSeq(t)
	s.do("W", delta.OpEdit, delta.ResearchThread, "RT", `{"statement":"s"}`)
	for i := 0; i < 3; i++ {
		s.add(delta.HypothesisSlate, hyp("h"))
		s.add(delta.PredictionsTable, `{"condition":"c"}`)
		s.add(delta.AssumptionLedger, `{"name":"a"}`)
	}
	s.add(delta.DiscriminativeTests, `{}`)
	s.add(delta.DiscriminativeTests, `{}`)
	s.add(delta.AdversarialCritique, `{}`)
	s.add(delta.AdversarialCritique, `{}`)
	if got := rules(s.a.Check()); got != "MG-006,MG-006,MG-009" {
		t.Fatalf("no third alternative, no scale check, no alternative framing: %q", got)
	}
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H3", `{"third_alternative":true}`)
	s.do("B", delta.OpEdit, delta.AssumptionLedger, "A3", `{"name":"Scale check"}`)
	s.do("B", delta.OpEdit, delta.AdversarialCritique, "C2", `{"real_third_alternative":true}`)
	if ev := s.a.Check(); len(ev) != 0 {
		t.Fatalf("complete artifact: %+v", ev)
	}
}

func TestContributors(t *testing.T) {
	s := newSeq(t)
	s.do("B", delta.OpAdd, delta.HypothesisSlate, "", hyp("a"))
	s.do("A", delta.OpAdd, delta.HypothesisSlate, "", hyp("b"))
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H2", `{"claim":"x"}`)
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"y"}`)
	s.do("C", delta.OpEdit, delta.HypothesisSlate, "H9", `{"claim":"y"}`) // rejected: no contributor
	if len(s.a.Contributors) != 2 {
		t.Fatalf("contributors %d", len(s.a.Contributors))
	}
	b := s.a.Contributors[0]
	if b.Agent != "B" || b.Deltas != 3 || strings.Join(b.Items, ",") != "H1,H2" ||
		!b.FirstAt.Equal(t0.Add(time.Second)) || !b.LastAt.Equal(t0.Add(4*time.Second)) {
		t.Errorf("B: %+v", b)
	}
	if !s.a.UpdatedAt.Equal(t0.Add(4 * time.Second)) {
		t.Errorf("updated_at %s", s.a.UpdatedAt)
	}
}

func TestCloneIndependent(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, hyp("a"))
	snap := s.a.Clone()
	before := snap.Render()
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"changed","anchors":["§5"]}`)
	s.do("B", delta.OpKill, delta.HypothesisSlate, "H1", `{"reason":"r"}`)
	s.add(delta.HypothesisSlate, hyp("b"))
	if !bytes.Equal(before, snap.Render()) {
		t.Fatal("changing the artifact changed its clone")
	}
	if !bytes.Equal(s.a.Render(), s.a.Clone().Render()) {
		t.Fatal("clone renders differently")
	}
}

func TestRenderDeterministic(t *testing.T) {
	s := newSeq(t)
	s.do("W", delta.OpEdit, delta.ResearchThread, "RT", `{"statement":"s","context":"c","why_it_matters":"w","anchors":["§1"]}`)
	s.add(delta.HypothesisSlate, hyp("a"))
	s.add(delta.DiscriminativeTests, `{"name":"t","expected_outcomes":{"H2":"b","H1":"a"},"score":{"cost":1}}`)
	s.add(delta.DiscriminativeTests, `{"name":"u","score":{"cost":2}}`)
	s.a.Version = 3
	s.a.CompiledAt = time.Date(2026, 1, 2, 21, 7, 15, 288467000, time.UTC)
	first := s.a.Render()
	for i := 0; i < 5; i++ {
		if !bytes.Equal(first, s.a.Render()) {
			t.Fatal("rendering twice gave different bytes")
		}
	}
	md := string(first)
	for _, want := range []string{
		"compiled_at: \"2026-01-02T21:07:15.288467Z\"",
		"### T2: u (Score: 2/12)\n**Evidence-per-week score**: LR=0, Cost=2, Speed=0, Ambiguity=0\n\n### T1: t (Score: 1/12)",
		"- H2: b\n- H1: a",
		"**RT**: s\n\n**Context**: c\n\n**Why it matters**: w\n\n**Anchors**: §1\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	if !strings.HasSuffix(md, "\n") || strings.HasSuffix(md, "\n\n") {
		t.Error("output must end with exactly one newline")
	}
}

func TestFrontMatterQuoting(t *testing.T) {
	a := New(`<a&b> "q"`)
	a.MessageID = "msg-7"
	a.Contributors = []*Contributor{{Agent: "Blue\"Lake"}}
	md := string(a.Render())
	for _, want := range []string{
		`session_id: "<a&b> \"q\""`,
		`agent_mail_message_id: "msg-7"`,
		`  - "Blue\"Lake"`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	a.MessageID = "12345"
	if !strings.Contains(string(a.Render()), "agent_mail_message_id: 12345\n") {
		t.Error("numeric message id should be unquoted")
	}
}

func TestCompiledBody(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, `{"name":"Code","claim":"uses `+"````"+` fences"}`)
	s.add(delta.HypothesisSlate, hyp("b"))
	s.a.Version = 1
	v1 := s.a.Clone()
	s.a.EndRound()
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H2", `{"claim":"new"}`)
	s.do("B", delta.OpKill, delta.HypothesisSlate, "H1", `{"reason":"r"}`)
	s.add(delta.AnomalyRegister, `{"name":"x"}`)
	s.a.Version = 2
	body := string(RenderCompiledBody(s.a, v1, CompiledInfo{LintErrors: 1, LintWarnings: 2, GitCommit: "abc1234", Status: "Pending"}))
	for _, want := range []string{
		"# Compiled Artifact v2\n",
		"- **Previous Version**: v1\n",
		"## Changes from v1\n- **Added**: X1\n- **Modified**: H2\n- **Killed**: H1\n",
		"- Hypotheses: 1 active, 1 killed\n",
		"- Schema: FAIL\n- Linter: 2 warnings, 1 error\n- Third Alternative: MISSING\n",
		"- **Artifact Path**: `artifacts/S.md`\n- **Git Commit**: abc1234\n- **Status**: Pending\n",
		"## Full Artifact\n\n`````markdown\n---\nsession_id: \"S\"\nversion: 2\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
	if !strings.HasSuffix(body, "\n`````\n") {
		t.Error("the full artifact fence must close the body")
	}
	c := Diff(s.a, v1)
	if strings.Join(c.Added, ",") != "X1" || strings.Join(c.Modified, ",") != "H2" || strings.Join(c.Killed, ",") != "H1" {
		t.Errorf("diff %+v", c)
	}
	first := string(RenderCompiledBody(v1, nil, CompiledInfo{SchemaPass: true}))
	if !strings.Contains(first, "## Changes\n- Initial version\n- **Added**: H1, H2\n") || strings.Contains(first, "Previous Version") {
		t.Errorf("initial body:\n%s", first)
	}
	// The artifact the caller rendered already is the one embedded.
	info := CompiledInfo{LintErrors: 1, LintWarnings: 2, GitCommit: "abc1234", Status: "Pending", Rendered: s.a.Render()}
	if again := string(RenderCompiledBody(s.a, v1, info)); again != body {
		t.Errorf("with the artifact rendered by the caller:\n%s\nwant\n%s", again, body)
	}
	info.Rendered = []byte("line one\n\n```\nline four\n")
	if got := string(RenderCompiledBody(s.a, v1, info)); !strings.HasSuffix(got, "## Full Artifact\n\n````markdown\nline one\n\n```\nline four\n````\n") {
		t.Errorf("Rendered is not what the body embeds:\n%s", got)
	}
}

func TestUnknownAndNonStringFields(t *testing.T) {
	s := newSeq(t)
	s.add(delta.AssumptionLedger, `{"name":"n","load":5,"test":{"how":"x"},"extra_field":"kept","list_field":[{"a":1}],"scale_check":true}`)
	md := string(s.a.Render())
	for _, want := range []string{
		"**Load**: 5\n",
		"**Test**: {\"how\":\"x\"}\n",
		"**Scale check**: true\n",
		"**Extra field**: kept\n",
		"**List field**:\n- {\"a\":1}\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
}

func TestRoundEndsAtSnapshot(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, hyp("a"))
	s.do("B", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"one"}`)
	// A COMPILED snapshot as the orchestrator takes it: Clone, version set
	// on the snapshot only, and the round ended explicitly.
	snap := s.a.Clone()
	snap.Version = 1
	s.a.EndRound()
	_, ev := s.do("C", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"two"}`)
	if len(ev) != 0 {
		t.Fatalf("EDIT after a snapshot is a revision, got %+v", ev)
	}
	_, ev = s.do("D", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"three"}`)
	if rules(ev) != "MG-008" || !strings.Contains(ev[0].Message, `C set "two"`) || ev[0].Field != "claim" {
		t.Fatalf("same-round conflict: %+v", ev)
	}
	// Cloning alone does not end a round.
	s.a.Clone()
	_, ev = s.do("E", delta.OpEdit, delta.HypothesisSlate, "H1", `{"claim":"four"}`)
	if rules(ev) != "MG-008" {
		t.Fatalf("a Clone ended the round: %+v", ev)
	}
	// Concurrent snapshots are safe (run with -race).
	done := make(chan *Artifact, 4)
	for i := 0; i < 4; i++ {
		go func() { done <- s.a.Clone() }()
	}
	for i := 0; i < 4; i++ {
		if c := <-done; !bytes.Equal(c.Render(), s.a.Render()) {
			t.Fatal("concurrent clone differs")
		}
	}
}
