package delta

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
)

// fence wraps JSON in a ```delta block.
func fence(js string) string { return "```delta\n" + js + "\n```\n" }

func analyze(src string) ([]Block, []diag.Local) { return Analyze(body.Parse(src), limits.Parse{}) }

// one validates a single block body and returns it.
func one(t *testing.T, js string) Block {
	t.Helper()
	blocks, probs := analyze(fence(js))
	if len(blocks) != 1 {
		t.Fatalf("got %d blocks (message problems %v)", len(blocks), probs)
	}
	return blocks[0]
}

// ruleSet renders problems as sorted "RULE:severity" strings.
func ruleSet(ps []diag.Local) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Rule+":"+p.Severity.String())
	}
	sort.Strings(out)
	return out
}

func applyFix(src string, f *diag.LocalFix) string { return src[:f.Start] + f.Text + src[f.End:] }

func findRule(ps []diag.Local, rule string) *diag.Local {
	for i := range ps {
		if ps[i].Rule == rule {
			return &ps[i]
		}
	}
	return nil
}

func TestExtract(t *testing.T) {
	src := "# Delta Contribution\n\n" +
		"```delta\n{\"a\": 1}\n```\n\n" + // 0
		"~~~delta\n{\"b\": 2}\n~~~\n\n" + // 1
		":::delta\n{\"c\": 3}\n:::\n\n" + // 2
		"```delta\n   \n```\n\n" + // empty: not a block
		"```Delta\n{}\n```\n\n```DELTA\n{}\n```\n\n```deltas\n{}\n```\n\n```json\n{}\n```\n\n" +
		"~~~markdown\n```delta\n{\"example\": true}\n```\n~~~\n\n" + // nested example: content, not a block
		"> ```delta json\n> {\"d\": 4}\n> ```\n" // 3: in a quote, with an info string
	blocks := Extract(body.Parse(src))
	var raws []string
	for i, b := range blocks {
		if b.Index != i {
			t.Errorf("block %d has Index %d", i, b.Index)
		}
		raws = append(raws, strings.TrimSpace(b.Raw))
	}
	want := []string{`{"a": 1}`, `{"b": 2}`, `{"c": 3}`, `{"d": 4}`}
	if fmt.Sprint(raws) != fmt.Sprint(want) {
		t.Fatalf("blocks %q, want %q", raws, want)
	}
	if blocks[2].Fence.Char != ':' || blocks[1].Fence.Char != '~' || !blocks[3].Fence.Nested {
		t.Fatalf("fence kinds: %+v", blocks)
	}
}

type vcase struct {
	name  string
	js    string
	rules []string // sorted RULE:severity
	valid bool
	check func(t *testing.T, b Block)
}

const hyp = `"payload": {"name": "N", "claim": "C", "mechanism": "M", "anchors": ["§42"]}`

