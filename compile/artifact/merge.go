package artifact

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// Applied is one validated delta with where and when it came from. The caller
// orders deltas (by instant, then message order, then block order) and calls
// Apply in that order.
type Applied struct {
	Delta *delta.Delta
	Agent string    // the sending agent
	At    time.Time // the message instant
	Msg   int       // message index in the thread
	MsgID string    // message id, when known
	Block int       // block index in the message
	// Priority is the agent's priority (config agents: order; higher wins),
	// 0 when none is defined. It decides EDITs of one field at the same
	// instant from different messages; without it they are a CONFLICT.
	Priority int
}

// Event is a merge problem. Msg, Block and MsgID locate the delta (-1 for
// events of Check, which concern the whole artifact).
type Event struct {
	Rule     string // rule id, e.g. "MG-001"
	Severity diag.Severity
	Message  string // first sentence says what is wrong
	Hint     string // the spec's remediation
	Msg      int
	MsgID    string
	Block    int
	Field    string // top-level payload key the event is about (e.g. "claim", "predictions"); optional
	Anchor   string // stable text, e.g. "EDIT H9 hypothesis_slate"
	Applied  bool   // whether the delta was applied despite the event
}

// Rule ids and codes.
const (
	RuleInvalidTarget  = ruleid.MG001
	RuleTargetKilled   = ruleid.MG002
	RuleSectionLimit   = ruleid.MG003
	RuleNoThirdAlt     = ruleid.MG004
	RuleNoScaleCheck   = ruleid.MG005
	RuleBelowMinimum   = ruleid.MG006
	RuleConflict       = ruleid.MG008
	RuleNoAltFraming   = ruleid.MG009
	RuleUnresolved     = ruleid.MG010
	RuleInvalidFieldDL = ruleid.DL006
)

// MaxHypotheses is the hypothesis slate's limit of active items.
const MaxHypotheses = 6

// arrayFields are merged by union on EDIT unless replaced.
var arrayFields = map[string]bool{"anchors": true, "conflicts_with": true, "references": true}

// objectFields are merged key by key on EDIT unless replaced: "Only fields
// in payload are updated; other fields remain unchanged"
// (artifact_delta_spec_v0.1.md), so an EDIT of one prediction cell or one
// score part keeps the others.
var objectFields = map[string]bool{"predictions": true, "expected_outcomes": true, "score": true}

// systemKey reports whether a payload key belongs to the merge (id and kill
// state) and is dropped silently.
func systemKey(k string) bool {
	return k == "id" || k == "kill_reason" || strings.HasPrefix(k, "killed")
}

// flagKey reports whether k is a replace flag ("replace" or "<field>_replace"
// with a boolean value); flags steer the merge and are not stored.
func flagKey(payload *jsonv.Value, k string) bool {
	if k != "replace" && !strings.HasSuffix(k, "_replace") {
		return false
	}
	v := payload.Get(k)
	return v != nil && v.Kind == jsonv.Bool
}

func flagTrue(payload *jsonv.Value, k string) bool {
	v := payload.Get(k)
	return v != nil && v.Kind == jsonv.Bool && v.Bool
}

// stored reports whether a payload key is stored on the item.
func stored(payload *jsonv.Value, k string) bool {
	return !systemKey(k) && !delta.ForbiddenKey(k) && !flagKey(payload, k)
}

type merger struct {
	a      *Artifact
	d      Applied
	events []Event
}

func (m *merger) event(rule string, sev diag.Severity, anchor, field, msg, hint string) {
	m.events = append(m.events, Event{
		Rule: rule, Severity: sev, Message: msg, Hint: hint,
		Msg: m.d.Msg, MsgID: m.d.MsgID, Block: m.d.Block, Field: field, Anchor: anchor,
	})
}

