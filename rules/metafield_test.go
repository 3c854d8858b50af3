package rules

import (
	"regexp"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// metaFieldOf runs metaField on a message holding body.
func metaFieldOf(body, label string) (string, int, int, bool) {
	c := &Ctx{}
	return c.metaField(&compile.Msg{Message: &mailbox.Message{Body: body}}, label)
}

// metaFieldByPattern is what metaField documents: the documented pattern
// applied to each line in turn, the first matching line's group, its
// value trimmed of white space and backticks.
func metaFieldByPattern(re *regexp.Regexp, body string) (string, int, int, bool) {
	for ls := 0; ls <= len(body); {
		le := len(body)
		if j := strings.IndexByte(body[ls:], '\n'); j >= 0 {
			le = ls + j
		}
		if loc := re.FindStringSubmatchIndex(body[ls:le]); loc != nil {
			vs, ve := ls+loc[2], ls+loc[3]
			return strings.Trim(strings.TrimSpace(body[vs:ve]), "`"), vs, ve, true
		}
		ls = le + 1
	}
	return "", 0, 0, false
}

// TestMetaFieldAnyCase: the label matches in any case, as the pattern's
// (?i) says, not only in its first letter.
func TestMetaFieldAnyCase(t *testing.T) {
	for _, tc := range []struct{ body, label, want string }{
		{"- **VERSION**: v2", "Version", "v2"},
		{"text\n**vERSION**: v3\n", "Version", "v3"},
		{"- **PREVIOUS VERSION**: v1", "Previous Version", "v1"},
		{"- **Thread id**: RS-1", "Thread ID", "RS-1"},
		{"- **compiled at**: 2026-01-14T15:09:41Z", "Compiled At", "2026-01-14T15:09:41Z"},
		{"- **Verſion**: v4", "Version", "v4"}, // ſ folds to s, as (?i) has it
	} {
		v, _, _, ok := metaFieldOf(tc.body, tc.label)
		if !ok || v != tc.want {
			t.Errorf("metaField(%q, %q) = %q, %v; want %q", tc.body, tc.label, v, ok, tc.want)
		}
	}
}

// TestBodyVersionUpperCaseLabel: AP-013 reads a "**VERSION**:" line that
// disagrees with the subject (the title alone agrees).
func TestBodyVersionUpperCaseLabel(t *testing.T) {
	if n := runMessageRule(t, "AP-013", "COMPILED: v2 integrated critique", "# Compiled Artifact v2\n\n## Metadata\n- **VERSION**: v3\n"); n != 1 {
		t.Errorf("AP-013 on a body whose VERSION line says v3 under a v2 subject: %d findings, want 1", n)
	}
	if n := runMessageRule(t, "AP-013", "COMPILED: v2 integrated critique", "# Compiled Artifact v2\n\n## Metadata\n- **VERSION**: v2\n"); n != 0 {
		t.Errorf("AP-013 on a body whose VERSION line agrees: %d findings, want 0", n)
	}
}

// FuzzMetaField holds metaField to its documented pattern, per line.
func FuzzMetaField(f *testing.F) {
	f.Add("# Compiled Artifact v2\n\n## Metadata\n- **Version**: `v2`\r\n- **Previous Version**: v1\n")
	f.Add("- **VERSION**: v2\n**thread id**:RS-1")
	f.Add("**Version** of x\n  - **Version**: v4\n**Version**: v5")
	res := make([]*regexp.Regexp, len(fieldLabels))
	for i, label := range fieldLabels {
		res[i] = regexp.MustCompile(`(?im)^\s*(?:[-*]\s+)?\*\*` + regexp.QuoteMeta(label) + `\*\*\s*:\s*(.*?)\s*$`)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for i, label := range fieldLabels {
			v, s, e, ok := metaFieldOf(body, label)
			wv, ws, we, wok := metaFieldByPattern(res[i], body)
			if v != wv || s != ws || e != we || ok != wok {
				t.Fatalf("metaField(%q, %q) = %q %d %d %v; the pattern gives %q %d %d %v", body, label, v, s, e, ok, wv, ws, we, wok)
			}
		}
	})
}