func TestValidate(t *testing.T) {
	cases := []vcase{
		// Valid blocks.
		{name: "valid ADD", js: `{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, ` + hyp + `, "rationale": "why"}`, valid: true,
			check: func(t *testing.T, b Block) {
				d := b.Delta
				if d.Op != OpAdd || d.Section != HypothesisSlate || d.Target != "" || d.Rationale != "why" || d.Payload.Get("claim").Str != "C" || d.Value.Get("operation").Str != "ADD" {
					t.Errorf("normalized delta: %+v", d)
				}
			}},
		{name: "valid EDIT", js: `{"operation": "EDIT", "section": "discriminative_tests", "target_id": "T1", "payload": {"potency_check": "x"}}`, valid: true,
			check: func(t *testing.T, b Block) {
				if b.Delta.Target != "T1" || b.Delta.Rationale != "" {
					t.Errorf("delta %+v", b.Delta)
				}
			}},
		{name: "valid KILL", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "payload": {"reason": "Subsumed"}}`, valid: true,
			check: func(t *testing.T, b Block) {
				if b.Delta.Op != OpKill || b.Delta.Target != "H2" || b.Delta.Payload.Get("reason").Str != "Subsumed" {
					t.Errorf("delta %+v", b.Delta)
				}
			}},
		{name: "RT EDIT with null target", js: `{"operation": "EDIT", "section": "research_thread", "target_id": null, "payload": {"context": "c"}}`, valid: true,
			check: func(t *testing.T, b Block) {
				if b.Delta.Target != "RT" {
					t.Errorf("target %q", b.Delta.Target)
				}
			}},
		{name: "RT EDIT without target", js: `{"operation": "EDIT", "section": "research_thread", "payload": {"context": "c"}}`, valid: true},
		{name: "RT EDIT with RT", js: `{"operation": "EDIT", "section": "research_thread", "target_id": "RT", "payload": {"context": "c", "anchors": ["§1-§3", "EV-001#E1 [inference]"]}}`, valid: true},
		{name: "extra top-level keys are fine", js: `{"delta_id": "d-1", "agent": "A", "timestamp": "t", "operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"claim": "c"}}`, valid: true},

		// MB-005.
		{name: "invalid JSON", js: `{ not valid json }`, rules: []string{"MB-005:error"}},
		{name: "invalid JSON keeps text checks", js: `{"operation": "add", "section": "hypotheses", "payload": {},}`,
			rules: []string{"DL-001:error", "DL-002:error", "MB-005:error"}},

		// DL-004 shape.
		{name: "top-level array", js: `[{"operation": "ADD"}]`, rules: []string{"DL-004:error"},
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Hint, "its own ```delta block") {
					t.Errorf("hint %q", b.Problems[0].Hint)
				}
			}},
		{name: "top-level null", js: `null`, rules: []string{"DL-004:error"}},

		// DL-001.
		{name: "lower-case op", js: `{"operation": "add", "section": "hypothesis_slate", "target_id": null, ` + hyp + `}`, rules: []string{"DL-001:error"},
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Message, `did you mean "ADD"?`) || b.Problems[0].Fix == nil {
					t.Errorf("message %q fix %v", b.Problems[0].Message, b.Problems[0].Fix)
				}
			}},
		{name: "DELETE op", js: `{"operation": "DELETE", "section": "hypothesis_slate", "target_id": "H1", "payload": {"reason": "r"}}`, rules: []string{"DL-001:error"},
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Message, `did you mean "KILL"?`) {
					t.Errorf("message %q", b.Problems[0].Message)
				}
			}},
		{name: "missing op with similar key", js: `{"op": "ADD", "section": "hypothesis_slate", ` + hyp + `}`, rules: []string{"DL-001:error"},
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Message, `The block has "op": did you mean "operation"?`) {
					t.Errorf("message %q", b.Problems[0].Message)
				}
			}},
		{name: "numeric op", js: `{"operation": 1, "section": "hypothesis_slate", ` + hyp + `}`, rules: []string{"DL-001:error"}},

		// DL-002.
		{name: "hypotheses", js: `{"operation": "ADD", "section": "hypotheses", "target_id": null, ` + hyp + `}`, rules: []string{"DL-002:error"},
			check: func(t *testing.T, b Block) {
				p := b.Problems[0]
				if !strings.Contains(p.Message, `did you mean "hypothesis_slate"?`) || !strings.Contains(p.Message, "failure mode 2") || !strings.Contains(p.Hint, `not "hypotheses"`) {
					t.Errorf("message %q hint %q", p.Message, p.Hint)
				}
			}},
		{name: "missing section", js: `{"operation": "ADD", ` + hyp + `}`, rules: []string{"DL-002:error"}},
		{name: "unknown section without suggestion", js: `{"operation": "ADD", "section": "memo", "payload": {"x": 1}}`, rules: []string{"DL-002:error"},
			check: func(t *testing.T, b Block) {
				if strings.Contains(b.Problems[0].Message, "did you mean") || b.Problems[0].Fix != nil {
					t.Errorf("unexpected suggestion: %q", b.Problems[0].Message)
				}
			}},
		{name: "op and section both wrong are both reported", js: `{"operation": "UPDATE", "section": "tests", "target_id": "T1", "payload": {}}`,
			rules: []string{"DL-001:error", "DL-002:error"},
			check: func(t *testing.T, b Block) {
				if b.Problems[0].Rule != "DL-001" {
					t.Errorf("first problem %s, want upstream's first check DL-001", b.Problems[0].Rule)
				}
			}},

		// DL-003.
		{name: "EDIT null target", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": null, "payload": {"claim": "c"}}`, rules: []string{"DL-003:error"},
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Message, "failure mode 3") || !strings.Contains(b.Problems[0].Hint, `"target_id": "H1"`) {
					t.Errorf("message %q hint %q", b.Problems[0].Message, b.Problems[0].Hint)
				}
			}},
		{name: "KILL absent target", js: `{"operation": "KILL", "section": "discriminative_tests", "payload": {"reason": "r"}}`, rules: []string{"DL-003:error"},
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Hint, `"T1"`) {
					t.Errorf("hint %q", b.Problems[0].Hint)
				}
			}},
		{name: "numeric target", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": 2, "payload": {"claim": "c"}}`, rules: []string{"DL-003:error"}},
		{name: "blank target", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": " ", "payload": {"claim": "c"}}`, rules: []string{"DL-003:error"}},
		{name: "RT target H1", js: `{"operation": "EDIT", "section": "research_thread", "target_id": "H1", "payload": {"context": "c"}}`, rules: []string{"DL-003:error"}},
		{name: "RT target rt", js: `{"operation": "EDIT", "section": "research_thread", "target_id": "rt", "payload": {"context": "c"}}`, rules: []string{"DL-003:error"},
			check: func(t *testing.T, b Block) {
				if b.Problems[0].Fix == nil || b.Problems[0].Fix.Text != `"RT"` {
					t.Errorf("fix %+v", b.Problems[0].Fix)
				}
			}},
		{name: "RT numeric target", js: `{"operation": "EDIT", "section": "research_thread", "target_id": 7, "payload": {"context": "c"}}`, rules: []string{"DL-003:error"}},

		// DL-004.
		{name: "ADD without payload", js: `{"operation": "ADD", "section": "hypothesis_slate", "name": "N", "claim": "C"}`, rules: []string{"DL-004:error"},
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Hint, "Move name, claim into") {
					t.Errorf("hint %q", b.Problems[0].Hint)
				}
			}},
		{name: "ADD with array payload", js: `{"operation": "ADD", "section": "hypothesis_slate", "payload": []}`, rules: []string{"DL-004:error"}},
		{name: "EDIT without payload", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1"}`, rules: []string{"DL-004:error"}},
		{name: "KILL with empty payload", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "payload": {}}`, rules: []string{"DL-011:warning"}, valid: true},
		{name: "KILL without payload", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2"}`, rules: []string{"DL-011:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if b.Delta.Op != OpKill || b.Delta.Target != "H2" || b.Delta.Payload != nil {
					t.Errorf("delta %+v", b.Delta)
				}
			}},
		{name: "KILL with null payload", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "payload": null}`, rules: []string{"DL-011:warning"}, valid: true},
		{name: "KILL with null reason", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "payload": {"reason": null}}`, rules: []string{"DL-011:warning"}, valid: true},
		{name: "KILL with string payload", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "payload": "gone"}`, rules: []string{"DL-004:error"}},
		{name: "KILL with numeric reason", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "payload": {"reason": 5}}`, rules: []string{"DL-004:error"}},
		{name: "KILL with blank reason", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "payload": {"reason": ""}}`, rules: []string{"DL-011:warning"}, valid: true},
		{name: "KILL with top-level reason", js: `{"operation": "KILL", "section": "hypothesis_slate", "target_id": "H2", "reason": "r"}`, rules: []string{"DL-011:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Hint, `Move "reason" into the payload`) {
					t.Errorf("hint %q", b.Problems[0].Hint)
				}
			}},
		{name: "ADD research_thread", js: `{"operation": "ADD", "section": "research_thread", "payload": {"statement": "s"}}`, rules: []string{"DL-004:error"},
			check: func(t *testing.T, b Block) {
				if !strings.Contains(b.Problems[0].Message, "research_thread section only supports EDIT") {
					t.Errorf("message %q", b.Problems[0].Message)
				}
			}},
		{name: "KILL research_thread", js: `{"operation": "KILL", "section": "research_thread", "target_id": "RT", "payload": {"reason": "r"}}`, rules: []string{"DL-004:error"}},

		// DL-005.
		{name: "empty ADD payload", js: `{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {}}`, rules: []string{"DL-005:error"},
			check: func(t *testing.T, b Block) {
				if m := b.Problems[0].Message; !strings.Contains(m, "empty payload") || !strings.Contains(m, "name, claim, mechanism, anchors") {
					t.Errorf("message %q", m)
				}
			}},
		{name: "blank strings count as missing", js: `{"operation": "ADD", "section": "discriminative_tests", "target_id": null, "payload": {"name": "T", "procedure": " ", "discriminates": null, "expected_outcomes": {}}}`,
			rules: []string{"DL-005:error"},
			check: func(t *testing.T, b Block) {
				if m := b.Problems[0].Message; !strings.Contains(m, "procedure, discriminates, expected_outcomes") {
					t.Errorf("message %q", m)
				}
			}},
		{name: "non-third hypothesis without mechanism", js: `{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {"name": "N", "claim": "C", "anchors": ["inference"]}}`,
			rules: []string{"DL-005:error"}},
		{name: "third alternative without mechanism and anchors", js: `{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {"name": "N", "claim": "C", "third_alternative": true}}`,
			rules: []string{"DL-009:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if m := b.Problems[0].Message; !strings.Contains(m, "mechanism or anchors") || !strings.Contains(m, "needs only name and claim") {
					t.Errorf("message %q", m)
				}
			}},
		{name: "third alternative still needs a claim", js: `{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {"name": "N", "third_alternative": true}}`,
			rules: []string{"DL-005:error", "DL-009:warning"}},
		{name: "assumption without status defaults to unchecked", js: `{"operation": "ADD", "section": "assumption_ledger", "target_id": null, "payload": {"name": "N", "statement": "S", "load": "L", "test": "T"}}`,
			rules: []string{"DL-009:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if s := b.Delta.Payload.Get("status"); s == nil || s.Str != "unchecked" || fmt.Sprint(b.Delta.Defaulted) != "[status]" {
					t.Errorf("status %+v defaulted %v", s, b.Delta.Defaulted)
				}
			}},
		{name: "anomaly without status defaults to active", js: `{"operation": "ADD", "section": "anomaly_register", "target_id": null, "payload": {"name": "N", "observation": "O", "conflicts_with": ["H1"]}}`,
			rules: []string{"DL-009:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if s := b.Delta.Payload.Get("status"); s == nil || s.Str != "active" {
					t.Errorf("status %+v", s)
				}
			}},
		{name: "anomaly without conflicts_with", js: `{"operation": "ADD", "section": "anomaly_register", "target_id": null, "payload": {"name": "N", "observation": "O", "status": "active"}}`,
			rules: []string{"DL-005:error"}},
		{name: "critique without evidence and status", js: `{"operation": "ADD", "section": "adversarial_critique", "target_id": null, "payload": {"name": "N", "attack": "A"}}`,
			rules: []string{"DL-009:warning"}, valid: true},
		{name: "critique without attack", js: `{"operation": "ADD", "section": "adversarial_critique", "target_id": null, "payload": {"name": "N", "evidence": "E", "current_status": "S"}}`,
			rules: []string{"DL-005:error"}},
		{name: "prediction without predictions", js: `{"operation": "ADD", "section": "predictions_table", "target_id": null, "payload": {"condition": "C"}}`,
			rules: []string{"DL-005:error"}},
		{name: "EDIT needs no required fields", js: `{"operation": "EDIT", "section": "assumption_ledger", "target_id": "A1", "payload": {"status": "verified"}}`, valid: true},

		// DL-006.
		{name: "score out of range", js: `{"operation": "EDIT", "section": "discriminative_tests", "target_id": "T1", "payload": {"score": {"likelihood_ratio": 8, "cost": 1.5, "speed": "2", "ambiguity": -1}}}`,
			rules: []string{"DL-006:warning", "DL-006:warning", "DL-006:warning", "DL-006:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				m := b.Problems[0].Message
				if !strings.Contains(m, "score.likelihood_ratio is 8") || !strings.Contains(m, "integers 0-3") || !strings.Contains(m, "that scores 1") {
					t.Errorf("message %q", m)
				}
				if f := findFix(b.Problems, "score.speed"); f == nil || f.Text != "2" {
					t.Errorf("speed fix %+v", f)
				}
			}},
		{name: "statuses", js: `{"operation": "EDIT", "section": "assumption_ledger", "target_id": "A1", "payload": {"status": "Verified"}}`,
			rules: []string{"DL-006:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if f := b.Problems[0].Fix; f == nil || f.Text != `"verified"` {
					t.Errorf("fix %+v", f)
				}
			}},
		{name: "anomaly status", js: `{"operation": "EDIT", "section": "anomaly_register", "target_id": "X1", "payload": {"status": "open"}}`,
			rules: []string{"DL-006:warning"}, valid: true},
		{name: "anchors", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"anchors": ["§42", "§127-§129", "§42-45", "§ 7", "EV-001", "EV-001#E1", "§58 [inference]", "inference", "[inference]", "¬ß161", "page 4", "§58, §127", 7]}}`,
			rules: []string{"DL-006:warning", "DL-006:warning", "DL-006:warning", "DL-006:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				p := b.Problems[0]
				if !strings.Contains(p.Message, "mojibake") || p.Fix == nil || p.Fix.Text != `"§161"` {
					t.Errorf("mojibake problem %+v", p)
				}
				if !strings.Contains(b.Problems[2].Message, "several anchors") {
					t.Errorf("third problem %q", b.Problems[2].Message)
				}
			}},
		{name: "anchors as a string", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"anchors": "§1, §2"}}`,
			rules: []string{"DL-006:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if f := b.Problems[0].Fix; f == nil || f.Text != `["§1", "§2"]` {
					t.Errorf("fix %+v", f)
				}
			}},
		{name: "prediction keys", js: `{"operation": "ADD", "section": "predictions_table", "target_id": null, "payload": {"condition": "C", "predictions": {"H1": "a", "h2": "b", "Lineage": "c", "H3": 4}}}`,
			rules: []string{"DL-006:warning", "DL-006:warning", "DL-006:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if f := b.Problems[0].Fix; f == nil || f.Text != `"H2"` {
					t.Errorf("fix %+v", f)
				}
			}},
		{name: "booleans and strings", js: `{"operation": "ADD", "section": "discriminative_tests", "target_id": null, "payload": {"name": "N", "procedure": "P", "discriminates": "H1 vs H2", "expected_outcomes": {"H1": "a", "H2": "b"}, "potency_check": {"control": "x"}}}`,
			rules: []string{"DL-006:warning"}, valid: true},
		{name: "flag as string", js: `{"operation": "EDIT", "section": "assumption_ledger", "target_id": "A1", "payload": {"scale_check": "true"}}`,
			rules: []string{"DL-006:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if f := b.Problems[0].Fix; f == nil || f.Text != "true" {
					t.Errorf("fix %+v", f)
				}
			}},
		{name: "conflicts_with as string", js: `{"operation": "EDIT", "section": "anomaly_register", "target_id": "X1", "payload": {"conflicts_with": "H1"}}`,
			rules: []string{"DL-006:warning"}, valid: true},
		{name: "rationale not a string", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"claim": "c"}, "rationale": 5}`,
			rules: []string{"DL-006:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if b.Delta.Rationale != "" {
					t.Errorf("rationale %q", b.Delta.Rationale)
				}
			}},

		// DL-007.
		{name: "ADD with target", js: `{"operation": "ADD", "section": "hypothesis_slate", "target_id": "H7", ` + hyp + `}`,
			rules: []string{"DL-007:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				if b.Delta.Target != "" || b.Problems[0].Fix == nil || b.Problems[0].Fix.Text != "null" {
					t.Errorf("target %q fix %+v", b.Delta.Target, b.Problems[0].Fix)
				}
			}},

		// RF-003.
		{name: "references", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"references": [
  {"session": "RS-20251228-initial", "item": "H2", "relation": "refines"},
  {"session": "RS-20251228-initial", "item": "T3", "relation": "informed-by"},
  {"session": "RS-1", "relation": "extends"},
  "H2",
  {"session": "RS-2", "item": "H1"}
]}}`,
			rules: []string{"RF-003:warning", "RF-003:warning", "RF-003:warning", "RF-003:warning"}, valid: true,
			check: func(t *testing.T, b Block) {
				refs := b.Delta.References
				if len(refs) != 3 || refs[0].Relation != "refines" || refs[1].Item != "T3" || refs[2].Relation != "" {
					t.Fatalf("references %+v", refs)
				}
				if f := b.Problems[0].Fix; f == nil || f.Text != `"informed_by"` {
					t.Errorf("relation fix %+v", f)
				}
				src := fence(b.Raw)
				if !strings.HasPrefix(src[refs[1].Off:], `{"session": "RS-20251228-initial", "item": "T3"`) {
					t.Errorf("reference offset %d -> %q", refs[1].Off, src[refs[1].Off:refs[1].Off+20])
				}
			}},
		{name: "references not an array", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"references": {"session": "RS-1"}}}`,
			rules: []string{"RF-003:warning"}, valid: true},
		{name: "references at top level", js: `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"claim": "c"}, "references": []}`,
			rules: []string{"RF-003:warning"}, valid: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := one(t, tc.js)
			got := ruleSet(b.Problems)
			want := append([]string(nil), tc.rules...)
			sort.Strings(want)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				for _, p := range b.Problems {
					t.Logf("%s %s: %s", p.Rule, p.Severity, p.Message)
				}
				t.Fatalf("rules %v, want %v", got, want)
			}
			if b.Valid() != tc.valid {
				t.Fatalf("valid = %v, want %v", b.Valid(), tc.valid)
			}
			src := fence(tc.js)
			for _, p := range b.Problems {
				if p.Anchor != strings.TrimSpace(tc.js) || p.Hint == "" || p.Message == "" {
					t.Errorf("problem fields: %+v", p)
				}
				if p.Start < 0 || p.End < p.Start || p.End > len(src) {
					t.Errorf("problem region [%d,%d) outside the body", p.Start, p.End)
				}
				// Every fix must make its problem go away.
				if p.Fix != nil && p.Rule != "MB-005" {
					fixed := applyFix(src, p.Fix)
					blocks, _ := analyze(fixed)
					for _, q := range blocks[0].Problems {
						if q.Rule == p.Rule && q.Start == p.Start && q.Message == p.Message {
							t.Errorf("fix %q did not remove %q", p.Fix.Text, p.Message)
						}
					}
				}
			}
			if tc.check != nil {
				tc.check(t, b)
			}
		})
	}
}