// Apply merges one delta. It reports whether the delta was applied (the
// artifact changed or, for a repeated KILL, the delta succeeded as a no-op)
// and the events it raised. A rejected delta leaves the artifact unchanged.
//
// Semantics (see docs/divergences.md §4 for the differences from upstream):
//   - ADD assigns max+1 of the section's ids (killed ids count, never reused;
//     predictions are flat P1, P2, …). Payload keys id, killed*, kill_reason,
//     __proto__/constructor/prototype and boolean replace flags are dropped.
//     A 7th active hypothesis is rejected (MG-003) and consumes no id.
//   - EDIT needs an existing item of that section (MG-001) that is not killed
//     (MG-002, skipped). anchors, conflicts_with and references are unioned
//     and predictions, expected_outcomes and score are merged key by key,
//     unless "<field>_replace": true or "replace": true; other fields are
//     assigned whole. The first research_thread EDIT creates the RT. Two EDITs
//     in the same round setting one field to different values raise MG-008;
//     the later one wins.
//   - KILL is soft and idempotent (a repeated KILL is applied as a no-op, the
//     first reason stays). research_thread cannot be killed (MG-001). After a
//     hypothesis or assumption KILL, MG-004 / MG-005 report a missing third
//     alternative / scale check.
//
// Conflicts are looked for within a round: the deltas between two EndRound
// calls (one per COMPILED message).
func (a *Artifact) Apply(d Applied) (applied bool, events []Event) {
	if d.Delta == nil {
		return false, nil
	}
	if a.Items == nil {
		a.Items = map[string][]*Item{}
	}
	if a.writes == nil {
		a.writes = map[fieldKey]fieldWrite{}
	}
	m := &merger{a: a, d: d}
	var id string
	var ok bool
	switch d.Delta.Op {
	case delta.OpAdd:
		id, ok = m.add()
	case delta.OpEdit:
		id, ok = m.edit()
	case delta.OpKill:
		id, ok = m.kill()
	default:
		m.event(RuleInvalidTarget, diag.Error, strings.TrimSpace(d.Delta.Op+" "+d.Delta.Section), "",
			fmt.Sprintf("Unknown operation %q; the delta was not applied.", d.Delta.Op),
			"Use one of ADD, EDIT, KILL (delta_output_format_v0.1.md).")
	}
	if ok {
		a.credit(d, id)
	}
	for i := range m.events {
		m.events[i].Applied = ok
	}
	return ok, m.events
}

// credit records an applied delta on its agent.
func (a *Artifact) credit(d Applied, id string) {
	if d.At.After(a.UpdatedAt) {
		a.UpdatedAt = d.At
	}
	var c *Contributor
	for _, k := range a.Contributors {
		if k.Agent == d.Agent {
			c = k
			break
		}
	}
	if c == nil {
		c = &Contributor{Agent: d.Agent, FirstAt: d.At, LastAt: d.At}
		a.Contributors = append(a.Contributors, c)
	}
	if d.At.After(c.LastAt) {
		c.LastAt = d.At
	}
	c.Deltas++
	if id == "" {
		return
	}
	if c.touched == nil && len(c.Items) < 16 {
		// Most agents touch a few items: a scan, no set.
		if slices.Contains(c.Items, id) {
			return
		}
		a.appendID(c, id)
		return
	}
	if c.touched == nil {
		c.touched = make(map[string]bool, 2*len(c.Items))
		for _, x := range c.Items {
			c.touched[x] = true
		}
	}
	if c.touched[id] {
		return
	}
	c.touched[id] = true
	a.appendID(c, id)
}

func knownSection(s string) bool {
	_, ok := delta.Prefix[s]
	return ok
}

