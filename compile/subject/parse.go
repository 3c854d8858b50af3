package subject

import (
	"strconv"
	"strings"
)

// prefixes are the lenient prefix words (lenientPrefix), also the spec's
// strict ones but DELTA[role].
var prefixes = [...]struct {
	word string
	kind Kind
}{
	{"KICKOFF", Kickoff}, {"COMPILED", Compiled}, {"CRITIQUE", Critique}, {"ACK", Ack}, {"CLAIM", Claim},
	{"HANDOFF", Handoff}, {"BLOCKED", Blocked}, {"QUESTION", Question}, {"INFO", Info},
}

// parseFast is parseRegexp read byte by byte. ok is false when s needs the
// patterns: no prefix matched in ASCII and the text before the first colon
// holds a non-ASCII byte, which could be a Kelvin sign or a long s that
// (?i) matches for the k of KICKOFF, ACK and BLOCKED or the s of QUESTION.
func parseFast(s string) (sub Subject, ok bool) {
	sub = Subject{Raw: s, DescOff: len(s), Strict: strictPrefix(s)}
	lead := 0
	for lead < len(s) && (s[lead] == ' ' || s[lead] == '\t') {
		lead++
	}
	t := s[lead:]
	end := -1
	if hasFoldPrefix(t, "DELTA[") {
		if j := strings.IndexByte(t[6:], ']'); j >= 0 {
			if k := skipSpace(t, 6+j+1); k < len(t) && t[k] == ':' {
				sub.Kind, sub.Role, end = Delta, t[6:6+j], k+1
			}
		}
	}
	for i := 0; end < 0 && i < len(prefixes); i++ {
		if p := prefixes[i]; hasFoldPrefix(t, p.word) {
			if k := skipSpace(t, len(p.word)); k < len(t) && t[k] == ':' {
				sub.Kind, end = p.kind, k+1
			}
		}
	}
	if end < 0 {
		colon := strings.IndexByte(t, ':')
		return sub, colon < 0 || isASCII(t[:colon])
	}
	rest := t[end:]
	trimmed := strings.TrimLeft(rest, " \t")
	sub.DescOff = lead + end + (len(rest) - len(trimmed))
	sub.Desc = strings.TrimRight(trimmed, " \t\r\n")
	if sub.Kind == Compiled {
		sub.Version, sub.StrictVersion = version(sub.Desc)
	}
	return sub, true
}

// strictPrefix is StrictPrefix.MatchString(s).
func strictPrefix(s string) bool {
	for _, p := range prefixes {
		if len(s) > len(p.word) && s[:len(p.word)] == p.word && s[len(p.word)] == ':' {
			return true
		}
	}
	if !strings.HasPrefix(s, "DELTA[") {
		return false
	}
	j := 6
	for j < len(s) && 'a' <= s[j] && s[j] <= 'z' {
		j++
	}
	return j > 6 && j+1 < len(s) && s[j] == ']' && s[j+1] == ':'
}

// version is strictVersion's match, else anyVersion's: the N of vN and
// whether it opens d.
func version(d string) (n int, strict bool) {
	if digits, ok := versionAt(d, 0); ok && d[0] == 'v' {
		n, _ = strconv.Atoi(digits)
		return n, true
	}
	for i := 0; i < len(d); i++ {
		if (d[i] == 'v' || d[i] == 'V') && (i == 0 || !isWord(d[i-1])) {
			if digits, ok := versionAt(d, i); ok {
				n, _ = strconv.Atoi(digits)
				return n, false
			}
		}
	}
	return 0, false
}

// versionAt reports whether d[i] (a v) is followed by digits and then a
// word boundary (\d+\b), and returns the digits.
func versionAt(d string, i int) (string, bool) {
	j := i + 1
	for j < len(d) && '0' <= d[j] && d[j] <= '9' {
		j++
	}
	if i >= len(d) || j == i+1 || j < len(d) && isWord(d[j]) {
		return "", false
	}
	return d[i+1 : j], true
}

// hasFoldPrefix reports whether t starts with upper-case word w, ASCII
// letters compared without case.
func hasFoldPrefix(t, w string) bool {
	if len(t) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := t[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// skipSpace skips the bytes \s matches from t[i].
func skipSpace(t string, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\f' || t[i] == '\r') {
		i++
	}
	return i
}

// isWord is \w (ASCII, as \b reads it).
func isWord(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
