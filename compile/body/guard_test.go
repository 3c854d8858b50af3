package body

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// TestGuard: the inputs that make CommonMark parsing quadratic are refused
// before the parser sees them; ordinary bodies, deep but sane nesting and
// many closed links pass.
func TestGuard(t *testing.T) {
	for name, src := range map[string]string{
		"nested quotes":       strings.Repeat(">", 5000) + " x",
		"nested spaced quote": strings.Repeat("> ", 5000) + "x",
		"nested lists":        strings.Repeat("- ", 5000) + "x",
		"ordered lists":       strings.Repeat("1. ", 5000) + "x",
		"unclosed links":      strings.Repeat("[a](", 5000),
		"huge":                strings.Repeat("a", limits.DefaultBodyBytes+1),
		"indented lists":      indentedLists(300),
	} {
		if Guard(src, limits.DefaultBodyBytes) == "" {
			t.Errorf("%s: not refused", name)
		}
	}
	for name, src := range map[string]string{
		"plain":        "# Title\n\n## Context\nSome text with a [link](https://example.com).\n",
		"deep enough":  strings.Repeat("> ", 20) + "- - 1. quoted list\n",
		"many links":   strings.Repeat("[a](b) ", 5000),
		"delta fences": "```delta\n{\"operation\": \"ADD\"}\n```\n",
		"star prose":   "*emphasis* and - a dash - in text\n",
		"some nesting": indentedLists(20),
	} {
		if why := Guard(src, limits.DefaultBodyBytes); why != "" {
			t.Errorf("%s: refused: %s", name, why)
		}
	}
}

func indentedLists(n int) string {
	var b strings.Builder
	for k := 0; k < n; k++ {
		b.WriteString(strings.Repeat("  ", k) + "- x\n")
	}
	return b.String()
}

// TestGuardLimitIsTheCallers: the size limit is the argument, not a
// package setting.
func TestGuardLimitIsTheCallers(t *testing.T) {
	src := strings.Repeat("a", 11)
	if why := Guard(src, 10); !strings.Contains(why, "over the limit of 10") {
		t.Errorf("11 bytes under a limit of 10: %q", why)
	}
	if why := Guard(src, 11); why != "" {
		t.Errorf("11 bytes under a limit of 11: %q", why)
	}
}

// TestGuardIndentation: a list marker after 2*MaxNesting columns of spaces
// and tabs is refused, and the message counts them; one column less passes,
// and so does deep indentation before text that is no list marker.
func TestGuardIndentation(t *testing.T) {
	ind := strings.Repeat(" \t", MaxNesting)
	if why := Guard(ind+"- x\n", limits.DefaultBodyBytes); !strings.Contains(why, "indented 200 columns") {
		t.Errorf("200 columns: %q", why)
	}
	if why := Guard(ind[1:]+"- x\n", limits.DefaultBodyBytes); why != "" {
		t.Errorf("199 columns: refused: %q", why)
	}
	if why := Guard(ind+"text\n", limits.DefaultBodyBytes); why != "" {
		t.Errorf("indented text: refused: %q", why)
	}
}