func (m *merger) add() (string, bool) {
	d := m.d.Delta
	sec := d.Section
	if sec == delta.ResearchThread || !knownSection(sec) {
		anchor := "ADD " + sec
		what := fmt.Sprintf("Section %q is not a valid section", sec)
		hint := "Use one of hypothesis_slate, predictions_table, discriminative_tests, assumption_ledger, anomaly_register, adversarial_critique (delta_output_format_v0.1.md, Valid Section Values)."
		if sec == delta.ResearchThread {
			what = "research_thread does not accept ADD"
			hint = "Research Thread: \"EDIT only: ADDs are invalid; only EDIT is allowed\" (artifact_delta_spec_v0.1.md); send an EDIT with target_id \"RT\"."
		}
		m.event(RuleInvalidTarget, diag.Error, anchor, "", what+"; the delta was not applied.", hint)
		return "", false
	}
	if sec == delta.HypothesisSlate {
		if n := m.a.activeCount(sec); n >= MaxHypotheses {
			anchor := "ADD " + sec
			if name, _ := d.Payload.Get("name").AsString(); diag.CollapseSpace(name) != "" {
				anchor += " " + diag.CollapseSpace(name)
			}
			m.event(RuleSectionLimit, diag.Error, anchor, "",
				fmt.Sprintf("The hypothesis slate already has %d active hypotheses; this ADD would exceed the limit of %d and was rejected.", n, MaxHypotheses),
				"Hypothesis Slate: \"Maximum 6 items (including third alternative)\" (artifact_delta_spec_v0.1.md); KILL a superseded hypothesis before adding another.")
			return "", false
		}
	}
	var fields *jsonv.Value
	if p := d.Payload; p != nil && p.Kind == jsonv.Object {
		fields = jsonv.NewObjectIn(m.a.arena, len(p.Keys()))
		for _, k := range p.Keys() {
			if stored(p, k) {
				fields.Set(k, p.Get(k)) // shared with the payload: merged values are never changed in place
			}
		}
	} else {
		fields = jsonv.NewObject()
	}
	id := m.a.nextID(sec)
	it := m.a.newItem()
	*it = Item{ID: id, Section: sec, Fields: fields, AddedBy: m.d.Agent, AddedAt: m.d.At}
	m.a.appendItem(sec, it)
	if sec == delta.PredictionsTable {
		m.checkPredictions(it, d.Payload, "ADD "+id+" "+sec)
	}
	return id, true
}

// notFound explains a target that is not in its section.
func (m *merger) notFound(op, sec, target string) {
	anchor := op + " " + target + " " + sec
	msg := fmt.Sprintf("%s target %s does not exist in %s; the delta was not applied.", op, target, sec)
	var fold *Item
	for _, s := range delta.Sections {
		for _, it := range m.a.Section(s) {
			if fold == nil && strings.EqualFold(it.ID, target) {
				fold = it
			}
		}
	}
	switch {
	case fold != nil && fold.ID == target:
		msg += fmt.Sprintf(" %s is a %s id: use \"section\": %q.", target, fold.Section, fold.Section)
	case fold != nil && fold.Section == sec:
		msg += fmt.Sprintf(" Did you mean %s? Ids are case-sensitive.", fold.ID)
	case fold != nil:
		msg += fmt.Sprintf(" Did you mean %s of %s? Ids are case-sensitive.", fold.ID, fold.Section)
	default:
		if s := sectionOf(strings.ToUpper(target)); s != "" && s != sec {
			msg += fmt.Sprintf(" %s is a %s id, not a %s id.", target, s, sec)
		} else {
			var ids []string
			for _, it := range m.a.Section(sec) {
				ids = append(ids, it.ID)
			}
			switch {
			case len(ids) == 0:
				msg += fmt.Sprintf(" %s has no items yet.", sec)
			case len(ids) <= 12:
				msg += fmt.Sprintf(" %s has %s.", sec, strings.Join(ids, ", "))
			}
		}
	}
	m.event(RuleInvalidTarget, diag.Error, anchor, "", msg,
		"target_id MUST reference an existing, non-killed item (artifact_delta_spec_v0.1.md); use an id from the latest COMPILED artifact, or ADD a new item with target_id null.")
}

