package artifact

import (
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

func TestParseJSONObject(t *testing.T) {
	src := `{
  "metadata": {"session_id": "S-1", "version": 1.5, "created_at": "not-a-date", "status": "weird", "contributors": [{"agent": "A", "model": "m"}, "B"], "odd key": true},
  "sections": {
    "research_thread": {"id": "RT", "statement": "Q?", "anchors": ["§1"]},
    "hypothesis_slate": [
      {"id": "H2", "name": "Second", "claim": "C2", "killed": true, "killed_by": "X", "killed_at": "2026-01-02T00:00:00Z", "kill_reason": "R"},
      {"id": "H1", "name": "First", "claim": "C1", "third_alternative": true},
      {"name": "No id", "claim": "C3"},
      "not an object"
    ],
    "predictions_table": [{"id": "P1", "condition": "c", "predictions": {"H1": "a", "H2": "b"}}],
    "adversarial_critique": []
  }
}`
	p := ParseJSONObject([]byte(src), "a.json")
	if !p.FromJSON || p.Origin != "a.json" || p.File != "a.json" || len(p.Findings) != 0 {
		t.Fatalf("%+v %v", p, p.Findings)
	}
	var keys []string
	for _, f := range p.Front {
		keys = append(keys, f.Key)
	}
	if strings.Join(keys, ",") != "session_id,version,created_at,status,contributors,odd key" {
		t.Errorf("front keys %q", keys)
	}
	if v, ok := p.Front[1].Value.(float64); !ok || v != 1.5 || p.Art.Version != 0 || p.Art.Status != "weird" || !p.Art.CreatedAt.IsZero() || len(p.Art.Contributors) != 2 {
		t.Errorf("metadata %#v %+v", p.Front[1].Value, p.Art)
	}
	// Sections absent from the object are absent from the rendering.
	var secs []string
	for _, s := range p.Sections {
		secs = append(secs, s.Section)
	}
	if strings.Join(secs, ",") != "research_thread,hypothesis_slate,predictions_table,adversarial_critique" {
		t.Errorf("sections %q", secs)
	}
	a := p.Art
	if got := strings.Join(sectionIDs(a, delta.HypothesisSlate), ","); got != ",H1,H2" {
		t.Errorf("hypotheses %q", got)
	}
	h2 := a.Find(delta.HypothesisSlate, "H2")
	if !h2.Killed || h2.KilledBy != "X" || !h2.KilledAt.Equal(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)) || h2.KillReason != "R" || h2.Str("claim") != "C2" {
		t.Errorf("H2 %+v %s", h2, h2.Fields.Text())
	}
	// The cell of the killed hypothesis reads N/A, as rendered.
	fieldsJSON(t, a.Find(delta.PredictionsTable, "P1"), `{"condition":"c","predictions":{"H1":"a","H2":"N/A"}}`)
	if !IsThirdAlternative(a.Find(delta.HypothesisSlate, "H1")) || a.RT == nil || a.RT.Str("statement") != "Q?" {
		t.Error("H1 flag or RT lost")
	}

	// No metadata: no front matter; no sections: none rendered.
	p = ParseJSONObject([]byte(`{"foo": 1}`), "b.json")
	if p.HasFrontMatter || len(p.Sections) != 0 || len(p.Findings) != 0 {
		t.Errorf("empty object: %v %d %v", p.HasFrontMatter, len(p.Sections), p.Findings)
	}
	// Not JSON / not an object: IN-001 in the JSON file.
	p = ParseJSONObject([]byte("{\n  \"metadata\": {,}\n}"), "c.json")
	if len(p.Findings) != 1 || p.Findings[0].Rule != "IN-001" || p.Findings[0].Pos.Line != 2 || p.Findings[0].Pos.File != "c.json" || !p.FromJSON {
		t.Errorf("bad JSON: %+v", p.Findings)
	}
	p = ParseJSONObject([]byte(`[1]`), "d.json")
	if len(p.Findings) != 1 || !strings.Contains(p.Findings[0].Message, "an array, not an object") {
		t.Errorf("array: %+v", p.Findings)
	}
}