func findFix(ps []diag.Local, sub string) *diag.LocalFix {
	for _, p := range ps {
		if strings.Contains(p.Message, sub) {
			return p.Fix
		}
	}
	return nil
}

// TestMB005Positions checks the exact body region and the block-relative
// line and column of each common JSON mistake (failure mode 4).
func TestMB005Positions(t *testing.T) {
	const pre = "# Delta Contribution\n\nSome prose.\n\n"
	cases := []struct {
		name     string
		js       string
		at       string // the offending text; the region starts at its first byte
		width    int
		line     int
		col      int
		cause    string
		fixEmpty bool // the fix deletes the region
	}{
		{"trailing comma", "{\n  \"operation\": \"EDIT\",\n  \"section\": \"hypothesis_slate\",\n  \"target_id\": \"H1\",\n  \"payload\": {\"claim\": \"c\"},\n}",
			"},\n}", 1, 5, 28, "trailing comma", true},
		{"single quotes", "{\n  'operation': 'EDIT'\n}", "'operation'", 1, 2, 3, "single quotes", false},
		{"comment", "{\n  \"operation\": \"EDIT\", // edited\n  \"section\": \"x\"\n}", "// edited", 1, 2, 24, "comment", false},
		{"unquoted key", "{\n  \"operation\": \"EDIT\",\n  section: \"x\"\n}", "section:", 1, 3, 3, "unquoted key", false},
		{"truncated", "{\n  \"operation\": \"EDIT\"", "", 0, 2, 22, "truncated", false},
		{"non-ASCII before the error", "{\"claim\": \"§§§\" 'x'}", "'x'", 1, 1, 17, "single quotes", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := pre + fence(tc.js)
			blocks, _ := analyze(src)
			if len(blocks) != 1 || blocks[0].Valid() {
				t.Fatalf("blocks %+v", blocks)
			}
			p := findRule(blocks[0].Problems, "MB-005")
			if p == nil {
				t.Fatalf("no MB-005 in %+v", blocks[0].Problems)
			}
			var start int
			if tc.at == "" {
				start = len(pre) + len("```delta\n") + len(tc.js) // just after the last character
			} else {
				start = strings.Index(src, tc.at)
				if tc.name == "trailing comma" {
					start++ // the comma after '}'
				}
			}
			if p.Start != start || p.End != start+tc.width {
				t.Errorf("region [%d,%d) %q, want [%d,%d)", p.Start, p.End, src[p.Start:p.End], start, start+tc.width)
			}
			wantPos := fmt.Sprintf("at line %d, column %d of the block", tc.line, tc.col)
			if !strings.Contains(p.Message, wantPos) || !strings.Contains(p.Message, tc.cause) || !strings.HasPrefix(p.Message, "Delta block is not valid JSON") {
				t.Errorf("message %q, want %q and %q", p.Message, wantPos, tc.cause)
			}
			if !strings.Contains(p.Hint, "Failure Mode 4") {
				t.Errorf("hint %q", p.Hint)
			}
			if tc.fixEmpty {
				if p.Fix == nil || p.Fix.Text != "" || p.Fix.Start != p.Start || p.Fix.End != p.End {
					t.Fatalf("fix %+v", p.Fix)
				}
				fixed, _ := analyze(applyFix(src, p.Fix))
				if !fixed[0].Valid() {
					t.Errorf("fixed block still invalid: %+v", fixed[0].Problems)
				}
			}
		})
	}
}