func (m *merger) edit() (string, bool) {
	d := m.d.Delta
	sec := d.Section
	if !knownSection(sec) {
		m.event(RuleInvalidTarget, diag.Error, "EDIT "+d.Target+" "+sec, "",
			fmt.Sprintf("Section %q is not a valid section; the delta was not applied.", sec),
			"Use one of the section ids of delta_output_format_v0.1.md, Valid Section Values.")
		return "", false
	}
	var it *Item
	if sec == delta.ResearchThread {
		if d.Target != "" && d.Target != "RT" {
			m.notFound("EDIT", sec, d.Target)
			return "", false
		}
		if m.a.RT == nil {
			m.a.RT = &Item{ID: "RT", Section: sec, Fields: jsonv.NewObject(), AddedBy: m.d.Agent, AddedAt: m.d.At}
		}
		it = m.a.RT
	} else {
		if d.Target == "" {
			m.event(RuleInvalidTarget, diag.Error, "EDIT "+sec, "",
				"EDIT has no target_id; the delta was not applied.",
				"target_id MUST reference an existing, non-killed item (artifact_delta_spec_v0.1.md); set it to the id of the item to edit.")
			return "", false
		}
		it = m.a.Find(sec, d.Target)
		if it == nil {
			m.notFound("EDIT", sec, d.Target)
			return "", false
		}
		if it.Killed {
			m.event(RuleTargetKilled, diag.Warning, "EDIT "+it.ID+" "+sec, "",
				fmt.Sprintf("EDIT of %s was skipped because %s was killed by %s.", it.ID, it.ID, it.KilledBy),
				"\"Killed items cannot be edited; to restore a killed item, create a new ADD with the same content\" (artifact_delta_spec_v0.1.md).")
			return "", false
		}
	}
	anchor := "EDIT " + it.ID + " " + sec
	p := d.Payload
	if p != nil && p.Kind == jsonv.Object {
		replaceAll := flagTrue(p, "replace")
		for _, k := range p.Keys() {
			if !stored(p, k) {
				continue
			}
			in := p.Get(k)
			replace := replaceAll || flagTrue(p, k+"_replace")
			old := it.Fields.Get(k)
			switch {
			case arrayFields[k] && !replace:
				it.Fields.Set(k, union(old, in, k == "references"))
			case objectFields[k] && !replace && in.Kind == jsonv.Object && (old.IsNull() || old.Kind == jsonv.Object):
				cur := jsonv.NewObject()
				if !old.IsNull() {
					cur = old.Clone()
				}
				for _, sk := range in.Keys() {
					cur.Set(sk, m.write(it, anchor, k, sk, in.Get(sk)))
				}
				it.Fields.Set(k, cur)
			default:
				it.Fields.Set(k, m.write(it, anchor, k, "", in))
			}
		}
		if sec == delta.PredictionsTable && p.Has("predictions") {
			m.checkPredictions(it, p, anchor)
		}
	}
	return it.ID, true
}

// write records an EDIT's write of field k (sub-key sk of an object field,
// when not "") of item it, reports a conflicting write of the same round,
// and returns the value to store. Conflict Resolution Policy
// (artifact_delta_spec_v0.1.md): the later timestamp wins (MG-008); at the
// same instant, from two messages, the higher agent priority wins (MG-008);
// with equal priorities the field becomes a CONFLICT marker holding every
// value and needs human review (MG-010). Writes of one message are ordered
// by their blocks.
func (m *merger) write(it *Item, anchor, k, sk string, in *jsonv.Value) *jsonv.Value {
	nv := in // never changed in place, like every merged value
	key := fieldKey{it.Section, it.ID, k, sk}
	nw := fieldWrite{Agent: m.d.Agent, Value: nv, Round: m.a.round, Msg: m.d.Msg, Block: m.d.Block, At: m.d.At, Priority: m.d.Priority}
	w, ok := m.a.writes[key]
	if !ok || w.Round != m.a.round {
		m.a.writes[key] = nw
		return nv
	}
	tied := !w.At.IsZero() && w.At.Equal(m.d.At) && w.Msg != m.d.Msg
	same := jsonv.Equal(w.Value, nv)
	name := k // the field as findings name it
	if sk != "" {
		name = k + "." + sk
	}
	switch {
	case tied && w.Priority == m.d.Priority && (!same || len(w.Tied) > 0):
		nw.Tied = append([]tiedValue(nil), w.Tied...)
		if len(nw.Tied) == 0 {
			nw.Tied = []tiedValue{{w.Agent, w.Value}}
		}
		if !hasTied(nw.Tied, nv) {
			nw.Tied = append(nw.Tied, tiedValue{m.d.Agent, nv})
		}
		var vals []string
		for _, tv := range nw.Tied {
			vals = append(vals, fmt.Sprintf("%s (%s)", tv.Value.Text(), tv.Agent))
		}
		if !hasTied(w.Tied, nv) {
			m.event(RuleUnresolved, diag.Error, anchor+" "+name, k,
				fmt.Sprintf("Conflicting EDITs of %s %s at the same instant (%s): %s set %s (message %d, block %d), %s set %s, and no agent priority decides; the field is marked CONFLICT and needs human review.",
					it.ID, name, FormatTime(m.d.At), w.Agent, brief(w.Value), w.Msg, w.Block, m.d.Agent, brief(nv)),
				"Conflict Resolution Policy: \"If no resolution is possible, mark the field as CONFLICT and require human review\" (artifact_delta_spec_v0.1.md); send one EDIT with the intended value, or rank the agents in .brenner-ci.yaml agents: (first listed wins).")
		}
		m.a.writes[key] = nw
		return &jsonv.Value{Kind: jsonv.String, Str: ConflictMarker + strings.Join(vals, " vs ")}
	case same:
	case tied:
		m.event(RuleConflict, diag.Warning, anchor+" "+name, k,
			fmt.Sprintf("Conflicting EDITs of %s %s at the same instant: %s set %s (message %d, block %d), %s set %s; %s has the higher agent priority, so its value wins.",
				it.ID, name, w.Agent, brief(w.Value), w.Msg, w.Block, m.d.Agent, brief(nv), m.d.Agent),
			"Conflict Resolution Policy: \"If timestamps are identical, use agent priority order (if defined)\" (artifact_delta_spec_v0.1.md; priority: .brenner-ci.yaml agents:, first listed wins); review the field and send one EDIT with the intended value.")
	default:
		m.event(RuleConflict, diag.Warning, anchor+" "+name, k,
			fmt.Sprintf("Conflicting EDITs of %s %s: %s set %s (message %d, block %d), then %s set %s; the later value wins.",
				it.ID, name, w.Agent, brief(w.Value), w.Msg, w.Block, m.d.Agent, brief(nv)),
			"Conflict Resolution Policy: \"Later timestamp wins (last-write-wins for simple fields)\" (artifact_delta_spec_v0.1.md); review the field and send one EDIT with the intended value.")
	}
	m.a.writes[key] = nw
	return nv
}

