package diag

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plural is one when n is 1, else many: Plural(n, "test", "tests"),
// Plural(n, "", "s") for a suffix, Plural(n, "does", "do").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n with its noun: Count(1, "item", "items") is "1 item",
// Count(2, "item", "items") "2 items".
func Count(n int, one, many string) string { return strconv.Itoa(n) + " " + Plural(n, one, many) }

// Invisible reports runes that change how the text around them is shown
// without showing themselves: line and paragraph separators and
// bidirectional controls (which can make a log line read differently from
// its bytes).
func Invisible(r rune) bool {
	switch {
	case r == 0x2028 || r == 0x2029, r == 0x200e || r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x061c:
		return true
	}
	return false
}

// HasControl reports whether s holds a control character (C0 including
// tab, DEL, C1), an invisible rune (Invisible) or invalid UTF-8: text that
// a terminal, a log or a workflow command would not show as written.
func HasControl(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || Invisible(r) || (r == utf8.RuneError && size == 1) {
			return true
		}
		i += size
	}
	return false
}

// CollapseSpace is s with its runs of white space (unicode.IsSpace) made one
// space and none at either end: strings.Join(strings.Fields(s), " "),
// which FuzzCollapseSpace holds it to, without the list of fields, and s itself
// when it is already so (the usual case: a name, a heading).
func CollapseSpace(s string) string {
	if collapsed(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	start := -1 // of the field being read
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[start:])
	}
	return b.String()
}

// collapsed reports whether s is already as CollapseSpace makes it: no
// white space but single ASCII spaces between other characters.
func collapsed(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				return false
			}
			i += size - 1
			continue
		}
		if c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ') || c != ' ' && asciiSpace[c] {
			return false
		}
	}
	return true
}

// asciiSpace marks the ASCII bytes unicode.IsSpace takes for white space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
