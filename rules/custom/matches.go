package custom

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"
)

// A condition's `matches` with a constant pattern is compiled once (as
// CEL's own optimisation does) and given a prefilter: the literals one of
// which every match must contain ("(?i)\b(todo|tbd|fixme)\b" cannot match
// a text holding none of "odo", "bd" and "fixme", in any case). Most texts
// hold none, and a search for a few short literals costs a fraction of
// Go's backtracker on a case-insensitive pattern with \b, which was the
// largest part of a typical rule set's cost. FuzzMatchesPrefilter holds
// the prefiltered match to regexp's.

// matchesFast replaces the evaluation of both forms of `matches` (the
// overload ids take precedence over CEL's optimisation, keyed by the
// function's name).
var matchesFast = []*interpreter.RegexOptimization{
	{Function: overloads.Matches, OverloadID: overloads.Matches, RegexIndex: 1, Factory: matchesCall},
	{Function: overloads.Matches, OverloadID: overloads.MatchesString, RegexIndex: 1, Factory: matchesCall},
}

// matchersMade counts the calls given a matcher (for tests: that CEL takes
// them, not its own).
var matchersMade atomic.Int64

func matchesCall(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
	matchersMade.Add(1)
	m, err := newMatcher(pattern)
	if err != nil {
		return nil, err
	}
	return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(values ...ref.Val) ref.Val {
		if len(values) != 2 {
			return types.NoSuchOverloadErr()
		}
		in, ok := values[0].Value().(string)
		if !ok {
			return types.NoSuchOverloadErr()
		}
		return types.Bool(m.match(in))
	}), nil
}

// matcher is a compiled pattern and the literals a match must contain one
// of (none: no prefilter).
type matcher struct {
	re   *regexp.Regexp
	need []literal
}

// literal is a string a match may have to contain: exactly, or (fold) in
// any ASCII case, held in lower case.
type literal struct {
	s    string
	fold bool
}

// maxNeed is the most literals a prefilter tries; more, and the search
// would cost what the pattern does.
const maxNeed = 8

func newMatcher(pattern string) (*matcher, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	m := &matcher{re: re}
	if tree, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		if need, ok := needed(tree.Simplify()); ok {
			m.need = need
		}
	}
	return m, nil
}

func (m *matcher) match(s string) bool {
	if m.need != nil && !holdsAny(s, m.need) {
		return false
	}
	return m.re.MatchString(s)
}

// needed returns literals one of which every match of re contains, when
// it can tell.
func needed(re *syntax.Regexp) ([]literal, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		s := string(re.Rune)
		// U+FFFD in a pattern also matches a byte of invalid UTF-8 in the
		// text, which a byte search would not find.
		if s == "" || strings.ContainsRune(s, utf8.RuneError) || fold && !foldsInASCII(s) {
			return nil, false
		}
		if fold {
			s = strings.ToLower(s)
		}
		return []literal{{s, fold}}, true
	case syntax.OpCapture, syntax.OpPlus:
		return needed(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needed(re.Sub[0])
		}
	case syntax.OpConcat:
		// Any part's literals will do: the longest shortest one is the
		// most selective.
		var best []literal
		for _, sub := range re.Sub {
			if l, ok := needed(sub); ok && (best == nil || shortest(l) > shortest(best)) {
				best = l
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []literal
		for _, sub := range re.Sub {
			l, ok := needed(sub)
			if !ok || len(all)+len(l) > maxNeed {
				return nil, false
			}
			all = append(all, l...)
		}
		return all, true
	}
	return nil, false
}

func shortest(l []literal) int {
	n := len(l[0].s)
	for _, x := range l[1:] {
		n = min(n, len(x.s))
	}
	return n
}

// foldsInASCII reports whether every rune of s is ASCII and matches, case
// folded, only ASCII runes: not k or s, which also match the Kelvin sign
// and the long s.
func foldsInASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return false
		case c == 'k' || c == 'K' || c == 's' || c == 'S':
			return false
		}
	}
	return true
}

// holdsAny reports whether s contains one of the literals.
func holdsAny(s string, need []literal) bool {
	for _, l := range need {
		if l.fold && containsFold(s, l.s) || !l.fold && strings.Contains(s, l.s) {
			return true
		}
	}
	return false
}

// containsFold reports whether s contains lit (lower-case ASCII) in any
// ASCII case.
func containsFold(s, lit string) bool {
	for i := 0; i+len(lit) <= len(s); i++ {
		j := 0
		for j < len(lit) && s[i+j]|asciiLower(s[i+j]) == lit[j] {
			j++
		}
		if j == len(lit) {
			return true
		}
	}
	return false
}

// asciiLower is the bit that lowers an upper-case ASCII letter (0 for
// every other byte).
func asciiLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return 0x20
	}
	return 0
}
