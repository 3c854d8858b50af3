package custom

import (
	"testing"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"

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

// FuzzGuardedEvaluation holds the two speed paths of an evaluation to
// plain CEL (a cost-limited program, no guard): where a condition's guard
// does not hold, plain CEL finds it false; where CEL's static estimate let
// a program run without counting, it gives what the counted one gives,
// and the counted one stays within the limit.
func FuzzGuardedEvaluation(f *testing.F) {
	for _, s := range []string{
		`message.type == "DELTA" && !message.body.contains("§")`,
		`message.type == "KICKOFF" && !("research question" in message.sections)`,
		`"CRITIQUE" == message.type && message.created - thread.started > duration("3h")`,
		`message.role == "gpt" && message.from == "B" && message.deltas > 0`,
		`item.section == "hypothesis_slate" && item.status == "active" && has(item.fields.claim) && item.fields.claim.matches("(?i)mouse")`,
		`item.status == "active" && size(item.anchors) > 0 && item.anchors.all(a, a == "inference")`,
		`item.status == "killed" || item.section == "anomaly_register"`,
		`item.id == "H1" && item.fields.n / 0 > 1`,
		`!(item.status == "active") && true`,
		`size(item.references) > 3 && item.references.exists(r, r.relation == "refutes")`,
		`item.anchors.size() == 0 && item.status == "active"`,
		`size(message.to) != 1 && message.type == "ACK"`,
		`size(item.anchors) >= 2 && size(item.anchors) <= 2`,
		`item.fields.claim.matches("(?i)\\bmou") && matches(message.body, "del+ta")`,
		`item.fields.claim.matches("(?i)\\b(todo|tbd|fixme)\\b") || matches(message.body, "^x|§1")`,
	} {
		f.Add(s, "DELTA", "hypothesis_slate", "active", "B")
		f.Add(s, "KICKOFF", "predictions_table", "killed", "A")
	}
	models := sampleModel()
	lim := Limits{Eval: 10_000, Bytes: 1 << 20}
	f.Fuzz(func(t *testing.T, expr, typ, section, status, from string) {
		th := *models["thread"]["thread"].(*Thread)
		m := *models["message"]["message"].(*Message)
		it := *models["item"]["item"].(*Item)
		m.Type, m.From, it.Section, it.Status = typ, from, section, status
		// Lists of the sizes the inputs' lengths give.
		it.Anchors = make([]string, len(from)%4)
		it.References = make([]*Reference, len(section)%5)
		for i := range it.References {
			it.References[i] = &Reference{Relation: "refutes"}
		}
		m.To = make([]string, len(typ)%3)
		for _, scope := range []string{"message", "item"} {
			env, err := envFor(scope)
			if err != nil {
				t.Fatal(err)
			}
			fast, _ := program(env, expr, "when", func(string, int, int) diag.Pos { return diag.Pos{File: "f", Line: 1, Col: 1} }, lim)
			if fast == nil {
				continue
			}
			ast, iss := env.Compile(expr)
			if iss.Err() != nil {
				t.Fatalf("compiled once, not twice: %v", iss.Err())
			}
			plain, err := env.Program(ast, cel.CostLimit(lim.Eval))
			if err != nil {
				t.Fatal(err)
			}
			v := &vars{thread: &th}
			if scope == "message" {
				v.message = &m
			} else {
				v.item = &it
			}
			want, cost, werr := run(plain, v)
			if !fast.guard.holds(v) {
				if werr == nil && want.Equal(types.True) == types.True {
					t.Fatalf("%q: the guard skips an evaluation plain CEL finds true", expr)
				}
				continue
			}
			got, _, gerr := fast.run(v)
			if fast.static && cost > lim.Eval {
				t.Fatalf("%q: estimated within %d, cost %d", expr, lim.Eval, cost)
			}
			if (werr == nil) != (gerr == nil) || (werr == nil && got.Equal(want) != types.True) {
				t.Fatalf("%q: fast %v (%v), plain %v (%v)", expr, got, gerr, want, werr)
			}
		}
	})
}
