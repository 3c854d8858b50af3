package reporters

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
)

// OneLine makes s safe for a one-line text record: line breaks and tabs
// become spaces, other control characters (C0, DEL, C1 — which include
// terminal escape sequences) and invalid UTF-8 are dropped, and invisible
// and bidirectional controls (diag.Invisible: a U+202E in a file name
// would mirror the rest of its line in a rendered report) are shown as
// \uXXXX.
func OneLine(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == '\uFFFD' || diag.Invisible(r) {
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
		case diag.Invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case r == '\uFFFD' && !strings.HasPrefix(s[i:], "\uFFFD"):
			// invalid UTF-8 byte
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Safe renders untrusted text (thread ids, subjects, agent names, paths,
// messages) for a terminal or a CI log, where GitHub Actions reads workflow
// commands from both standard output and standard error: line breaks and
// control characters (C0, DEL, C1 — terminal escape sequences among them)
// are shown escaped (\n, \r, \x1b, \u009b), invalid UTF-8 bytes as \xNN,
// and a leading "::" — a workflow command — as "\x3a:". The result is one
// line that starts no workflow command and moves no cursor. Every print of
// input-derived text to standard output or standard error goes through it.
func Safe(s string) string { return safe(s, lineBreaksEscaped) }

// SafeOneLine is Safe with line breaks shown as spaces, for messages in a
// one-line record.
func SafeOneLine(s string) string { return safe(s, lineBreaksSpace) }

// SafeText is Safe with line breaks kept, for text whose breaks are escaped
// later (a workflow command's message, where they become %0A).
func SafeText(s string) string { return safe(s, lineBreaksKept) }

const (
	lineBreaksEscaped = iota
	lineBreaksSpace
	lineBreaksKept
)

func safe(s string, breaks int) string {
	s = diag.RedactSecrets(s)
	clean := !strings.HasPrefix(s, "::") && !strings.Contains(s, "##[")
	if clean {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f || c >= 0x80 {
				clean = false
				break
			}
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	if strings.HasPrefix(s, "::") {
		b.WriteString(`\x3a`)
		s = s[1:]
	}
	// "##[" starts the runner's older command form (##[group], ##[error]).
	s = strings.ReplaceAll(s, "##[", `#\x23[`)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case (r == '\n' || r == '\r') && breaks == lineBreaksKept:
			b.WriteRune(r)
		case (r == '\n' || r == '\r') && breaks == lineBreaksSpace:
			if r == '\n' || !strings.HasPrefix(s[i:], "\r\n") {
				b.WriteByte(' ')
			}
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteByte('\t')
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, diag.Invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
