// Package relit is a regular expression with a literal prefilter: the
// literals one of which every match must contain, found in the pattern's
// syntax tree when it is compiled ("(?i)\b(todo|tbd|fixme)\b" cannot match
// a text holding none of "odo", "bd" and "fixme", in any case). Most texts
// a rule asks about hold none of them, and a search for a few short
// literals costs a fraction of Go's matcher on a case-insensitive pattern
// with \b. A pattern with no such literals is matched by regexp alone.
// FuzzMatchString holds MatchString to regexp's.
package relit

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Regexp is a compiled pattern and its prefilter.
type Regexp struct {
	re   *regexp.Regexp
	need []literal // nil: no prefilter
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

// Compile compiles pattern (regexp's syntax) and finds its prefilter.
func Compile(pattern string) (*Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	r := &Regexp{re: re}
	if tree, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		if need, ok := needed(tree.Simplify()); ok {
			r.need = need
		}
	}
	return r, nil
}

// MustCompile is Compile for a pattern known to be valid: it panics on an
// error (package-level patterns, as regexp.MustCompile).
func MustCompile(pattern string) *Regexp {
	r, err := Compile(pattern)
	if err != nil {
		panic("relit: " + err.Error())
	}
	return r
}

// MatchString reports whether s holds a match of the pattern, as
// regexp.MatchString does.
func (r *Regexp) MatchString(s string) bool {
	if r.need != nil && !holdsAny(s, r.need) {
		return false
	}
	return r.re.MatchString(s)
}

// needed returns literals one of which every match of re contains, when
// it can tell.
func needed(re *syntax.Regexp) ([]literal, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		if s := safeRun(string(re.Rune), fold); s != "" {
			if fold {
				s = strings.ToLower(s)
			}
			return []literal{{s, fold}}, true
		}
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

// safeRun is the longest run of the literal s that a byte search finds in
// every match of s, or "": every rune but U+FFFD, which in a pattern also
// matches a byte of invalid UTF-8 in the text; and with fold, ASCII runes
// only, and not k or s, which also match the Kelvin sign and the long s.
// Any match of s holds a match of each of its runs, so a run will do where
// the whole literal cannot.
func safeRun(s string, fold bool) string {
	best, start := "", 0
	for i := 0; i <= len(s); {
		r, n := utf8.RuneError, 1
		if i < len(s) {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if i == len(s) || r == utf8.RuneError || fold && !foldsInASCII(r) {
			if i-start > len(best) {
				best = s[start:i]
			}
			start = i + n
		}
		i += n
	}
	return best
}

func shortest(l []literal) int {
	n := len(l[0].s)
	for _, x := range l[1:] {
		n = min(n, len(x.s))
	}
	return n
}

// foldsInASCII reports whether r is ASCII and matches, case folded, only
// ASCII runes: not k or s, which also match the Kelvin sign and the long s.
func foldsInASCII(r rune) bool {
	return r < utf8.RuneSelf && r != 'k' && r != 'K' && r != 's' && r != 'S'
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
