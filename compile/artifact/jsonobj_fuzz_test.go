package artifact

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// FuzzParseJSONObject: a JSON artifact object of any content parses or
// gives a finding; it never panics, and every position of its rendering
// is carried back into the JSON file.
func FuzzParseJSONObject(f *testing.F) {
	f.Add([]byte(`{"metadata": {"session_id": "RS-20251230-cell-fate", "version": 1}, "sections": {"hypothesis_slate": [{"id": "H1", "claim": "x"}]}}`))
	f.Add([]byte(`[[[[`))
	f.Add([]byte(`{"metadata": 1, "sections": {"research_thread": null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := ParseJSONObject(data, "a.json")
		if p == nil {
			t.Fatal("nil")
		}
		if p.places == nil {
			return // not an object: its finding is in the file already
		}
		lines := diag.NewLineIndex(data).Lines()
		for l := 1; l <= diag.NewLineIndex(p.Src).Lines()+1; l++ {
			for _, col := range []int{1, 3} {
				q := p.OriginPos(diag.Pos{File: "a.json", Line: l, Col: col, EndLine: l, EndCol: col + 2})
				if q.File != "a.json" || q.Line < 1 || q.Line > lines || q.EndLine < q.Line {
					t.Fatalf("line %d:%d maps to %+v, outside the %d lines of the file", l, col, q, lines)
				}
			}
		}
	})
}
