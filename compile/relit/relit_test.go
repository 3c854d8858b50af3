package relit

import (
	"regexp"
	"slices"
	"testing"
	"unicode"
)

// TestFoldsInASCII: among ASCII runes, only k and s fold to runes outside
// ASCII (the Kelvin sign, the long s), which is what foldsInASCII assumes.
func TestFoldsInASCII(t *testing.T) {
	for c := rune(0); c < 0x80; c++ {
		outside := false
		for r := unicode.SimpleFold(c); r != c; r = unicode.SimpleFold(r) {
			outside = outside || r >= 0x80
		}
		if got := foldsInASCII(c); got == outside {
			t.Errorf("%q: foldsInASCII %v, folds outside ASCII %v", c, got, outside)
		}
	}
	if foldsInASCII('é') {
		t.Error("é: foldsInASCII, want false (not ASCII)")
	}
}

// TestPrefilter: the literals a pattern needs, and MatchString's answer on
// texts with and without them, which is regexp's.
func TestPrefilter(t *testing.T) {
	for _, c := range []struct {
		pattern string
		need    []literal // nil: no prefilter
		texts   []string
	}{
		{`(?i)\b(todo|tbd|fixme)\b`, []literal{{"odo", true}, {"bd", true}, {"fixme", true}},
			[]string{"a TODO here", "ToDo", "mastodon", "FiXmE later", "nothing", "", "t\u212Ado"}},
		{`abc+d`, []literal{{"ab", false}}, []string{"abcccd", "abd", "xxabcd", "ABCD"}},
		// A literal with k or s: its longest run without them.
		{`(?i)kelvin`, []literal{{"elvin", true}}, []string{"\u212Aelvin", "KELVIN", "none", "ELVIN"}},
		{`(?i)\b(scale|physics)\b`, []literal{{"cale", true}, {"phy", true}},
			[]string{"Scale check", "a \u017Fcale", "x\u017Fcale y", "PHYSICS", "escalate", "physic", "none"}},
		{`(?i)is`, []literal{{"i", true}}, []string{"\u017F", "IS", "i\u017F", "I\u017F"}},
		{`(?i)s`, nil, []string{"\u017F", "S", "x"}},
		{`(?i)third\s+alternative`, []literal{{"alternative", true}},
			[]string{"A Third  Alternative", "third\talternative", "thirdalternative", "alternative", ""}},
		// U+FFFD also matches a byte of invalid UTF-8: the runs around it.
		{`x\x{FFFD}y`, []literal{{"x", false}}, []string{"x\xffy", "x\uFFFDy", "xy", "y"}},
		{`\x{FFFD}`, nil, []string{"\xff", "a"}},
		{`(?i)é`, nil, []string{"É", "é", "e"}},
		{`§\s*\d`, []literal{{"§", false}}, []string{"see § 3", "§3", "section 3", "§ x"}},
		{`(a|)b`, []literal{{"b", false}}, []string{"b", "ab", "c"}},
		{`a*`, nil, []string{"", "b"}},
		{`(?i)(ab){2,}`, []literal{{"ab", true}}, []string{"ABab", "ab", "b"}},
		{`\d+ (apples|pears)`, []literal{{"apples", false}, {"pears", false}}, []string{"3 apples", "3 plums", "pears"}},
	} {
		r, err := Compile(c.pattern)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		if !slices.Equal(r.need, c.need) {
			t.Errorf("%q: needs %v, want %v", c.pattern, r.need, c.need)
		}
		re := regexp.MustCompile(c.pattern)
		for _, s := range c.texts {
			if got, want := r.MatchString(s), re.MatchString(s); got != want {
				t.Errorf("%q on %q: %v, regexp %v", c.pattern, s, got, want)
			}
		}
	}
}

func TestMustCompile(t *testing.T) {
	if r := MustCompile(`a+`); !r.MatchString("xa") || r.MatchString("b") {
		t.Error("MustCompile(`a+`) does not match as a+ does")
	}
	defer func() {
		if recover() == nil {
			t.Error("MustCompile(`(`) did not panic")
		}
	}()
	MustCompile(`(`)
}

// FuzzMatchString holds MatchString to regexp on random patterns and texts.
func FuzzMatchString(f *testing.F) {
	for _, s := range [][2]string{
		{`(?i)\b(todo|tbd|fixme)\b`, "a TODO"}, {`(?i)kelvin`, "\u212Aelvin"}, {`(?i)s`, "\u017F"},
		{`x\x{FFFD}`, "x\xff"}, {`(?i)ab|cd`, "xCd"}, {`a+b?c{2,3}`, "aacc"}, {`^$`, ""}, {`(?i)é`, "É"},
		{`(?i)[a-z]at`, "CAT"}, {`\bword\b|other`, "a word"}, {`(?i)\b(scale|physics)\b`, "x\u017Fcale"},
		{`(?i)third\s+alternative`, "THIRD ALTERNATIVE"}, {`(?i)sks`, "\u017F\u212A\u017F"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		r, err := Compile(pattern)
		if err != nil {
			t.Fatalf("%q compiles in regexp, not in relit: %v", pattern, err)
		}
		if got, want := r.MatchString(text), re.MatchString(text); got != want {
			t.Fatalf("%q on %q: %v, regexp %v (needs %v)", pattern, text, got, want, r.need)
		}
	})
}