// TestNestedOffsets: positions in a fence inside a block quote point at the
// right body bytes although the content is not contiguous.
func TestNestedOffsets(t *testing.T) {
	src := "Intro.\n\n> ```delta\n> {\n>   \"operation\": \"ADD\",\n>   \"section\": \"hypotheses\",\n>   \"payload\": {}\n> }\n> ```\n"
	blocks, _ := analyze(src)
	p := findRule(blocks[0].Problems, "DL-002")
	if p == nil || src[p.Start:p.End] != `"hypotheses"` {
		t.Fatalf("DL-002 region: %+v", p)
	}
	if p.Fix == nil || applyFix(src, p.Fix) != strings.Replace(src, `"hypotheses"`, `"hypothesis_slate"`, 1) {
		t.Fatalf("fix %+v", p.Fix)
	}
	src2 := "> ```delta\n> {\"operation\": \"EDIT\",\n> \"x\": 1,}\n> ```\n"
	blocks, _ = analyze(src2)
	p = findRule(blocks[0].Problems, "MB-005")
	if p == nil || src2[p.Start:p.End] != "," || p.Start != strings.Index(src2, ",}") {
		t.Fatalf("MB-005 region in quote: %+v", p)
	}
	if !strings.Contains(p.Message, "line 2, column 7") {
		t.Errorf("message %q", p.Message)
	}
}

