package custom

import (
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

// sampleModel is a small thread, item and artifact for evaluating
// expressions without the compiler.
func sampleModel() map[string]map[string]any {
	at := time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)
	k := &Message{ID: "1", Type: "KICKOFF", Subject: "KICKOFF: x", From: "A", To: []string{"B"}, Body: "## Context\n\nx §12", Created: at,
		Thread: "RS-20260105-x", Sections: map[string]string{"context": "x §12"}}
	d := &Message{ID: "2", Type: "DELTA", Role: "gpt", Subject: "DELTA[gpt]: y", From: "B", To: []string{"A"}, Body: "```delta\n{}\n```",
		Created: at.Add(time.Hour), Thread: "RS-20260105-x", Sections: map[string]string{}, Deltas: 1, ValidDeltas: 1}
	it := &Item{ID: "H1", Section: "hypothesis_slate", Fields: map[string]any{"claim": "mouse", "anchors": []any{"§12"}, "n": 2.0},
		Status: "active", Anchors: []string{"§12"}, References: []*Reference{{Session: "RS-1", Item: "H2", Relation: "extends"}},
		AddedBy: "B", AddedAt: at, Message: d}
	th := &Thread{ID: "RS-20260105-x", Subject: k.Subject, Messages: []*Message{k, d}, Version: 1, Contributors: []string{"B"},
		Sections: map[string][]*Item{"hypothesis_slate": {it}}, Items: []*Item{it}, Started: at, Last: d.Created, Deltas: 1, Applied: 1,
		Types: map[string]int{"KICKOFF": 1, "DELTA": 1}}
	a := &Artifact{Path: "artifacts/RS-20260105-x.md", Session: th.ID, Front: map[string]any{"session_id": th.ID, "version": int64(1)},
		Sections: []string{"hypothesis_slate"}, Titles: []string{"2. Hypothesis Slate"}, Items: []*Item{it}, Version: 1}
	return map[string]map[string]any{
		"message":  {"message": d, "thread": th},
		"thread":   {"thread": th},
		"item":     {"item": it, "thread": th},
		"artifact": {"artifact": a},
	}
}

// FuzzCustomRule feeds random expressions as a custom rule's condition and
// message part in every scope: compiling never panics and errors have a
// place; whatever compiles evaluates without a panic, within the cost
// limit, in bounded time.
func FuzzCustomRule(f *testing.F) {
	for _, s := range []string{
		`message.type == "DELTA" && !message.body.contains("§")`,
		`size(thread.messages) > 12 && thread.version == 0`,
		`item.fields.claim.matches("(?i)mouse")`,
		`artifact.items.exists(i, i.status == "killed")`,
		`thread.messages.map(m, thread.messages.map(n, m.body + n.body)).size() > 0`,
		`[1,2,3].map(x, [1,2,3].map(y, x*y))`,
		`"a".repeat(100000).size() > 0`,
		`item.fields.n / 0 > 1`,
		`thread.last - thread.started > duration("1h")`,
		`has(item.fields.x) || item.references[5].item == ""`,
		`{{`, `message.`, `)(`,
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
		f.Add(s, uint8(2))
		f.Add(s, uint8(3))
	}
	scopes := []string{"message", "thread", "item", "artifact"}
	models := sampleModel()
	lim := Limits{Eval: 10_000, Run: 1 << 40}
	f.Fuzz(func(t *testing.T, expr string, pick uint8) {
		scope := scopes[int(pick)%len(scopes)]
		def := Def{ID: "LAB-001", Name: "fuzz", Scope: scope, Severity: "note", When: expr, Message: "m {{ " + expr + " }}", Short: "s",
			At: func(key string, line, col int) diag.Pos { return diag.Pos{File: "c.yaml", Line: line, Col: col} }}
		rs, errs := Compile([]Def{def}, rules.Builtin(), lim)
		for _, e := range errs {
			if e.Pos.File != "c.yaml" || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Msg == "" {
				t.Fatalf("an error without a place: %+v", e)
			}
		}
		env, err := envFor(scope)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := program(env, expr, "when", def.At, lim)
		if c == nil {
			return
		}
		if len(rs) == 0 && len(errs) == 0 {
			t.Fatal("no rule and no error")
		}
		start := time.Now()
		_, cost, _ := run(c.prg, models[scope])
		if cost > 2*lim.Eval {
			t.Fatalf("cost %d past the limit %d", cost, lim.Eval)
		}
		// Generous: the cost limit stops work long before; this catches
		// an evaluation the limit does not bound.
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("evaluation took %v", d)
		}
	})
}
