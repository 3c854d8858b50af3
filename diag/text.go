package diag

import (
	"strconv"
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
