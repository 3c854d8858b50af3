package cli

import (
	"strings"
	"testing"
)

// TestExplain: explain prints a rule's documentation by id (any case) or
// name, with its examples; an unknown rule is a usage error with a "did
// you mean".
func TestExplain(t *testing.T) {
	for _, arg := range []string{"MB-006", "mb-006", "critique-missing-target"} {
		code, out, _ := runCLI(t, "explain", arg)
		if code != ExitOK || !strings.HasPrefix(out, "# MB-006\n") || !strings.Contains(out, "Bad:") || !strings.Contains(out, "Fixed:") {
			t.Errorf("explain %s: exit %d\n%s", arg, code, out)
		}
	}
	code, _, errs := runCLI(t, "explain", "MB-06")
	if code != ExitUsage || !strings.Contains(errs, "did you mean MB-006?") {
		t.Errorf("explain MB-06: exit %d, %q", code, errs)
	}
}

// TestHelpAndBareCall: "help [command]" prints that usage and exits 0; a
// bare call prints the whole usage — every command, the exit codes — on
// standard error and is a usage error (kong alone printed a truncated
// list of commands).
func TestHelpAndBareCall(t *testing.T) {
	code, out, _ := runCLI(t, "help", "check")
	if code != ExitOK || !strings.Contains(out, "Usage: brenner-ci check") || !strings.Contains(out, "--new-from-rev") {
		t.Errorf("help check: exit %d\n%s", code, out)
	}
	code, out, errs := runCLI(t)
	if code != ExitUsage || out != "" {
		t.Errorf("bare call: exit %d, stdout %q", code, out)
	}
	for _, want := range []string{"check-message", "merge", "graph", "explain", "Exit codes: 0", "Examples:"} {
		if !strings.Contains(errs, want) {
			t.Errorf("bare call: the usage lacks %q:\n%s", want, errs)
		}
	}
}
