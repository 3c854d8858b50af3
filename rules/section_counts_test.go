package rules

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/schema"
)

// TestSectionCountsFromSchema: the count rules check the schema's minimum
// (and the slate's maximum), not numbers of their own.
func TestSectionCountsFromSchema(t *testing.T) {
	for _, tc := range []struct{ id, section, prefix, want string }{
		{"EH-001", delta.HypothesisSlate, "H", "has 3 active hypotheses; the minimum is 4"},
		{"ET-001", delta.DiscriminativeTests, "T", "has 3 active tests; the minimum is 4"},
		{"EA-001", delta.AssumptionLedger, "A", "has 3 active assumptions; the minimum is 4"},
		{"EC-001", delta.AdversarialCritique, "C", "has 3 active critiques; the minimum is 4"},
	} {
		s := schema.Get(tc.section)
		old := s.Min
		s.Min = 4
		d := newDoc().section(tc.section).item(tc.prefix+"1", "a").item(tc.prefix+"2", "b").item(tc.prefix+"3", "c")
		expect(t, tc.id, d.p, nil, tc.want)
		s.Min = old
		expect(t, tc.id, d.p, nil)
	}
	s := schema.Get(schema.HypothesisSlate)
	old := s.Max
	s.Max = 2
	d := newDoc().section(delta.HypothesisSlate).item("H1", "a").item("H2", "b").item("H3", "c")
	expect(t, "EH-002", d.p, nil, "has 3 active hypotheses; the maximum is 2")
	s.Max = old
	expect(t, "EH-002", d.p, nil)
}
