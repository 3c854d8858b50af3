package artifact

import "testing"

// FuzzParseJSONObject: a JSON artifact object of any content parses or
// gives a finding; it never panics.
func FuzzParseJSONObject(f *testing.F) {
	f.Add([]byte(`{"metadata": {"session_id": "RS-20251230-cell-fate", "version": 1}, "sections": {"hypothesis_slate": [{"id": "H1", "claim": "x"}]}}`))
	f.Add([]byte(`[[[[`))
	f.Add([]byte(`{"metadata": 1, "sections": {"research_thread": null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := ParseJSONObject(data, "a.json")
		if p == nil {
			t.Fatal("nil")
		}
	})
}
