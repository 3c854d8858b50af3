package mailbox

import (
	"strings"
	"time"
)

// ParseTime parses an Agent Mail timestamp in any of the forms exports use
// and returns the instant in UTC and its style (one of TimeStyles):
//
//	2026-01-14T15:09:41.003Z, 2026-01-14T15:09:41Z         rfc3339-z
//	2026-01-14T15:09:41.003117+00:00, …+0100, …-05         rfc3339-offset (a space instead of T is accepted too)
//	2026-01-14T15:09:41.003117                             naive-t (UTC assumed)
//	2026-01-14 15:09:41.003117                             naive-space (UTC assumed)
//	1768403381, 1768403381003, 1768403381003117            epoch seconds, ms (> 1e11), µs (> 1e14), ns (> 1e17)
//	2026-01-14                                             date
//	2026-01-14T15-09-41Z                                   archive-name (archive file-name stamp)
//
// Fractions may have 0 to 9 digits. Epoch values may be written as JSON
// numbers or digit strings, optionally with a fraction of a second.
// Surrounding spaces are ignored. ok is false for anything else, including
// out-of-range fields (month 13, February 30, hour 24).
func ParseTime(s string) (t time.Time, style string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, "", false
	}
	if isDigit(s[0]) && allEpochChars(s) {
		return parseEpoch(s)
	}
	if len(s) < 10 || !isDate(s[:10]) {
		return time.Time{}, "", false
	}
	y, mo, d := atoi(s[0:4]), atoi(s[5:7]), atoi(s[8:10])
	if len(s) == 10 {
		if t, ok := mkTime(y, mo, d, 0, 0, 0, 0, 0); ok {
			return t, "date", true
		}
		return time.Time{}, "", false
	}
	sep := s[10]
	if sep != 'T' && sep != 't' && sep != ' ' {
		return time.Time{}, "", false
	}
	rest := s[11:]
	// archive file-name stamp: HH-MM-SSZ
	if len(rest) == 9 && (sep == 'T' || sep == 't') && rest[2] == '-' && rest[5] == '-' && (rest[8] == 'Z' || rest[8] == 'z') &&
		digits(rest[0:2]) && digits(rest[3:5]) && digits(rest[6:8]) {
		if t, ok := mkTime(y, mo, d, atoi(rest[0:2]), atoi(rest[3:5]), atoi(rest[6:8]), 0, 0); ok {
			return t, "archive-name", true
		}
		return time.Time{}, "", false
	}
	if len(rest) < 8 || rest[2] != ':' || rest[5] != ':' || !digits(rest[0:2]) || !digits(rest[3:5]) || !digits(rest[6:8]) {
		return time.Time{}, "", false
	}
	hh, mm, ss := atoi(rest[0:2]), atoi(rest[3:5]), atoi(rest[6:8])
	rest = rest[8:]
	nsec := 0
	if rest != "" && rest[0] == '.' {
		n := 1
		for n < len(rest) && isDigit(rest[n]) {
			n++
		}
		frac := rest[1:n]
		if len(frac) == 0 || len(frac) > 9 {
			return time.Time{}, "", false
		}
		nsec = atoi(frac)
		for i := len(frac); i < 9; i++ {
			nsec *= 10
		}
		rest = rest[n:]
	}
	offset := 0
	switch {
	case rest == "":
		style = "naive-t"
		if sep == ' ' {
			style = "naive-space"
		}
	case rest == "Z" || rest == "z":
		style = "rfc3339-z"
	case rest[0] == '+' || rest[0] == '-':
		off, ok := parseOffset(rest[1:])
		if !ok {
			return time.Time{}, "", false
		}
		if rest[0] == '-' {
			off = -off
		}
		offset = off
		style = "rfc3339-offset"
	default:
		return time.Time{}, "", false
	}
	t, ok = mkTime(y, mo, d, hh, mm, ss, nsec, offset)
	if !ok {
		return time.Time{}, "", false
	}
	return t, style, true
}

// parseOffset parses HH:MM, HHMM or HH and returns seconds east of UTC.
func parseOffset(s string) (int, bool) {
	var h, m int
	switch {
	case len(s) == 5 && s[2] == ':' && digits(s[0:2]) && digits(s[3:5]):
		h, m = atoi(s[0:2]), atoi(s[3:5])
	case len(s) == 4 && digits(s):
		h, m = atoi(s[0:2]), atoi(s[2:4])
	case len(s) == 2 && digits(s):
		h = atoi(s)
	default:
		return 0, false
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	return h*3600 + m*60, true
}

func mkTime(y, mo, d, hh, mm, ss, nsec, offset int) (time.Time, bool) {
	if mo < 1 || mo > 12 || d < 1 || hh > 23 || mm > 59 || ss > 59 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, hh, mm, ss, nsec, time.UTC)
	if t.Day() != d || t.Month() != time.Month(mo) {
		return time.Time{}, false // e.g. February 30
	}
	return t.Add(-time.Duration(offset) * time.Second).UTC(), true
}

func allEpochChars(s string) bool {
	dot := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if dot || i == len(s)-1 {
				return false
			}
			dot = true
			continue
		}
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// parseEpoch parses digits[.digits]: seconds, or ms / µs / ns by magnitude.
func parseEpoch(s string) (time.Time, string, bool) {
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i+1:]
	}
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	if len(intPart) > 19 {
		return time.Time{}, "", false
	}
	var v uint64
	for i := 0; i < len(intPart); i++ {
		v = v*10 + uint64(intPart[i]-'0')
	}
	if len(intPart) == 19 && intPart > "9223372036854775807" {
		return time.Time{}, "", false
	}
	n := int64(v)
	// unit in nanoseconds
	var unit int64
	switch {
	case n > 1e17:
		unit = 1
	case n > 1e14:
		unit = 1e3
	case n > 1e11:
		unit = 1e6
	default:
		unit = 1e9
	}
	sec := n / (1e9 / unit)
	nsec := (n % (1e9 / unit)) * unit
	if frac != "" {
		// fraction of the unit, up to nanosecond precision
		var f int64
		scale := unit
		for i := 0; i < len(frac) && scale > 1; i++ {
			scale /= 10
			f += int64(frac[i]-'0') * scale
		}
		nsec += f
	}
	return time.Unix(sec, nsec).UTC(), "epoch", true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return len(s) > 0
}

func isDate(s string) bool {
	return digits(s[0:4]) && s[4] == '-' && digits(s[5:7]) && s[7] == '-' && digits(s[8:10])
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// archiveStamp returns the YYYY-MM-DDTHH-MM-SSZ prefix of an archive message
// file name (…Z__subject__id.md), or "".
func archiveStamp(base string) string {
	if len(base) < 20 {
		return ""
	}
	if _, style, ok := ParseTime(base[:20]); ok && style == "archive-name" {
		return base[:20]
	}
	return ""
}
