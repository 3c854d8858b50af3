package reporters

import "strings"

// OneLine makes s safe for a one-line text record: line breaks and tabs
// become spaces, and other control characters (C0, DEL, C1 — which include
// terminal escape sequences) and invalid UTF-8 are dropped.
func OneLine(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == '\uFFFD' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch {
		case r == '\r' && strings.HasPrefix(s[i:], "\r\n"):
			// the \n that follows becomes the space
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
		case r == '\uFFFD' && !strings.HasPrefix(s[i:], "\uFFFD"):
			// invalid UTF-8 byte
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// StripControl drops control characters other than line breaks and tabs
// (and invalid UTF-8) from s, keeping its lines.
func StripControl(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
		case r == '\uFFFD' && !strings.HasPrefix(s[i:], "\uFFFD"):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
