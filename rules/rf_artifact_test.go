package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// TestArtifactReferenceMessagesAreTheDeltas: a malformed references value
// gives, in an artifact, the RF-003 messages delta validation gives for it
// in a payload, the subject aside ("H1.references" for
// "payload.references"), suggestions included.
func TestArtifactReferenceMessagesAreTheDeltas(t *testing.T) {
	compared := 0
	for _, refs := range []string{
		`{"session": "S", "item": "H1", "relation": "extends"}`,
		`"S/H1"`, `3`, `true`, `null`, `[]`,
		`["S/H1", 2, null, [], {}]`,
		`[{"session": "S", "item": "H1"}]`,
		`[{"session": " ", "item": "H1", "relation": "extends"}]`,
		`[{"item": "H1", "relation": "extends"}, {"session": "S", "relation": "extends"}, {"relation": "refines"}]`,
		`[{"session": "S", "item": "H1", "relation": null}]`,
		`[{"session": "S", "item": "H1", "relation": 3}, {"session": "S", "item": "H1", "relation": ["extends"]}]`,
		`[{"session": "S", "item": "H1", "relation": "builds_on"}, {"session": "S", "item": "H1", "relation": "Refines"}]`,
		`[{"session": "S", "item": "H1", "relation": "extend"}, {"session": "S", "item": "H1", "relation": "informed-by"}, {"session": "S", "item": "H1", "relation": "replicate"}]`,
		`[{"session": "S", "item": "H1", "relation": "supercedes"}, {"session": "S", "item": "H1", "relation": "refuted"}, {"session": "S", "item": "H1", "relation": ""}]`,
		`[{"session": "S", "item": "H1", "relation": "extends"}, {"session": "S", "item": "H2", "relation": "informed_by"}]`,
	} {
		raw := `{"operation": "ADD", "section": "hypothesis_slate", "target_id": null, "payload": {"name": "N", "claim": "C", "mechanism": "M", "anchors": ["§42"], "references": ` + refs + `}}`
		src := "## Deltas\n\n```delta\n" + raw + "\n```\n"
		blocks, _ := delta.Analyze(body.Parse(src), limits.Parse{})
		if len(blocks) != 1 {
			t.Fatalf("%s: %d blocks", refs, len(blocks))
		}
		var want []string
		for _, p := range blocks[0].Problems {
			if p.Rule == "RF-003" {
				want = append(want, strings.TrimPrefix(p.Message, "payload.references"))
			}
		}
		v, err := jsonv.ParseString(refs)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range referenceProblems(v) {
			got = append(got, p.what)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("references %s:\nartifact %q\ndelta    %q", refs, got, want)
		}
		compared += len(want)
	}
	if compared < 20 {
		t.Errorf("only %d delta messages compared", compared)
	}
}

// TestArtifactReferencesOfAnItemWithoutID: an item without an id is named
// by its place in its section, and its references do not reach the
// cross-session rules (they have no item to start from).
func TestArtifactReferencesOfAnItemWithoutID(t *testing.T) {
	src := `{"metadata": {"session_id": "S-2"}, "sections": {"hypothesis_slate": [
  {"id": "H1", "claim": "C1", "references": [{"session": "S-1", "item": "H1", "relation": "extends"}]},
  {"claim": "C2", "references": [{"session": "S-1", "item": "H2", "relation": "extend"}]}
]}}`
	p := artifact.ParseJSONObject([]byte(src), "a.json")
	fs := artifactReferenceFindings(p, "S-2", nil)
	if len(fs) != 1 || !strings.HasPrefix(fs[0].Message, "hypothesis_slate[1].references[0] has relation \"extend\"") || fs[0].Pos.Line != 3 {
		t.Errorf("findings %+v", fs)
	}
	f := artifactFacts(p, "S-2")
	if len(f.Refs) != 1 || f.Refs[0].From != "H1" || f.Refs[0].Pos.Line != 2 || f.Artifact != "a.json" || f.Key != "S-2" {
		t.Errorf("facts %+v", f)
	}
}
