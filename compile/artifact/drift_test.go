package artifact

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

// TestDrift: a persisted artifact that is the compiled rendering has no
// drift; a hand edit, a removed item, an added item and a kill no delta
// explains are each named, and the position is the first differing item's.
func TestDrift(t *testing.T) {
	s := newSeq(t)
	s.do("W", delta.OpEdit, delta.ResearchThread, "RT", `{"statement":"s","context":"c","why_it_matters":"w","anchors":["§1"]}`)
	h1 := s.add(delta.HypothesisSlate, hyp("alpha"))
	s.add(delta.HypothesisSlate, hyp("beta"))
	s.a.Version = 1
	src := s.a.Render()

	p := ParseMarkdown(src, "artifacts/S.md")
	if v, ok := p.Version(); !ok || v != 1 {
		t.Fatalf("Version() = %d, %v; want 1, true", v, ok)
	}
	if diffs, _ := Drift(s.a, p); len(diffs) != 0 {
		t.Fatalf("the compiled rendering drifts: %q", diffs)
	}

	for _, tc := range []struct {
		name, from, to, want string
	}{
		{"edited claim", "**Claim**: c", "**Claim**: changed by hand", h1 + " changed claim"},
		{"white space only", "**Claim**: c", "**Claim**:  c ", ""},
	} {
		edited := strings.Replace(string(src), tc.from, tc.to, 1)
		if edited == string(src) {
			t.Fatalf("%s: %q not in the rendering:\n%s", tc.name, tc.from, src)
		}
		diffs, first := Drift(s.a, ParseMarkdown([]byte(edited), "artifacts/S.md"))
		got := strings.Join(diffs, "; ")
		if got != tc.want {
			t.Errorf("%s: Drift = %q; want %q", tc.name, got, tc.want)
		}
		if tc.want != "" && (first.File != "artifacts/S.md" || first.Line == 0) {
			t.Errorf("%s: first difference at %+v; want a line of artifacts/S.md", tc.name, first)
		}
	}

	// The thread moves on: a third hypothesis and a kill that the file
	// does not have.
	s.add(delta.HypothesisSlate, hyp("gamma"))
	s.do("A", delta.OpKill, delta.HypothesisSlate, h1, `{"reason":"refuted"}`)
	diffs, _ := Drift(s.a, p)
	got := strings.Join(diffs, "; ")
	for _, want := range []string{h1 + " is killed in the thread but active in the file", "H3 is missing from the file"} {
		if !strings.Contains(got, want) {
			t.Errorf("Drift = %q; want it to contain %q", got, want)
		}
	}
}