// ConflictMarker starts the value of a field that tied EDITs left
// unresolved: "CONFLICT: <value> (<agent>) vs <value> (<agent>)".
const ConflictMarker = "CONFLICT: "

// tiedValue is one value of an unresolved conflict and its agent.
type tiedValue struct {
	Agent string
	Value *jsonv.Value
}

func hasTied(ts []tiedValue, v *jsonv.Value) bool {
	for _, t := range ts {
		if jsonv.Equal(t.Value, v) {
			return true
		}
	}
	return false
}

// SeedRT sets the research thread from the session's KICKOFF: its
// "## Research Question" (the statement) and "## Context" ("One-sentence
// problem statement - will become the RT", message_body_schema_v0.1.md). It
// does nothing when the statement is empty or the RT exists; later EDITs
// change it as usual. A seed is not a delta: it credits no contributor and
// raises no conflict.
func (a *Artifact) SeedRT(statement, context, by string, at time.Time) {
	if a.RT != nil || strings.TrimSpace(statement) == "" {
		return
	}
	f := jsonv.NewObject()
	f.Set("statement", &jsonv.Value{Kind: jsonv.String, Str: statement})
	if strings.TrimSpace(context) != "" {
		f.Set("context", &jsonv.Value{Kind: jsonv.String, Str: context})
	}
	a.RT = &Item{ID: "RT", Section: delta.ResearchThread, Fields: f, AddedBy: by, AddedAt: at}
}

