package artifact

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// TestSourcesMarkdown: a markdown item's references are the value its
// References field reads back as, positioned at the field's line; items
// without the field have none.
func TestSourcesMarkdown(t *testing.T) {
	src := `---
session_id: "RS-20260310-refs"
---
# Artifact

## 2. Hypothesis Slate

### H1: First
**Claim**: One.
**References**: RS-20260301-a/H2 (extends), RS-20260301-b/T1

### ~~H2: Second~~
**Claim**: Two.
**Killed by**: X (2026-03-01T00:00:00Z)
`
	p := ParseMarkdown([]byte(src), "a.md")
	ss := p.Sources()
	if len(ss) != 2 || ss[0].ID != "H1" || ss[1].ID != "H2" || ss[0].Killed || !ss[1].Killed || ss[0].Section != delta.HypothesisSlate {
		t.Fatalf("sources %+v", ss)
	}
	v, pos := ss[0].Field("references")
	if v == nil || v.Kind != jsonv.Array || len(v.Arr()) != 2 {
		t.Fatalf("H1 references %v", v)
	}
	if got := v.Text(); got != `[{"session":"RS-20260301-a","item":"H2","relation":"extends"},{"session":"RS-20260301-b","item":"T1"}]` {
		t.Errorf("H1 references read as %s", got)
	}
	if pos.File != "a.md" || pos.Line != 10 {
		t.Errorf("H1 references at %+v, want line 10", pos)
	}
	// A part of a markdown value has no position of its own.
	if at := ss[0].At(v.Arr()[1], pos); at != pos {
		t.Errorf("element at %+v", at)
	}
	if v, _ := ss[1].Field("references"); v != nil {
		t.Errorf("H2 has references %s", v.Text())
	}
}

// TestSourcesJSON: the items of a JSON artifact object are positioned in
// the JSON file, not in its rendering, and keep their values as written
// (references that are not an array stay so; the rendering would make
// them one).
func TestSourcesJSON(t *testing.T) {
	src := `{
  "metadata": {"session_id": "S-1"},
  "sections": {
    "research_thread": {"statement": "Q?"},
    "hypothesis_slate": [
      {"id": "H1", "claim": "C1",
       "references": {"session": "S-0", "item": "H2", "relation": "extends"}},
      "not an item",
      {"id": "H2", "claim": "C2", "killed": true, "references": [{"session": "S-0", "item": "H3", "relation": "refines"}]}
    ],
    "predictions_table": {"P1": {}}
  }
}`
	p := ParseJSONObject([]byte(src), "a.json")
	ss := p.Sources()
	var ids []string
	for _, s := range ss {
		ids = append(ids, s.ID)
	}
	if strings.Join(ids, ",") != "RT,H1,H2" || !ss[2].Killed || ss[1].Killed {
		t.Fatalf("sources %q %+v", ids, ss)
	}
	if ss[1].Pos != (diag.Pos{File: "a.json", Line: 6, Col: 14, EndLine: 6, EndCol: 18}) {
		t.Errorf("H1 at %+v", ss[1].Pos)
	}
	v, pos := ss[1].Field("references")
	if v == nil || v.Kind != jsonv.Object {
		t.Fatalf("H1 references %v", v)
	}
	if pos.File != "a.json" || pos.Line != 7 || pos.Col != 22 {
		t.Errorf("H1 references at %+v", pos)
	}
	v, pos = ss[2].Field("references")
	rel := v.Arr()[0].Get("relation")
	if at := ss[2].At(rel, pos); at.Line != 9 || at.Col != 111 || at.EndCol != 120 {
		t.Errorf("H2 relation at %+v", at)
	}
	// RT has no id in the file: its position is the object's first byte.
	if ss[0].Pos.Line != 4 || ss[0].Pos.Col != 24 {
		t.Errorf("RT at %+v", ss[0].Pos)
	}
}
