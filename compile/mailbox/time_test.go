package mailbox

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	ok := []struct {
		in    string
		want  time.Time
		style string
	}{
		// RFC 3339 with Z, 0–9 fraction digits
		{"2026-01-14T15:09:41Z", utc(2026, 1, 14, 15, 9, 41, 0), "rfc3339-z"},
		{"2026-01-14T15:09:41.003Z", utc(2026, 1, 14, 15, 9, 41, 3_000_000), "rfc3339-z"},
		{"2026-01-14T15:09:41.003117Z", utc(2026, 1, 14, 15, 9, 41, 3_117_000), "rfc3339-z"},
		{"2026-01-14T15:09:41.5Z", utc(2026, 1, 14, 15, 9, 41, 500_000_000), "rfc3339-z"},
		{"2026-01-14T15:09:41.123456789Z", utc(2026, 1, 14, 15, 9, 41, 123_456_789), "rfc3339-z"},
		{"2026-01-14t15:09:41z", utc(2026, 1, 14, 15, 9, 41, 0), "rfc3339-z"},
		// offsets, converted to UTC
		{"2026-01-14T15:09:41.003117+00:00", utc(2026, 1, 14, 15, 9, 41, 3_117_000), "rfc3339-offset"},
		{"2025-01-01T00:03:21+00:00", utc(2025, 1, 1, 0, 3, 21, 0), "rfc3339-offset"},
		{"2026-01-14T17:09:41+02:00", utc(2026, 1, 14, 15, 9, 41, 0), "rfc3339-offset"},
		{"2026-01-14T10:09:41-05:00", utc(2026, 1, 14, 15, 9, 41, 0), "rfc3339-offset"},
		{"2026-01-01T01:30:00+0530", utc(2025, 12, 31, 20, 0, 0, 0), "rfc3339-offset"},
		{"2026-01-14T16:09:41+01", utc(2026, 1, 14, 15, 9, 41, 0), "rfc3339-offset"},
		{"2026-01-14 15:09:41+00:00", utc(2026, 1, 14, 15, 9, 41, 0), "rfc3339-offset"},
		// naive (UTC assumed)
		{"2026-01-14T15:09:41.003117", utc(2026, 1, 14, 15, 9, 41, 3_117_000), "naive-t"},
		{"2026-01-14T15:09:41", utc(2026, 1, 14, 15, 9, 41, 0), "naive-t"},
		{"2026-01-14 15:09:41.003117", utc(2026, 1, 14, 15, 9, 41, 3_117_000), "naive-space"},
		{"2026-01-14 15:09:41", utc(2026, 1, 14, 15, 9, 41, 0), "naive-space"},
		{"  2026-01-14 15:09:41  ", utc(2026, 1, 14, 15, 9, 41, 0), "naive-space"},
		// epoch by magnitude
		{"1768403381", utc(2026, 1, 14, 15, 9, 41, 0), "epoch"},
		{"1768403381003", utc(2026, 1, 14, 15, 9, 41, 3_000_000), "epoch"},
		{"1768403381003117", utc(2026, 1, 14, 15, 9, 41, 3_117_000), "epoch"},
		{"1768403381003117000", utc(2026, 1, 14, 15, 9, 41, 3_117_000), "epoch"},
		{"1768403381.25", utc(2026, 1, 14, 15, 9, 41, 250_000_000), "epoch"},
		{"0", utc(1970, 1, 1, 0, 0, 0, 0), "epoch"},
		{"100000000000", time.Unix(1e11, 0).UTC(), "epoch"},              // exactly 1e11: still seconds
		{"100000000001", utc(1973, 3, 3, 9, 46, 40, 1_000_000), "epoch"}, // > 1e11: milliseconds
		{"100000000000001", utc(1973, 3, 3, 9, 46, 40, 1_000), "epoch"},  // > 1e14: microseconds
		// date only, archive name stamp
		{"2026-01-14", utc(2026, 1, 14, 0, 0, 0, 0), "date"},
		{"2026-01-14T15-09-41Z", utc(2026, 1, 14, 15, 9, 41, 0), "archive-name"},
		// leap day
		{"2024-02-29T00:00:00Z", utc(2024, 2, 29, 0, 0, 0, 0), "rfc3339-z"},
	}
	for _, c := range ok {
		got, style, good := ParseTime(c.in)
		if !good {
			t.Errorf("ParseTime(%q) failed", c.in)
			continue
		}
		if !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) = %v, want %v (UTC)", c.in, got, c.want)
		}
		if style != c.style {
			t.Errorf("ParseTime(%q) style = %q, want %q", c.in, style, c.style)
		}
		known := false
		for _, s := range TimeStyles {
			known = known || s == style
		}
		if !known {
			t.Errorf("style %q is not in TimeStyles", style)
		}
	}
	bad := []string{
		"", "   ", "yesterday", "3m", "2h",
		"2026-13-01T00:00:00Z",            // month 13
		"2026-02-30T00:00:00Z",            // no such day
		"2025-02-29",                      // not a leap year
		"2026-01-14T24:00:00Z",            // hour 24
		"2026-01-14T15:60:00Z",            // minute 60
		"2026-01-14T15:09:41.Z",           // empty fraction
		"2026-01-14T15:09:41.1234567891Z", // 10 fraction digits
		"2026-01-14T15:09Z",               // no seconds
		"2026-01-14T15:09:41+25:00",       // bad offset
		"2026-01-14T15:09:41 UTC",         // zone name
		"2026-01-14T15:09:41ZZ",
		"2026/01/14 15:09:41",
		"14.01.2026",
		"-1768403381",
		"1768403381.",
		"1.768403381e9",
		"99999999999999999999", // overflows int64
		"2026-01-14X15:09:41Z",
		"2026-01-14T15-09-41", // archive stamp without Z
	}
	for _, in := range bad {
		if got, style, good := ParseTime(in); good || style != "" || !got.IsZero() {
			t.Errorf("ParseTime(%q) = %v, %q, %v; want failure", in, got, style, good)
		}
	}
}

func TestArchiveStamp(t *testing.T) {
	if got := archiveStamp("2026-01-14T15-09-41Z__delta-gpt__418.md"); got != "2026-01-14T15-09-41Z" {
		t.Errorf("archiveStamp = %q", got)
	}
	for _, name := range []string{"418.md", "2026-01-14T15:09:41Z__x__1.md", "notes.md"} {
		if got := archiveStamp(name); got != "" {
			t.Errorf("archiveStamp(%q) = %q, want empty", name, got)
		}
	}
	if got := archiveNameID("2026-01-14T15-09-41Z__delta-gpt__418.md"); got != "418" {
		t.Errorf("archiveNameID = %q", got)
	}
	if got := archiveNameID("418.md"); got != "418" {
		t.Errorf("archiveNameID(old layout) = %q", got)
	}
}
