package rules

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
)

// TestDeltaRuleExamples: for the rules the delta validator reports, the
// registry's Bad example (a whole DELTA body) triggers the rule and the Good
// example does not, so the documentation cannot drift from the checks.
func TestDeltaRuleExamples(t *testing.T) {
	n := 0
	for _, m := range All() {
		if _, ok := delta.Codes[m.ID]; !ok {
			continue
		}
		n++
		has := func(src string) bool {
			blocks, probs := delta.Analyze(body.Parse(src))
			for _, b := range blocks {
				probs = append(probs, b.Problems...)
			}
			for _, p := range probs {
				if p.Rule == m.ID {
					return true
				}
			}
			return false
		}
		if !has(m.Bad) {
			t.Errorf("%s: the Bad example does not trigger the rule", m.ID)
		}
		if has(m.Good) {
			t.Errorf("%s: the Good example triggers the rule", m.ID)
		}
	}
	if n != len(delta.Codes) {
		t.Errorf("registry has %d of the %d delta rules", n, len(delta.Codes))
	}
}
