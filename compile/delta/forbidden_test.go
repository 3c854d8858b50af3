package delta_test

import (
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// TestForbiddenPayloadKeys (DL-012): each key the merge drops from a
// payload is reported at the key, as a warning, and the delta still
// applies — without the key. Keys inside a field's value are data.
func TestForbiddenPayloadKeys(t *testing.T) {
	for _, key := range delta.ForbiddenKeys {
		for _, tc := range []struct{ op, js string }{
			{delta.OpAdd, `{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {"name": "Lineage", "claim": "Fate follows ancestry", "mechanism": "Partitioned determinants", "anchors": ["§42"], "KEY": {"isAdmin": true}}}`},
			{delta.OpEdit, `{"operation": "EDIT", "section": "hypothesis_slate", "target_id": "H1", "payload": {"KEY": 1, "claim": "Fate follows ancestry, revised"}}`},
			{delta.OpEdit, `{"operation": "EDIT", "section": "research_thread", "target_id": "RT", "payload": {"statement": "Lineage or gradient?", "KEY": "x"}}`},
		} {
			js := strings.Replace(tc.js, "KEY", key, 1)
			src := "```delta\n" + js + "\n```\n"
			blocks, _ := delta.Analyze(body.Parse(src), limits.Parse{})
			if len(blocks) != 1 || !blocks[0].Valid() {
				t.Fatalf("%s: the block is not valid: %+v", js, blocks)
			}
			var got []diag.Local
			for _, p := range blocks[0].Problems {
				if p.Rule == ruleid.DL012 {
					got = append(got, p)
				}
			}
			want := `"` + key + `"`
			if len(got) != 1 || got[0].Severity != diag.Warning || src[got[0].Start:got[0].End] != want {
				t.Errorf("%s: DL-012 findings %+v, want one warning at %s", js, got, want)
			}
			// The merge drops it.
			a := artifact.New("RS-20260101-keys")
			if tc.op == delta.OpEdit && blocks[0].Delta.Section == delta.HypothesisSlate {
				add := delta.Delta{Op: delta.OpAdd, Section: delta.HypothesisSlate, Payload: blocks[0].Delta.Payload.Clone()}
				add.Payload.Set("name", add.Payload.Get("claim"))
				if ok, ev := a.Apply(artifact.Applied{Delta: &add, Agent: "GreenDog", At: time.Unix(1, 0)}); !ok {
					t.Fatalf("setting up H1: %+v", ev)
				}
			}
			if ok, ev := a.Apply(artifact.Applied{Delta: blocks[0].Delta, Agent: "GreenDog", At: time.Unix(2, 0), Msg: 1}); !ok {
				t.Fatalf("%s: not applied: %+v", js, ev)
			}
			for _, sec := range delta.Sections {
				for _, it := range a.Section(sec) {
					if it.Fields.Has(key) {
						t.Errorf("%s: %s was stored on %s", js, key, it.ID)
					}
				}
			}
		}
	}
	// Not a top-level payload key: not reported.
	src := "```delta\n" + `{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {"name": "Lineage", "claim": "c", "mechanism": "m", "anchors": ["§42"], "notes": {"__proto__": 1}, "prototype_strain": "MJ11"}}` + "\n```\n"
	blocks, _ := delta.Analyze(body.Parse(src), limits.Parse{})
	for _, p := range blocks[0].Problems {
		if p.Rule == ruleid.DL012 {
			t.Errorf("nested or longer key reported: %+v", p)
		}
	}
}
