package rules

import (
	"regexp"
	"strings"
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

// TestLowerEq: lowerEq(s, n) is strings.ToLower(s) == n.
func TestLowerEq(t *testing.T) {
	strs := []string{"", "Contributors", "contributors", "CONTRIBUTORS", "Contributorſ", "Ǆ", "ǆ", "İ", "i̇", "K", "k",
		"Stra\u00dfe", "strasse", "\xff", "\ufffd", "a\xffb", "a\ufffdb", "ΣΑΣ", "σας", "full artifact", "Full Artifact"}
	for _, s := range strs {
		for _, n := range strs {
			if got, want := lowerEq(s, n), strings.ToLower(s) == n; got != want {
				t.Errorf("lowerEq(%q, %q) = %v, want %v", s, n, got, want)
			}
		}
	}
}
