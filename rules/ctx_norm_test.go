package rules

import (
	"regexp"
	"testing"
)

// TestCutParenSuffixIsTheRegexp: the hand-written cut removes exactly what
// the pattern it replaced removed.
func TestCutParenSuffixIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`\s*\([^)]*\)\s*$`)
	cases := []string{"", "a", "Hypotheses (ranked)", "a (b) (c)", "a (b(c)", "a(b)", "(x)", "a (b) ", "a ( b )\t",
		"a ()", "a (b", "a b)", "a )(", "a (b)) ", "a ((b)", "é (ü)", " (a) (b(c) ", "x\t(y)\n", "a (b) c"}
	alphabet := []string{"a", " ", "(", ")", "\t", "é"}
	for n := 0; n < 6; n++ {
		var gen func(prefix string, k int)
		gen = func(prefix string, k int) {
			if k == 0 {
				cases = append(cases, prefix)
				return
			}
			for _, c := range alphabet {
				gen(prefix+c, k-1)
			}
		}
		gen("", n)
	}
	for _, c := range cases {
		if got, want := cutParenSuffix(c), re.ReplaceAllString(c, ""); got != want {
			t.Errorf("cutParenSuffix(%q) = %q, want %q", c, got, want)
		}
	}
}