func TestMB004(t *testing.T) {
	inlineObj := `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"claim": "c"}, "rationale": "r"}`
	cases := []struct {
		name     string
		src      string
		msg      string // substring of the MB-004 message
		region   string // body text of the region ("" = start of the body, empty region)
		fixValid int    // valid blocks after applying the fix (-1 = no fix expected)
		extra    []string
	}{
		{"prose only", "# Delta Contribution\n\nI reviewed H1 and think its claim needs tightening.\n\n## Deltas\n\n- EDIT H1: tighten the claim\n",
			"has no ```delta block, so it contributes nothing", "", -1, nil},
		{"inline one line", "# Delta Contribution\n\nHere's my update:\n\n" + inlineObj + "\n\nLet me know.\n",
			"its delta JSON is inline (not fenced), so the compiler drops it", inlineObj, 1, nil},
		{"inline pretty", "Here's my update: {\n  \"operation\": \"KILL\",\n  \"section\": \"hypothesis_slate\",\n  \"target_id\": \"H2\",\n  \"payload\": {\"reason\": \"r\"}\n} thanks\n",
			"inline (not fenced)", "{\n  \"operation\": \"KILL\",\n  \"section\": \"hypothesis_slate\",\n  \"target_id\": \"H2\",\n  \"payload\": {\"reason\": \"r\"}\n}", 1, nil},
		{"two inline objects", inlineObj + "\n\n" + inlineObj + "\n", "its 2 delta JSON objects are inline", inlineObj, 1, []string{"DL-008"}},
		{"json fence", "## Deltas\n\n```json\n" + inlineObj + "\n```\n",
			"its delta JSON is in a ```json fence, which the compiler ignores", "```json\n" + inlineObj + "\n```", 1, nil},
		{"untagged fence", "```\n" + inlineObj + "\n```\n", "an untagged ``` fence", "```\n" + inlineObj + "\n```", 1, nil},
		{"Delta tag", "```Delta\n" + inlineObj + "\n```\n", "tags are case-sensitive", "```Delta\n" + inlineObj + "\n```", 1, nil},
		{"deltas tag", "```deltas\n" + inlineObj + "\n```\n", `the language tag "deltas" is not "delta"`, "```deltas\n" + inlineObj + "\n```", 1, nil},
		{"empty body", "  \n", "body is empty", "", -1, nil},
		{"empty delta fence", "## Deltas\n\n```delta\n\n```\n", "its ```delta fence is empty", "```delta\n\n```", -1, nil},
		{"only a nested example", "~~~markdown\n```delta\n" + inlineObj + "\n```\n~~~\n", "inside a ~~~markdown fence", "~~~markdown\n```delta\n" + inlineObj + "\n```\n~~~", -1, nil},
		{"DELTA lines", "## Deltas\n\nDELTA[hypothesis]: Bio-inspired attention\n", "DELTA[…]: lines are prose", "DELTA[hypothesis]: Bio-inspired attention", -1, nil},
		{"DELTA lines after a mid-line mention", "Format: see DELTA[x] below.\nDELTA[test]: STDP benchmark\n", "DELTA[…]: lines are prose", "DELTA[test]: STDP benchmark", -1, nil},
		{"inline JSON in a code span is not inline JSON", "Use `\"operation\"` and `\"section\"` keys.\n", "contributes nothing", "", -1, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			blocks, probs := analyze(tc.src)
			if len(blocks) != 0 {
				t.Fatalf("blocks: %+v", blocks)
			}
			var rules []string
			for _, p := range probs {
				rules = append(rules, p.Rule)
			}
			if want := append([]string{"MB-004"}, tc.extra...); fmt.Sprint(rules) != fmt.Sprint(want) {
				t.Fatalf("rules %v, want %v", rules, want)
			}
			p := findRule(probs, "MB-004")
			if p.Severity != diag.Error || !strings.Contains(p.Message, tc.msg) || !strings.HasPrefix(p.Message, "DELTA message") {
				t.Errorf("message %q, want %q", p.Message, tc.msg)
			}
			if !strings.Contains(p.Hint, "```delta") || p.Anchor == "" {
				t.Errorf("hint %q anchor %q", p.Hint, p.Anchor)
			}
			if got := tc.src[p.Start:p.End]; got != tc.region || (tc.region == "" && p.Start != 0) {
				t.Errorf("region %q, want %q", got, tc.region)
			}
			if tc.fixValid < 0 {
				if p.Fix != nil {
					t.Errorf("unexpected fix %+v", p.Fix)
				}
				return
			}
			if p.Fix == nil {
				t.Fatal("no fix")
			}
			fixed := applyFix(tc.src, p.Fix)
			blocks, probs = analyze(fixed)
			valid := 0
			for _, b := range blocks {
				if b.Valid() {
					valid++
				}
			}
			if valid != tc.fixValid || findRule(probs, "MB-004") != nil {
				t.Errorf("after the fix %q: %d valid blocks, problems %v", fixed, valid, probs)
			}
		})
	}
}