// brief quotes a value for a message, cut to 80 bytes after its
// credentials are redacted (cut first, a credential no longer looks like
// one).
func brief(v *jsonv.Value) string {
	s := diag.RedactSecrets(v.Text())
	if len(s) > 80 {
		cut := 77
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// list returns the elements of an array value; a single non-null value is a
// one-element list.
func list(v *jsonv.Value) []*jsonv.Value {
	switch {
	case v == nil || v.Kind == jsonv.Null:
		return nil
	case v.Kind == jsonv.Array:
		return v.Arr()
	}
	return []*jsonv.Value{v}
}

// union returns old ∪ in in insertion order, without duplicates; references
// are the same when session, item and relation are.
func union(old, in *jsonv.Value, refs bool) *jsonv.Value {
	olds, ins := list(old), list(in)
	out := jsonv.NewArray(make([]*jsonv.Value, 0, len(olds)+len(ins)))
	add := func(e *jsonv.Value) {
		for _, x := range out.Arr() {
			if sameElem(x, e, refs) {
				return
			}
		}
		out.Append(e)
	}
	for _, e := range olds {
		add(e)
	}
	for _, e := range ins {
		add(e)
	}
	return out
}

func sameElem(a, b *jsonv.Value, refs bool) bool {
	if refs && a.Kind == jsonv.Object && b.Kind == jsonv.Object {
		for _, k := range []string{"session", "item", "relation"} {
			if !jsonv.Equal(a.Get(k), b.Get(k)) {
				return false
			}
		}
		return true
	}
	return jsonv.Equal(a, b)
}

// checkPredictions reports prediction cells keyed by no existing hypothesis.
func (m *merger) checkPredictions(it *Item, payload *jsonv.Value, anchor string) {
	preds := payload.Get("predictions")
	if preds == nil {
		return
	}
	if preds.Kind != jsonv.Object {
		m.event(RuleInvalidFieldDL, diag.Warning, anchor+" predictions", "predictions",
			fmt.Sprintf("%s predictions is %s, not an object keyed by hypothesis id; its cells cannot be placed in the table.", it.ID, preds.Kind.Phrase()),
			"predictions_table payload: \"predictions\": {\"H1\": \"string (outcome)\", \"H2\": \"string (outcome)\", ...} (delta_output_format_v0.1.md, Payload Schemas by Section).")
		return
	}
	for _, k := range preds.Keys() {
		if m.a.resolveHyp(k) != "" {
			continue
		}
		m.event(RuleInvalidFieldDL, diag.Warning, anchor+" predictions."+k, "predictions",
			fmt.Sprintf("%s predicts an outcome for %s, which is not a hypothesis of the slate; the cell has no column.", it.ID, k),
			"Key predictions by existing hypothesis ids: \"predictions\": {\"H1\": \"string (outcome)\", ...} (delta_output_format_v0.1.md, Payload Schemas by Section); ADD the hypothesis first.")
	}
}

func (m *merger) kill() (string, bool) {
	d := m.d.Delta
	sec := d.Section
	if sec == delta.ResearchThread {
		m.event(RuleInvalidTarget, diag.Error, "KILL RT "+sec, "",
			"The research thread cannot be killed; the delta was not applied.",
			"Research Thread: \"EDIT only\" and \"There is exactly ONE research thread\" (artifact_delta_spec_v0.1.md); EDIT the research thread instead.")
		return "", false
	}
	if !knownSection(sec) {
		m.event(RuleInvalidTarget, diag.Error, "KILL "+d.Target+" "+sec, "",
			fmt.Sprintf("Section %q is not a valid section; the delta was not applied.", sec),
			"Use one of the section ids of delta_output_format_v0.1.md, Valid Section Values.")
		return "", false
	}
	if d.Target == "" {
		m.event(RuleInvalidTarget, diag.Error, "KILL "+sec, "",
			"KILL has no target_id; the delta was not applied.",
			"target_id MUST reference an existing, non-killed item (artifact_delta_spec_v0.1.md); set it to the id of the item to kill.")
		return "", false
	}
	it := m.a.Find(sec, d.Target)
	if it == nil {
		m.notFound("KILL", sec, d.Target)
		return "", false
	}
	if it.Killed {
		// "KILL + KILL (same target): Idempotent, both succeed."
		return "", true
	}
	it.Killed = true
	it.KilledBy = m.d.Agent
	it.KilledAt = m.d.At
	if r := d.Payload.Get("reason"); r != nil && !r.IsNull() {
		if s, ok := r.AsString(); ok {
			it.KillReason = strings.TrimSpace(s)
		} else {
			it.KillReason = r.Text()
		}
	}
	anchor := "KILL " + it.ID + " " + sec
	switch sec {
	case delta.HypothesisSlate:
		if !m.a.HasThirdAlternative() {
			msg := fmt.Sprintf("No active third alternative hypothesis remains after the KILL of %s.", it.ID)
			if IsThirdAlternative(it) {
				msg = fmt.Sprintf("The KILL of %s removed the last active third alternative hypothesis.", it.ID)
			}
			m.event(RuleNoThirdAlt, diag.Warning, anchor, "", msg+" The KILL was applied.",
				"Hypothesis Slate: \"Cannot kill the last third alternative without adding a replacement\" (artifact_delta_spec_v0.1.md); ADD a hypothesis with \"third_alternative\": true.")
		}
	case delta.AssumptionLedger:
		if !m.a.HasScaleCheck() {
			msg := fmt.Sprintf("No active scale/physics check assumption remains after the KILL of %s.", it.ID)
			if IsScaleCheck(it) {
				msg = fmt.Sprintf("The KILL of %s removed the last active scale/physics check assumption.", it.ID)
			}
			m.event(RuleNoScaleCheck, diag.Warning, anchor, "", msg+" The KILL was applied.",
				"Assumption Ledger: \"At least one assumption must be a scale/physics check\" (artifact_delta_spec_v0.1.md); ADD an assumption with \"scale_check\": true.")
		}
	}
	return it.ID, true
}

// minimums of the compiled artifact, per section (artifact_schema_v0.1.md),
// from the schema.
var minimums = func() []*schema.Section {
	var out []*schema.Section
	for i := range schema.Sections {
		if schema.Sections[i].Min > 0 {
			out = append(out, &schema.Sections[i])
		}
	}
	return out
}()

// Check reports the sections of the artifact below their minimum (MG-006
// BELOW_MINIMUM, one warning per section). The hypothesis slate also needs an
// active third alternative and the assumption ledger an active scale check.
// Critiques, when there are any, need one that offers an alternative
// framing (MG-009).
func (a *Artifact) Check() []Event {
	var out []Event
	for _, mn := range minimums {
		n := a.activeCount(mn.ID)
		var msg string
		switch {
		case mn.ID == delta.ResearchThread:
			if n == 0 {
				msg = "The artifact has no research thread."
			}
		case n < mn.Min:
			noun := mn.Many
			if n == 1 {
				noun = mn.One
			}
			msg = fmt.Sprintf("The %s section has %d active %s; at least %d are required.", mn.ID, n, noun, mn.Min)
		}
		switch {
		case mn.ID == delta.HypothesisSlate && !a.HasThirdAlternative():
			if msg == "" {
				msg = "The hypothesis_slate section has no active third alternative."
			} else if n > 0 {
				msg += " None of them is a third alternative."
			}
		case mn.ID == delta.AssumptionLedger && !a.HasScaleCheck():
			if msg == "" {
				msg = "The assumption_ledger section has no active scale/physics check."
			} else if n > 0 {
				msg += " None of them is a scale/physics check."
			}
		}
		if msg == "" {
			continue
		}
		out = append(out, Event{
			Rule: RuleBelowMinimum, Severity: diag.Warning,
			Message: msg, Hint: mn.MinHint, Msg: -1, Block: -1, Field: "",
			Anchor: "BELOW_MINIMUM " + mn.ID, Applied: true,
		})
	}
	if n := a.activeCount(delta.AdversarialCritique); n > 0 && !a.HasAlternativeFraming() {
		msg := fmt.Sprintf("None of the %d active critiques offers a specific alternative framing.", n)
		if n == 1 {
			msg = "The active critique does not offer a specific alternative framing."
		}
		for _, it := range a.Section(delta.AdversarialCritique) {
			if it.Killed && IsAlternativeFraming(it) {
				msg += fmt.Sprintf(" %s, which did, was killed by %s.", it.ID, it.KilledBy)
				break
			}
		}
		out = append(out, Event{
			Rule: RuleNoAltFraming, Severity: diag.Warning, Message: msg,
			Hint: "Adversarial Critique: \"Real third alternative: At least one must offer a specific alternative framing\" (artifact_delta_spec_v0.1.md); ADD a critique with \"real_third_alternative\": true that names the alternative.",
			Msg:  -1, Block: -1, Anchor: "NO_ALTERNATIVE_FRAMING " + delta.AdversarialCritique, Applied: true,
		})
	}
	return out
}
