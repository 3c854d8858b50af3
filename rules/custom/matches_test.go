package custom

import (
	"regexp"
	"slices"
	"testing"
	"unicode"

	"github.com/brenner-ci/brenner-ci/diag"
)

// TestFoldsInASCII: among ASCII bytes, only k and s fold to runes outside
// ASCII (the Kelvin sign, the long s), which is what foldsInASCII assumes.
func TestFoldsInASCII(t *testing.T) {
	for c := rune(0); c < 0x80; c++ {
		outside := false
		for r := unicode.SimpleFold(c); r != c; r = unicode.SimpleFold(r) {
			outside = outside || r >= 0x80
		}
		if got := foldsInASCII(string(c)); got == outside {
			t.Errorf("%q: foldsInASCII %v, folds outside ASCII %v", c, got, outside)
		}
	}
}

// TestMatcherPrefilter: the literals a pattern needs, and the matcher's
// answer on texts with and without them, which is regexp's.
func TestMatcherPrefilter(t *testing.T) {
	for _, c := range []struct {
		pattern string
		need    []literal // nil: no prefilter
		texts   []string
	}{
		{`(?i)\b(todo|tbd|fixme)\b`, []literal{{"odo", true}, {"bd", true}, {"fixme", true}},
			[]string{"a TODO here", "ToDo", "mastodon", "FiXmE later", "nothing", "", "t\u212Ado"}},
		{`abc+d`, []literal{{"ab", false}}, []string{"abcccd", "abd", "xxabcd", "ABCD"}},
		{`(?i)kelvin`, nil, []string{"\u212Aelvin", "KELVIN", "none"}},
		{`(?i)is`, nil, []string{"\u017F", "IS", "i\u017F"}},
		{`x\x{FFFD}y`, nil, []string{"x\xffy", "x\uFFFDy", "xy"}},
		{`(a|)b`, []literal{{"b", false}}, []string{"b", "ab", "c"}},
		{`a*`, nil, []string{"", "b"}},
		{`(?i)(ab){2,}`, []literal{{"ab", true}}, []string{"ABab", "ab", "b"}},
		{`\d+ (apples|pears)`, []literal{{"apples", false}, {"pears", false}}, []string{"3 apples", "3 plums", "pears"}},
	} {
		m, err := newMatcher(c.pattern)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		if !slices.Equal(m.need, c.need) {
			t.Errorf("%q: needs %v, want %v", c.pattern, m.need, c.need)
		}
		re := regexp.MustCompile(c.pattern)
		for _, s := range c.texts {
			if got, want := m.match(s), re.MatchString(s); got != want {
				t.Errorf("%q on %q: %v, regexp %v", c.pattern, s, got, want)
			}
		}
	}
}

// TestMatchesFastIsUsed: a condition's matches, in both forms, is
// evaluated by a matcher, not by CEL's own optimisation.
func TestMatchesFastIsUsed(t *testing.T) {
	env, err := envFor("item")
	if err != nil {
		t.Fatal(err)
	}
	before := matchersMade.Load()
	at := func(string, int, int) diag.Pos { return diag.Pos{File: "f", Line: 1, Col: 1} }
	c, errs := program(env, `item.fields.claim.matches("(?i)todo") || matches(item.id, "H[0-9]")`, "when", at, Limits{Eval: 10_000, Bytes: 1 << 20})
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	if n := matchersMade.Load() - before; n != 2 {
		t.Fatalf("%d calls got a matcher, want 2", n)
	}
	it := *sampleModel()["item"]["item"].(*Item)
	v, _, err := c.run(&vars{item: &it})
	if err != nil || v.Value() != true {
		t.Fatalf("got %v (%v), want true: H1 matches H[0-9]", v, err)
	}
}

// FuzzMatchesPrefilter holds a matcher to regexp on random patterns and
// texts.
func FuzzMatchesPrefilter(f *testing.F) {
	for _, s := range [][2]string{
		{`(?i)\b(todo|tbd|fixme)\b`, "a TODO"}, {`(?i)kelvin`, "\u212Aelvin"}, {`(?i)s`, "\u017F"},
		{`x\x{FFFD}`, "x\xff"}, {`(?i)ab|cd`, "xCd"}, {`a+b?c{2,3}`, "aacc"}, {`^$`, ""}, {`(?i)é`, "É"},
		{`(?i)[a-z]at`, "CAT"}, {`\bword\b|other`, "a word"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		m, err := newMatcher(pattern)
		if err != nil {
			t.Fatalf("%q compiles in regexp, not in newMatcher: %v", pattern, err)
		}
		if got, want := m.match(text), re.MatchString(text); got != want {
			t.Fatalf("%q on %q: %v, regexp %v (needs %v)", pattern, text, got, want, m.need)
		}
	})
}
