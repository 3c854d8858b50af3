package artifact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/schema"
)

// fieldValue is a valid value of schema field f.
func fieldValue(sec string, f schema.Field) any {
	switch {
	case f.Key == "anchors":
		return []string{"§12"}
	case f.Key == "conflicts_with":
		return []string{"H1"}
	case f.Key == "references":
		return []map[string]string{{"session": "RS-20260101-other-session", "item": "H1", "relation": "extends"}}
	case f.Key == "predictions":
		return map[string]string{"H1": "rises", "H2": "falls"}
	case f.Key == "expected_outcomes":
		return map[string]string{"H1": "lineage fate", "H2": "positional fate"}
	case f.Key == "score":
		return map[string]int{"likelihood_ratio": 2, "cost": 1, "speed": 2, "ambiguity": 3}
	case f.Key == "status" && len(schema.Get(sec).Statuses) > 0:
		return schema.Get(sec).Statuses[0]
	case f.Render == schema.Flag || f.Render == schema.HeadFlag:
		return true
	case f.Render == schema.Outline:
		return map[string]string{"H1": "seen"}
	}
	return "the " + strings.ReplaceAll(f.Key, "_", " ") + " of this item"
}

// TestSchemaAgreement: delta validation, the merge, the renderer and the
// parser all follow the one section schema. For every section, an ADD with
// every schema field validates without a DL-005/DL-006 problem, merges, and
// renders every labelled field, which the parser reads back under its key;
// dropping a required field rejects the block (DL-005), dropping a lenient
// one only warns (DL-009).
func TestSchemaAgreement(t *testing.T) {
	for _, sec := range schema.Sections {
		if sec.ID == schema.ResearchThread {
			continue // EDIT-only: created by its first EDIT
		}
		payload := map[string]any{}
		for _, f := range sec.Fields {
			if f.Key != "quarantine_status" {
				payload[f.Key] = fieldValue(sec.ID, f)
			}
		}
		block := func(p map[string]any) (*delta.Block, string) {
			raw, _ := json.Marshal(map[string]any{"operation": "ADD", "section": sec.ID, "target_id": nil, "payload": p})
			blocks, _ := delta.Analyze(body.Parse("```delta\n"+string(raw)+"\n```\n"), limits.Parse{})
			if len(blocks) != 1 {
				t.Fatalf("%s: %d blocks", sec.ID, len(blocks))
			}
			var rules []string
			for _, pr := range blocks[0].Problems {
				rules = append(rules, pr.Rule+" "+pr.Message)
			}
			return &blocks[0], strings.Join(rules, "\n")
		}
		b, probs := block(payload)
		if !b.Valid() || strings.Contains(probs, "DL-005") || strings.Contains(probs, "DL-006") {
			t.Errorf("%s: the full payload does not validate:\n%s", sec.ID, probs)
			continue
		}
		a := New("RS-20260101-schema")
		if ok, ev := a.Apply(Applied{Delta: b.Delta, Agent: "GreenDog"}); !ok {
			t.Errorf("%s: not applied: %+v", sec.ID, ev)
			continue
		}
		p := ParseMarkdown(a.Render(), "artifacts/RS-20260101-schema.md")
		items := p.ByID[sec.Prefix+"1"]
		if len(items) != 1 {
			t.Errorf("%s: %s1 parsed %d times", sec.ID, sec.Prefix, len(items))
			continue
		}
		for _, f := range sec.Fields {
			if f.Label == "" || f.Render == schema.HeadFlag || f.Key == "quarantine_status" || f.Key == "references" {
				continue
			}
			if items[0].Field(f.Key) == nil {
				t.Errorf("%s.%s: rendered label %q is not read back", sec.ID, f.Key, f.Label)
			}
		}
		for _, f := range sec.Fields {
			if f.Required == schema.Optional {
				continue
			}
			q := map[string]any{}
			for k, v := range payload {
				if k != f.Key {
					q[k] = v
				}
			}
			b, probs := block(q)
			// The full payload is a third alternative, so the fields
			// lenient for third alternatives are lenient here.
			lenient := f.Required == schema.Lenient || f.Required == schema.LenientForThirdAlternative
			want := "DL-005"
			if lenient {
				want = "DL-009"
			}
			if !strings.Contains(probs, want) || b.Valid() != lenient {
				t.Errorf("%s without %s: valid %v, problems:\n%s\nwant %s", sec.ID, f.Key, b.Valid(), probs, want)
			}
		}
	}
}