func TestDL008(t *testing.T) {
	edit := `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"claim": "c"}}`
	t.Run("colon form accepted with a note and a fix", func(t *testing.T) {
		src := "Intro\n\n:::delta\n" + edit + "\n:::\n"
		blocks, probs := analyze(src)
		if len(probs) != 0 || len(blocks) != 1 || !blocks[0].Valid() {
			t.Fatalf("blocks %+v probs %+v", blocks, probs)
		}
		p := blocks[0].Problems[0]
		if p.Rule != "DL-008" || p.Severity != diag.Note || src[p.Start:p.End] != ":::delta\n"+edit+"\n:::" {
			t.Fatalf("note %+v", p)
		}
		fixed := applyFix(src, p.Fix)
		if fixed != "Intro\n\n```delta\n"+edit+"\n```\n" {
			t.Fatalf("fixed %q", fixed)
		}
		b2, _ := analyze(fixed)
		if len(b2) != 1 || !b2[0].Valid() || len(b2[0].Problems) != 0 {
			t.Fatalf("after fix: %+v", b2)
		}
	})
	t.Run("tilde fence accepted with a note", func(t *testing.T) {
		blocks, _ := analyze("~~~delta\n" + edit + "\n~~~\n")
		if len(blocks) != 1 || !blocks[0].Valid() || ruleSet(blocks[0].Problems)[0] != "DL-008:note" {
			t.Fatalf("blocks %+v", blocks)
		}
	})
	t.Run("unclosed fence", func(t *testing.T) {
		src := "```delta\n" + edit + "\n"
		blocks, _ := analyze(src)
		if len(blocks) != 1 || !blocks[0].Valid() {
			t.Fatalf("blocks %+v", blocks)
		}
		p := findRule(blocks[0].Problems, "DL-008")
		if p == nil || !strings.Contains(p.Message, "never closed") || p.Fix == nil {
			t.Fatalf("note %+v", p)
		}
		b2, _ := analyze(applyFix(src, p.Fix))
		if len(b2) != 1 || len(b2[0].Problems) != 0 || !b2[0].Fence.Closed {
			t.Fatalf("after fix: %+v", b2)
		}
	})
	t.Run("ignored fences next to real blocks", func(t *testing.T) {
		src := "```delta\n" + edit + "\n```\n\n```DELTA\n" + edit + "\n```\n\n```json\n" + edit + "\n```\n\n```json\n{\"references\": []}\n```\n\n```python\nx = {\"operation\": 1, \"section\": 2}\n```\n"
		blocks, probs := analyze(src)
		if len(blocks) != 1 || fmt.Sprint(ruleSet(probs)) != "[DL-008:note DL-008:note]" {
			t.Fatalf("blocks %d probs %+v", len(blocks), probs)
		}
		if !strings.Contains(probs[0].Message, "```DELTA fence is ignored") || probs[0].Fix.Text != "delta" || src[probs[0].Fix.Start:probs[0].Fix.End] != "DELTA" {
			t.Errorf("first note %+v", probs[0])
		}
		if !strings.Contains(probs[1].Message, "```json fence is ignored") {
			t.Errorf("second note %+v", probs[1])
		}
	})
	t.Run("inline JSON next to real blocks", func(t *testing.T) {
		src := "```delta\n" + edit + "\n```\n\nAlso: " + edit + "\n"
		_, probs := analyze(src)
		if len(probs) != 1 || probs[0].Rule != "DL-008" || src[probs[0].Start:probs[0].End] != edit {
			t.Fatalf("probs %+v", probs)
		}
		b2, p2 := analyze(applyFix(src, probs[0].Fix))
		if len(b2) != 2 || !b2[1].Valid() || len(p2) != 0 {
			t.Fatalf("after fix: %d blocks %+v", len(b2), p2)
		}
	})
	t.Run("nested example is not a block and not a note", func(t *testing.T) {
		src := "```delta\n" + edit + "\n```\n\n~~~markdown\n```delta\n{\"operation\": \"KILL\"}\n```\n~~~\n"
		blocks, probs := analyze(src)
		if len(blocks) != 1 || len(probs) != 0 || len(blocks[0].Problems) != 0 {
			t.Fatalf("blocks %+v probs %+v", blocks, probs)
		}
	})
}

