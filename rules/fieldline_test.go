package rules

import (
	"regexp"
	"testing"
)

// fieldPattern is the pattern fieldLine writes out.
func fieldPattern(label string) *regexp.Regexp {
	return regexp.MustCompile(`(?mi)^\s*(?:[-*]\s+)?\*\*` + regexp.QuoteMeta(label) + `\*\*\s*:\s*(.*?)\s*$`)
}

var fieldLabels = []string{"Thread ID", "Artifact Path", "Base Version", "Artifact Version", "Compiled At", "Version", "Previous Version"}

func checkFieldLine(t *testing.T, line string) {
	for _, label := range fieldLabels {
		vs, ve, ok := fieldLine(line, label)
		loc := fieldPattern(label).FindStringSubmatchIndex(line)
		if ok != (loc != nil) || ok && (vs != loc[2] || ve != loc[3]) {
			t.Fatalf("fieldLine(%q, %q) = %d, %d, %v; the pattern gives %v", line, label, vs, ve, ok, loc)
		}
	}
}

// TestFieldLineMatchesPattern: fieldLine is the regular expression it
// replaced, written out.
func TestFieldLineMatchesPattern(t *testing.T) {
	for _, line := range []string{
		"- **Thread ID**: RS-1", "**Thread ID**:RS-1  ", "  * **thread id** :  x ", "**THREAD ID**:", "-**Thread ID**: x",
		"- - **Version**: v1", "**Verſion**: v2", "\t-\t**Base Version**\t:\tv3\r", "**Compiled At**: 2026", "* **Version** v1",
		"**Previous Version**: `v1`", "** Version**: x", "*  **Artifact Path**: `artifacts/x.md`", "", "*", "- ", "**Version**",
		"\f**Version**:\f", "**Version**::", "**Version** **: x", "1. **Version**: x",
	} {
		checkFieldLine(t, line)
	}
}

func FuzzFieldLine(f *testing.F) {
	f.Add("- **Thread ID**: RS-1")
	f.Add("  * **base version** :  v2 ")
	f.Fuzz(func(t *testing.T, line string) {
		for i := 0; i < len(line); i++ {
			if line[i] == '\n' {
				return // fieldLine sees one line
			}
		}
		checkFieldLine(t, line)
	})
}
