package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

func TestValidISO(t *testing.T) {
	for s, want := range map[string]bool{
		"2026-01-14T15:09:41Z":          true,
		"2026-01-14T15:09:41.123+01:00": true,
		"2026-01-14 15:09":              true,
		"2026-01-14T15:09:41+0100":      true,
		"2026-02-30T10:00:00Z":          false, // no such day
		"2026-01-14T25:00:00Z":          false,
		"2026-01-14":                    false, // a date, not a date-time
		"yesterday":                     false,
		"14/01/2026 15:09":              false,
	} {
		if got := validISO(s); got != want {
			t.Errorf("validISO(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestEnumSectionValues: the value is read tolerantly (case, emphasis, a
// reason after it) but must be one of the listed words, not a prefix of a
// longer word.
func TestEnumSectionValues(t *testing.T) {
	for body, ok := range map[string]bool{
		"## Severity\nMajor\n":                      true,
		"## Severity\n**critical** — H2 is wrong\n": true,
		"## Severity\nMinor: a typo\n":              true,
		"## Severity\nMajorly bad\n":                false,
		"## Severity\nHigh\n":                       false,
		"## Severity\n\n":                           false,
	} {
		got := runMessageRule(t, "MB-015", "CRITIQUE: H2 timing", "# Critique\n\n## Target\nH2\n\n## Attack\nx\n\n"+body)
		if (got == 0) != ok {
			t.Errorf("%q: %d findings, want ok=%v", body, got, ok)
		}
	}
}

// runMessageRule runs rule id on a one-message thread and counts its
// findings.
func runMessageRule(t *testing.T, id, subj, body string) int {
	t.Helper()
	th := oneMessageThread(t, subj, body)
	r := Lookup(id)
	c := &Ctx{T: th, Thread: th.Key}
	for _, m := range th.Msgs {
		c.M = m
		c.rule = r
		r.Check(c)
	}
	return len(c.out)
}

// oneMessageThread compiles a thread of one message.
func oneMessageThread(t *testing.T, subj, body string) *compile.Thread {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"thread_id": "RS-20251230-cell-fate", "messages": []map[string]any{{
		"id": 1, "thread_id": "RS-20251230-cell-fate", "subject": subj, "from": "GreenDog",
		"created_ts": "2025-12-30T10:00:00Z", "body_md": body}}})
	path := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return compileFixture(t, path)
}

func TestMetaField(t *testing.T) {
	body := "# Compiled Artifact v2\n\nSee the **Version** table below.\n\n## Metadata\n- **Version**: `v2`\r\n- **Previous Version**: v1\n"
	metaField := func(body, label string) (string, int, int, bool) {
		c := &Ctx{}
		return c.metaField(&compile.Msg{Message: &mailbox.Message{Body: body}}, label)
	}
	v, s, e, ok := metaField(body, "Version")
	if !ok || v != "v2" || body[s:e] != "`v2`" {
		t.Errorf("Version: %q %q %v", v, body[s:e], ok)
	}
	if v, _, _, ok := metaField(body, "Previous Version"); !ok || v != "v1" {
		t.Errorf("Previous Version: %q %v", v, ok)
	}
	if _, _, _, ok := metaField(body, "Compiled At"); ok {
		t.Error("Compiled At found in a body without it")
	}
	if v, _, _, ok := metaField("* **version**: v3", "Version"); !ok || v != "v3" {
		t.Errorf("lower-case label: %q %v", v, ok)
	}
	// The first line that matches, not the first that holds the label.
	if v, _, _, ok := metaField("**Version** of x\n  - **Version**: v4\n**Version**: v5", "Version"); !ok || v != "v4" {
		t.Errorf("first matching line: %q %v", v, ok)
	}
	// A line holding the label inside another one, or twice, is passed over.
	if v, _, _, ok := metaField("- **Previous Version**: v1 **Version**: x\n- **Version**: v2", "Version"); !ok || v != "v2" {
		t.Errorf("after a longer label: %q %v", v, ok)
	}
	if v, s, _, ok := metaField("text\n**Version**:   v7  ", "Version"); !ok || v != "v7" || s != 20 {
		t.Errorf("last line without a newline: %q at %d, %v", v, s, ok)
	}
}