func TestSuggestSection(t *testing.T) {
	for in, want := range map[string]string{
		"hypotheses": HypothesisSlate, "hypothesis": HypothesisSlate, "hypothesis-slate": HypothesisSlate, "Hypothesis Slate": HypothesisSlate,
		"predictions": PredictionsTable, "tests": DiscriminativeTests, "assumptions": AssumptionLedger, "anomalies": AnomalyRegister,
		"critiques": AdversarialCritique, "critique": AdversarialCritique, "discriminative_test": DiscriminativeTests,
		"assumption_ledgr": AssumptionLedger, "adversarial_critiqe": AdversarialCritique, "discrim": DiscriminativeTests,
		"memo": "", "": "",
	} {
		if got := SuggestSection(in); got != want {
			t.Errorf("SuggestSection(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidAnchor(t *testing.T) {
	for s, want := range map[string]bool{
		"§42": true, "§ 42": true, "§127-§129": true, "§42-45": true, "EV-001": true, "EV-001#E1": true, "inference": true,
		"Inference": true, "[inference]": true, "§58 [inference]": true, "EV-003#E2 [inference]": true,
		"§": false, "42": false, "EV-": false, "¬ß42": false, "§42, §43": false, "see §42": false, "EV-1#X": false,
	} {
		if got := ValidAnchor(s); got != want {
			t.Errorf("ValidAnchor(%q) = %v", s, got)
		}
	}
}

func TestValidateResets(t *testing.T) {
	b := one(t, `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"claim": "c"}}`)
	b.Raw = `{"operation": "EDIT"}`
	b.Fence.Content = b.Raw
	Validate(&b, limits.Parse{})
	if b.Valid() || len(b.Problems) == 0 {
		t.Fatalf("revalidation kept the old result: %+v", b)
	}
}

func BenchmarkAnalyze(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# Delta Contribution\n\nProse.\n\n## Deltas\n\n")
	for sb.Len() < 4000 {
		sb.WriteString(fence(`{
  "operation": "ADD",
  "section": "discriminative_tests",
  "target_id": null,
  "payload": {
    "name": "Chromatin mark tracking",
    "procedure": "Monitor H3K27me3 in transplanted cells",
    "discriminates": "H4 vs H1/H2",
    "expected_outcomes": {"H1": "Marks follow lineage", "H2": "Marks follow position"},
    "potency_check": "Positive control with known stable marks",
    "score": {"likelihood_ratio": 2, "cost": 2, "speed": 1, "ambiguity": 2}
  },
  "rationale": "Test specifically targeting the new hypothesis"
}`) + "\n")
	}
	src := sb.String()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Analyze(body.Parse(src), limits.Parse{})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}
